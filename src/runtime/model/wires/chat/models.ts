/**
 * The chat wire's model list for /model: `GET {base_url}/models` (OpenAI's shape, which vLLM,
 * llama.cpp, LM Studio, OpenRouter, DeepSeek and a current Ollama answer), else Ollama's own
 * `GET /api/tags` at the server's root (an Ollama too old for `/v1/models`, or a base URL Ollama
 * answers without it).
 */
import { listModels, type Sdk } from '../../openai-sdk.js';
import type { ListedModel } from '../../types.js';

export async function listChatModels(
  load: () => Promise<Sdk>,
  server: { baseURL: string; headers: Record<string, string> },
  signal: AbortSignal,
  timeoutMs: number,
): Promise<ListedModel[]> {
  let failure: unknown = null;
  try {
    const listed = await listModels(load, signal, timeoutMs);
    if (listed.length > 0) return listed;
  } catch (error) {
    if (signal.aborted) throw error;
    failure = error;
  }
  const tags = await ollamaTags(server, signal, timeoutMs);
  if (tags !== null) return tags;
  if (failure !== null) throw failure;
  return [];
}

/** `/api/tags` beside the `/v1` the base URL ends in: `{ models: [{ name }] }`; null when it is not an Ollama. */
export function ollamaTagsUrl(baseURL: string): string {
  const url = new URL(baseURL);
  url.pathname = `${url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '')}/api/tags`;
  url.search = '';
  return url.toString();
}

async function ollamaTags(server: { baseURL: string; headers: Record<string, string> }, signal: AbortSignal, timeoutMs: number) {
  try {
    const response = await fetch(ollamaTagsUrl(server.baseURL), {
      headers: server.headers,
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    const body = (await response.json()) as { models?: unknown };
    if (!Array.isArray(body.models)) return null;
    return body.models.flatMap((m): ListedModel[] => {
      const name = typeof m === 'object' && m !== null ? (m as { name?: unknown }).name : undefined;
      return typeof name === 'string' && name !== '' ? [{ id: name, ownedBy: null }] : [];
    });
  } catch {
    return null;
  }
}
