/**
 * The wire seam (src/runtime/model/wire.ts, docs/architecture.md "How to add a wire"): every wire is
 * a folder under src/runtime/model/wires/ listed in the registry, nothing in src/ implements the
 * model contract outside one, only create.ts and the registry reach a wire, and each listed wire
 * makes a client that answers. The source is read as text, so a wire cannot be missed by
 * forgetting to import it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { wireFor } from '../../../src/runtime/model/create.js';
import type { ModelEvent } from '../../../src/runtime/model/types.js';
import { WIRES, type WireId } from '../../../src/runtime/model/wires/index.js';
import { FakeAnthropicServer } from '../../support/fake-anthropic-server.js';
import { FakeChatServer } from '../../support/fake-chat-server.js';
import { FakeResponsesServer } from '../../support/fake-responses-server.js';
import { helloRequest } from '../support/model-request.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const MODEL = 'src/runtime/model';
const WIRES_DIR = `${MODEL}/wires`;
const REGISTRY = `${WIRES_DIR}/index.ts`;
const CREATE = `${MODEL}/create.ts`;
const HOW_TO = 'see docs/architecture.md "How to add a wire"';

function sourceFiles(dir = 'src'): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

/** The repository paths a module imports (static, side-effect and dynamic imports of relative specifiers). */
function importsOf(path: string): string[] {
  const specifiers = [...read(path).matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)'(\.[^']*)'/g)].map((m) => m[1]!);
  return specifiers.map((spec) => posix.normalize(posix.join(dirname(path), spec)).replace(/\.js$/, '.ts'));
}

/** The wire a path belongs to, or null outside src/runtime/model/wires/<id>/. */
function wireOf(path: string): string | null {
  return new RegExp(`^${WIRES_DIR}/([^/]+)/`).exec(path)?.[1] ?? null;
}

