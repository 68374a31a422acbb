/**
 * A tiny MCP server for the failure modes (built on the SDK's server classes). Run over stdio with
 * `node --import tsx test/support/mcp-fixture-server.ts [flags]`:
 *   --crash-on-start       print to stderr and exit 3 before answering anything
 *   --hang                 read stdin, never answer (start-up times out)
 *   --bad-schema           also list a tool whose input schema is not an object schema
 *   --pid-file FILE        write its pid to FILE
 *   --log FILE             append a line per notable event (`cancelled slow`)
 *   --start-delay MS       wait before answering anything (a server that is slow to start)
 *   --spawn-child FILE     start a long-lived child process and write the child's pid to FILE
 * Or over streamable HTTP on 127.0.0.1, in process: startHttpFixture({ token }).
 *
 * Tools: echo {text}, slow {ms} (progress, honours cancellation), fail (isError), huge {bytes},
 * crash (exits mid-call), image (an image block and structured content). Resource: fixture://hello.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

export const FIXTURE_RESOURCE_URI = 'fixture://hello';
export const FIXTURE_RESOURCE_TEXT = 'hello from the fixture resource';
/** A 1×1 PNG. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

export interface FixtureOptions {
  badSchema?: boolean;
  log?: (line: string) => void;
}

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });

export function createFixtureServer(options: FixtureOptions = {}): Server {
  const server = new Server({ name: 'tiller-fixture', version: '1.0.0' }, { capabilities: { tools: {}, resources: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'echo', description: 'Echoes its text.', inputSchema: object({ text: { type: 'string' } }, ['text']) },
      { name: 'slow', description: 'Waits `ms` milliseconds.', inputSchema: object({ ms: { type: 'number' } }, ['ms']) },
      { name: 'fail', description: 'Always reports an error.', inputSchema: object({}) },
      { name: 'huge', description: 'Returns `bytes` bytes of text.', inputSchema: object({ bytes: { type: 'number' } }, ['bytes']) },
      { name: 'crash', description: 'Exits in the middle of the call.', inputSchema: object({}) },
      { name: 'image', description: 'Returns a tiny image.', inputSchema: object({}) },
      ...(options.badSchema ? [{ name: 'bad', description: 'A tool with a broken schema.', inputSchema: { type: 'string' } }] : []),
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    switch (request.params.name) {
      case 'echo':
        return { content: [{ type: 'text', text: `echo: ${String(args.text)}` }] };
      case 'slow': {
        const token = request.params._meta?.progressToken;
        if (token !== undefined)
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: 0, total: 1, message: 'sleeping' },
          });
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, Number(args.ms));
          extra.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            options.log?.('cancelled slow');
            reject(new Error('cancelled'));
          });
        });
        return { content: [{ type: 'text', text: `slept ${String(args.ms)} ms` }] };
      }
      case 'fail':
        return { isError: true, content: [{ type: 'text', text: 'fixture failure: nothing works' }] };
      case 'huge': {
        const bytes = Number(args.bytes);
        return { content: [{ type: 'text', text: `START${'x'.repeat(Math.max(0, bytes - 8))}END` }] };
      }
      case 'crash':
        process.stderr.write('fixture: crashing mid-call\n');
        process.exit(7);
      // falls through (never reached)
      case 'image':
        return {
          content: [
            { type: 'text', text: 'a picture:' },
            { type: 'image', data: PNG_1X1, mimeType: 'image/png' },
          ],
          structuredContent: { width: 1, height: 1 },
        };
      default:
        return { isError: true, content: [{ type: 'text', text: `unknown tool ${request.params.name}` }] };
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [{ uri: FIXTURE_RESOURCE_URI, name: 'hello', mimeType: 'text/plain' }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    if (request.params.uri !== FIXTURE_RESOURCE_URI) throw new Error(`no resource ${request.params.uri}`);
    return { contents: [{ uri: FIXTURE_RESOURCE_URI, mimeType: 'text/plain', text: FIXTURE_RESOURCE_TEXT }] };
  });
  return server;
}

export interface HttpFixture {
  url: string;
  /** Requests turned away for a missing or wrong bearer token. */
  unauthorized: number;
  close(): Promise<void>;
}

/** The fixture over streamable HTTP (stateless) on 127.0.0.1; requests without `Authorization: Bearer <token>` get 401. */
export async function startHttpFixture(options: { token: string }): Promise<HttpFixture> {
  const fixture: HttpFixture = { url: '', unauthorized: 0, close: async () => undefined };
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.headers.authorization !== `Bearer ${options.token}`) {
      fixture.unauthorized += 1;
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unauthorized' }));
      return;
    }
    const server = createFixtureServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  fixture.url = `http://127.0.0.1:${address.port}/mcp`;
  fixture.close = () =>
    new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    });
  return fixture;
}

async function main(argv: string[]): Promise<void> {
  const flag = (name: string): boolean => argv.includes(name);
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const pidFile = value('--pid-file');
  if (pidFile) writeFileSync(pidFile, String(process.pid));
  const childFile = value('--spawn-child');
  if (childFile) {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e9)'], { stdio: 'ignore' });
    writeFileSync(childFile, String(child.pid));
  }
  const delay = Number(value('--start-delay') ?? 0);
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  if (flag('--crash-on-start')) {
    process.stderr.write('fixture: cannot start, no config\n');
    process.exit(3);
  }
  if (flag('--hang')) {
    process.stdin.resume();
    setInterval(() => undefined, 1 << 30);
    return;
  }
  const logFile = value('--log');
  const log = logFile ? (line: string) => appendFileSync(logFile, `${line}\n`) : undefined;
  await createFixtureServer({ badSchema: flag('--bad-schema'), ...(log ? { log } : {}) }).connect(new StdioServerTransport());
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) void main(process.argv.slice(2));
