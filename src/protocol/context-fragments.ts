/**
 * The context messages Tiller puts in a model's input beside the conversation, by the tags Codex
 * uses for them (CODEX-REFERENCE §9): whoever reads an input back (the offline model, a transcript,
 * a test) tells them from what the user typed by these openings.
 */
export const ENVIRONMENT_CONTEXT_OPEN = '<environment_context>';
export const ENVIRONMENT_CONTEXT_CLOSE = '</environment_context>';
export const PERMISSIONS_OPEN = '<permissions instructions>';
export const PERMISSIONS_CLOSE = '</permissions instructions>';
export const MODEL_SWITCH_OPEN = '<model_switch>';
export const MODEL_SWITCH_CLOSE = '</model_switch>';
/** The first line of every base brief (context/base-brief.ts). */
export const BASE_BRIEF_OPENING = 'You are Tiller, a coding agent';

const OPENINGS = [ENVIRONMENT_CONTEXT_OPEN, PERMISSIONS_OPEN, MODEL_SWITCH_OPEN, BASE_BRIEF_OPENING];

/** A message text Tiller wrote as context (not AGENTS.md, which is the user's own text). */
export function isContextFragment(text: string): boolean {
  const head = text.trimStart();
  return OPENINGS.some((opening) => head.startsWith(opening));
}
