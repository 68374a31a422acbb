/**
 * MCP figures against the reference filesystem server over stdio: its start (spawn → initialize →
 * tools/list → ready) and the per-call overhead of a tool call through the manager (call to
 * result, a small file read), the SDK already loaded.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { McpManager } from '../src/runtime/mcp/manager.js';
import { type BenchRow, median, ms, percentile } from './lib.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CALLS = 200;
const STARTS = 5;

export default async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tiller-bench-mcp-'));
  const file = join(dir, 'small.txt');
  writeFileSync(file, 'a small file\n'.repeat(20));
  const config = { fs: { command: join(ROOT, 'node_modules/.bin/mcp-server-filesystem'), args: [dir] } };
  const signal = new AbortController().signal;

  const starts: number[] = [];
  for (let i = 0; i <= STARTS; i++) {
    const manager = new McpManager(config, { cwd: dir });
    const start = performance.now();
    const outcome = await manager.ensureReady('fs', signal);
    // The first start also loads the SDK: a warm-up, not a sample.
    if (i > 0) starts.push(performance.now() - start);
    await manager.close();
    if (!outcome.ok) throw new Error(`filesystem server: ${outcome.reason}`);
  }

  const manager = new McpManager(config, { cwd: dir });
  try {
    const ready = await manager.ensureReady('fs', signal);
    if (!ready.ok) throw new Error(`filesystem server: ${ready.reason}`);
    const tool = manager.toolTable().byName.get('fs__read_text_file') ?? manager.toolTable().byName.get('fs__read_file');
    if (!tool) throw new Error('filesystem server: no read_text_file tool');
    for (let i = 0; i < 10; i++) await manager.callTool(tool, { path: file }, { signal });
    const calls: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const start = performance.now();
      await manager.callTool(tool, { path: file }, { signal });
      calls.push(performance.now() - start);
    }
    return [
      {
        name: 'MCP server start (filesystem, stdio: spawn → ready)',
        value: ms(median(starts)),
        note: `median of ${STARTS}, after one warm-up that loads the SDK`,
      },
      {
        name: 'MCP tool call, call → result (filesystem read_text_file)',
        value: ms(median(calls)),
        note: `median of ${CALLS} through the manager; p95 ${ms(percentile(calls, 95))}`,
      },
    ];
  } finally {
    await manager.close();
  }
}
