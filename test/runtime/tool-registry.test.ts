/** The tool seam holds: every tool is registered, and nothing builds one behind the registry's back. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS, toolTable } from '../../src/runtime/tools/registry.js';
import { modelFamily } from '../../src/runtime/tools/model-family.js';
import { NO_HOSTED_TOOLS, type Tool } from '../../src/runtime/tools/tool.js';
import type { ToolSpec } from '../../src/runtime/model/types.js';
import { ROOT } from './support/spawn.js';

const specName = (spec: ToolSpec): string => ('name' in spec ? spec.name : spec.type);

const TOOLS_DIR = join(ROOT, 'src/runtime/tools');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const isTool = (value: unknown): value is Tool =>
  typeof value === 'object' && value !== null && 'name' in value && 'handle' in value && 'spec' in value && 'confinement' in value;

describe('the tool registry', () => {
  it('lists every Tool a tool folder exports (a new tool needs its line in BUILTIN_TOOLS)', async () => {
    const folders = readdirSync(TOOLS_DIR).filter((name) => statSync(join(TOOLS_DIR, name)).isDirectory());
    expect(folders.length).toBeGreaterThan(0);
    const unregistered: string[] = [];
    for (const folder of folders) {
      for (const file of sourceFiles(join(TOOLS_DIR, folder))) {
        const module = (await import(file)) as Record<string, unknown>;
        for (const [exported, value] of Object.entries(module)) {
          if (isTool(value) && !BUILTIN_TOOLS.includes(value)) unregistered.push(`${relative(ROOT, file)}: ${exported}`);
        }
      }
    }
    expect(unregistered, 'add each to BUILTIN_TOOLS in src/runtime/tools/registry.ts').toEqual([]);
  });

  it('no Tool is built outside src/runtime/tools/, and MCP tools only by the registry', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(join(ROOT, 'src'))) {
      const text = readFileSync(file, 'utf8');
      const path = relative(ROOT, file);
      if (!path.startsWith('src/runtime/tools/') && /\bconfinement:\s*'(sandbox|unconfined)'/.test(text))
        offenders.push(`${path} defines a Tool`);
      if (!['src/runtime/tools/registry.ts', 'src/runtime/tools/mcp/tool.ts'].includes(path) && /\bmcpTool\(/.test(text)) {
        offenders.push(`${path} builds an MCP tool`);
      }
    }
    expect(offenders, 'tools live in src/runtime/tools/<name>/ and are offered through tools/registry.ts').toEqual([]);
  });

  it('a request offers the built-in tools, then the ready MCP servers’ tools, resolved by name', () => {
    const mcpSpec = { type: 'function' as const, name: 'docs__search', description: 'd', strict: false, parameters: {} };
    const entry = { server: 'docs', tool: 'search', trusted: false } as never;
    const reserved: string[][] = [];
    const servers = {
      toolTable: (names: readonly string[]) => {
        reserved.push([...names]);
        return { specs: [mcpSpec], byName: new Map([['docs__search', entry]]) };
      },
    } as never;
    const table = toolTable(modelFamily('gpt-5.5'), servers);
    const builtins = (model: string): string[] =>
      BUILTIN_TOOLS.flatMap((tool) => {
        const spec = tool.spec(modelFamily(model), NO_HOSTED_TOOLS);
        return spec === null ? [] : [specName(spec)];
      });
    expect(table.specs.map(specName)).toEqual([...builtins('gpt-5.5'), 'docs__search']);
    expect(table.specs.map(specName).slice(0, 3)).toEqual(['exec_command', 'write_stdin', 'apply_patch']);
    expect(reserved).toEqual([BUILTIN_TOOLS.map((tool) => tool.name)]);
    // `shell` is offered to no family, yet answers calls from older histories.
    expect(table.specs.map(specName)).not.toContain('shell');
    expect(table.byName.get('shell')?.name).toBe('shell');
    expect(table.byName.get('docs__search')).toMatchObject({ name: 'docs__search', confinement: 'unconfined', itemType: 'mcpToolCall' });
    expect(toolTable(modelFamily('llama3')).specs.map(specName)).toEqual(builtins('llama3'));
  });
});