/** A `stream` member that is a function (`stream: (…) =>`, `stream(…)`, `async *stream(`), not a call `x.stream(`. */
const STREAM_MEMBER = /(?:^|[^.\w])stream(?::\s*(?:async\s+)?(?:function\b|\()|\()/m;

function implementsModelClient(text: string): boolean {
  return /\bimplements\s+ModelClient\b/.test(text) || (STREAM_MEMBER.test(text) && /\bModel(Client|Event)\b/.test(text));
}

const registered = new Set<string>(WIRES.map((wire) => wire.id));

describe('the wire registry', () => {
  it('lists every folder under src/runtime/model/wires/, by its wire.ts', () => {
    const folders = readdirSync(join(ROOT, WIRES_DIR), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const registry = importsOf(REGISTRY);
    const problems = folders.flatMap((id) => {
      const entry = `${WIRES_DIR}/${id}/wire.ts`;
      if (!existsSync(join(ROOT, entry))) return [`${WIRES_DIR}/${id}/ has no wire.ts: export its Wire from ${entry}`];
      if (!registry.includes(entry) || !registered.has(id)) {
        return [`${WIRES_DIR}/${id}/ is not registered: add its Wire (id '${id}') to WIRES in ${REGISTRY}`];
      }
      return [];
    });
    const strays = [...registered].filter((id) => !folders.includes(id));
    problems.push(...strays.map((id) => `wire '${id}' has no folder: a wire's id is the name of its folder under ${WIRES_DIR}/`));
    expect(problems, `${problems.join('\n')}\n(${HOW_TO})`).toEqual([]);
  });

  it('finds no model client and no Wire outside a registered wire', () => {
    const contracts = new Set([`${MODEL}/types.ts`, `${MODEL}/wire.ts`]);
    const problems = sourceFiles().flatMap((path) => {
      if (contracts.has(path)) return [];
      const wire = wireOf(path);
      const inWire = wire !== null && registered.has(wire);
      const found: string[] = [];
      if (implementsModelClient(read(path)) && !inWire) {
        found.push(
          `${path} implements the ModelClient contract outside a registered wire: move it into ${WIRES_DIR}/<id>/ and register that wire in ${REGISTRY}`,
        );
      }
      const isEntry = path === REGISTRY || (inWire && path === `${WIRES_DIR}/${wire}/wire.ts`);
      if (importsOf(path).includes(`${MODEL}/wire.ts`) && !isEntry) {
        found.push(
          `${path} uses the Wire interface but is not a registered wire's entry: a Wire lives in ${WIRES_DIR}/<id>/wire.ts and is listed in ${REGISTRY}`,
        );
      }
      return found;
    });
    expect(problems, `${problems.join('\n')}\n(${HOW_TO})`).toEqual([]);
  });

  it('is the only way to a wire: nothing but create.ts imports it, and nothing else imports a wire', () => {
    const allowed = (from: string, to: string): boolean => {
      if (from === CREATE) return to === REGISTRY;
      if (from === REGISTRY) return /^[^/]+\/wire\.ts$/.test(to.slice(WIRES_DIR.length + 1));
      const wire = wireOf(from);
      if (wire === null) return false;
      // The offline model is the Responses client against a server in process (.dependency-cruiser.cjs).
      if (wire === 'offline' && /\/responses\/(client|sse-events)\.ts$/.test(to)) return true;
      return wireOf(to) === wire;
    };
    const problems = sourceFiles().flatMap((from) =>
      importsOf(from)
        .filter((to) => to.startsWith(`${WIRES_DIR}/`) && !allowed(from, to))
        .map(
          (to) =>
            `${from} imports ${to}: make a model client with createModelClient (${CREATE}), which picks the wire through ${REGISTRY}; what wires share belongs in ${MODEL}/`,
        ),
    );
    expect(problems, `${problems.join('\n')}\n(${HOW_TO})`).toEqual([]);
  });

  it("picks offline with neither a key nor a base URL, else the provider's wire_api (responses by default)", () => {
    expect(wireFor({ apiKey: null, baseUrl: null })).toBe('offline');
    expect(wireFor({ apiKey: 'k', baseUrl: null })).toBe('responses');
    expect(wireFor({ apiKey: null, baseUrl: 'http://127.0.0.1:8080/v1' })).toBe('responses');
    const provider = { id: 'p', name: 'P', queryParams: {}, headers: {} };
    expect(wireFor({ apiKey: null, baseUrl: 'http://127.0.0.1:8080/v1', provider: { ...provider, wireApi: 'chat' } })).toBe('chat');
    expect(wireFor({ apiKey: 'k', baseUrl: 'http://127.0.0.1:8080/v1', provider: { ...provider, wireApi: 'anthropic' } })).toBe(
      'anthropic',
    );
  });
});

describe('each registered wire', () => {
  let server: FakeResponsesServer;
  let anthropic: FakeAnthropicServer;
  let chatServer: FakeChatServer;
  beforeAll(async () => {
    server = await FakeResponsesServer.start();
    anthropic = await FakeAnthropicServer.start();
    chatServer = await FakeChatServer.start();
  });
  afterAll(async () => {
    await server.close();
    await anthropic.close();
    await chatServer.close();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  const request = helloRequest('m');

  /** Per wire: its set-up, giving the base URL to make it with, and a piece of its answer to "hello"; tsc asks for every id. */
  const trials: Record<WireId, { setUp: () => string | null; answer: string }> = {
    responses: {
      setUp: () => {
        server.enqueue({ text: 'hi there' });
        return server.baseUrl;
      },
      answer: 'hi there',
    },
    chat: {
      setUp: () => {
        chatServer.enqueue({ text: 'hi from chat' });
        return chatServer.baseUrl;
      },
      answer: 'hi from chat',
    },
    offline: {
      setUp: () => {
        vi.stubEnv('TILLER_OFFLINE_DELAY_MS', '0');
        return null;
      },
      answer: '“hello”',
    },
    anthropic: {
      setUp: () => {
        anthropic.enqueue({ text: 'hi from claude' });
        return anthropic.baseUrl;
      },
      answer: 'hi from claude',
    },
  };

  it.each(WIRES.map((wire) => [wire.id, wire] as const))('%s makes a client that answers a request', async (id, wire) => {
    const trial = trials[id];
    const client = wire.create({ label: id, baseUrl: trial.setUp(), apiKey: null, idleTimeoutMs: 5000 });
    const events: ModelEvent[] = [];
    for await (const event of client.stream(request, new AbortController().signal)) events.push(event);
    const text = events.map((e) => (e.type === 'output_text_delta' ? e.delta : '')).join('');
    expect(text).toContain(trial.answer);
    expect(events.at(-1)?.type).toBe('completed');
  });
});
