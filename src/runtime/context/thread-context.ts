/** What a thread tells the model besides the conversation: the base instructions and AGENTS.md. */
import type { ResponseItem } from '../../protocol/response-items.js';
import { developerTextItem } from '../core/history.js';
import { type InstructionFile, loadProjectInstructions } from '../core/project-instructions.js';

/** The base instructions sent with every request. */
export const TILLER_INSTRUCTIONS = `You are Tiller, a coding assistant working in the user's terminal.
You can run shell commands with the \`shell\` tool; the user may have to approve each command.
Keep answers concise and use Markdown. When the user interrupts or steers, follow their latest message.`;

export interface ThreadContext {
  /** Sent before the history of every request: the AGENTS.md developer message, if any file has content. */
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
    initialContext: project.message === null ? [] : [developerTextItem(project.message)],
    files: project.files,
    warnings: project.warnings,
  };
}
