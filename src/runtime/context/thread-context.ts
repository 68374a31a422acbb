/**
 * What a thread tells the model besides the conversation and the per-turn context: AGENTS.md, as
 * Codex sends it (a user message headed `# AGENTS.md instructions for <cwd>`). The base brief
 * (context/base-brief.ts) depends on the model, so each request adds it.
 */
import type { ResponseItem } from '../../protocol/response-items.js';
import { userTextItem } from '../core/history.js';
import { type InstructionFile, loadProjectInstructions } from '../core/project-instructions.js';

export interface ThreadContext {
  /** Sent before the history of every request: the AGENTS.md user message, if any file has content. */
  initialContext: ResponseItem[];
  /** The AGENTS.md files read, in the order sent (thread/start's `tillerInstructions`). */
  files: InstructionFile[];
  warnings: string[];
}

/** Read once, when the thread starts (AGENTS.md edited later applies to the next thread). */
export async function loadThreadContext(options: {
  cwd: string;
  home: string;
  projectDocMaxBytes?: number | undefined;
}): Promise<ThreadContext> {
  const project = await loadProjectInstructions({
    cwd: options.cwd,
    home: options.home,
    ...(options.projectDocMaxBytes !== undefined ? { maxBytes: options.projectDocMaxBytes } : {}),
  });
  return {
    initialContext: project.message === null ? [] : [userTextItem(project.message)],
    files: project.files,
    warnings: project.warnings,
  };
}
