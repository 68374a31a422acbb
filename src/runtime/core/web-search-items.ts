/**
 * A hosted `web_search_call` output item as Codex's v2 `webSearch` thread item: the action with
 * camelCase tags, and `query` the one line a client shows (the search, the page, or what was
 * looked for on it).
 */
import type { ThreadItem, WebSearchAction } from '../../protocol/api.js';
import type { ResponsesWebSearchAction } from '../../protocol/response-items.js';

type WebSearchItem = Extract<ThreadItem, { type: 'webSearch' }>;

export function webSearchActionOf(action: ResponsesWebSearchAction | undefined): WebSearchAction | null {
  if (action === undefined) return null;
  switch (action.type) {
    case 'search':
      return { type: 'search', query: action.query ?? null, queries: action.queries ?? null };
    case 'open_page':
      return { type: 'openPage', url: action.url ?? null };
    case 'find_in_page':
      return { type: 'findInPage', url: action.url ?? null, pattern: action.pattern ?? null };
    default:
      return { type: 'other' };
  }
}

/** The line shown for a search: its query (the first of several, with `…`), the page opened, or `'pattern' in url`. */
export function webSearchQuery(action: WebSearchAction | null): string {
  if (action === null) return '';
  switch (action.type) {
    case 'search': {
      const first = action.query ?? action.queries?.[0] ?? '';
      return (action.queries?.length ?? 0) > 1 && action.query === null ? `${first} …` : first;
    }
    case 'openPage':
      return action.url ?? '';
    case 'findInPage':
      return action.pattern === null ? (action.url ?? '') : `'${action.pattern}' in ${action.url ?? 'the page'}`;
    case 'other':
      return '';
  }
}

export function webSearchItem(id: string, action: ResponsesWebSearchAction | undefined): WebSearchItem {
  const mapped = webSearchActionOf(action);
  return { type: 'webSearch', id, query: webSearchQuery(mapped), action: mapped };
}
