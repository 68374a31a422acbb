/**
 * Yoga for Ink, loaded without `fetch`. Yoga's Emscripten loader fetches its own inlined WebAssembly
 * (a data: URL) when a global `fetch` exists; in Node the first touch of `fetch` loads undici, about
 * 30 ms of start-up before the first frame. Without one the loader decodes the same bytes in place.
 * The build (scripts/build.mjs) resolves Ink's `yoga-layout` imports to this module.
 */
import { loadYoga } from 'yoga-layout/load';

export * from 'yoga-layout/load';

const fetchDescriptor = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
let loading: ReturnType<typeof loadYoga>;
Object.defineProperty(globalThis, 'fetch', { value: undefined, configurable: true, writable: true });
try {
  loading = loadYoga();
} finally {
  if (fetchDescriptor === undefined) delete (globalThis as { fetch?: unknown }).fetch;
  else Object.defineProperty(globalThis, 'fetch', fetchDescriptor);
}

const Yoga = await loading;
export default Yoga;
