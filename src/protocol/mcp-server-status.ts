/** What `mcpServerStatus/list` and `mcpServer/refresh` say about the configured MCP servers (Codex's v2 shapes). */
/** Where an MCP server is (Tiller's `status`): `disabled` servers are configured with `enabled = false`. */
export type McpServerState = 'starting' | 'ready' | 'failed' | 'disabled';
/** Codex's `McpAuthStatus`. */
export type McpAuthStatus = 'unsupported' | 'notLoggedIn' | 'bearerToken' | 'oAuth';
/** An MCP tool definition as the server listed it (MCP's `Tool`). */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}
export interface McpResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}
export interface McpResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}
/**
 * One configured server (Codex's v2 `McpServerStatus`, with Tiller's `status` and `error`). `tools`
 * are the ones offered to the model (after `enabled_tools` / `disabled_tools`), by their MCP name.
 */
export interface McpServerStatus {
  name: string;
  status: McpServerState;
  /** Why it failed (one line); absent unless `failed`. */
  error?: string;
  tools: Record<string, McpTool>;
  resources: McpResource[];
  resourceTemplates: McpResourceTemplate[];
  authStatus: McpAuthStatus;
  /** Codex's name for `error`: null unless `failed`. */
  startupError: string | null;
}
export interface ListMcpServerStatusParams {
  cursor?: string | null;
  limit?: number | null;
}
export interface ListMcpServerStatusResult {
  data: McpServerStatus[];
  nextCursor: string | null;
}
/** Starts servers that failed (or were never started) again and lists the tools of ready ones again; `name` limits it to one. */
export interface McpServerRefreshParams {
  name?: string | null;
}
export type McpServerRefreshResult = Record<string, never>;
