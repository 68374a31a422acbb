/**
 * apply_patch's schema per model family (Codex's two forms): the freeform `custom` tool with the
 * Lark grammar, or a JSON function taking `{input}` for models without custom tools. And what the
 * model reads back, in Codex's words.
 */
import type { CustomToolSpec, FunctionToolSpec } from '../../model/types.js';
import { APPLY_PATCH_LARK_GRAMMAR } from './grammar.js';

export const APPLY_PATCH_TOOL_NAME = 'apply_patch';

export const APPLY_PATCH_FREEFORM_SPEC: CustomToolSpec = {
  type: 'custom',
  name: APPLY_PATCH_TOOL_NAME,
  description: 'Edits files with a patch. This is a FREEFORM tool: send the patch text itself, not JSON.',
  format: { type: 'grammar', syntax: 'lark', definition: APPLY_PATCH_LARK_GRAMMAR },
};

const LANGUAGE = `Edits files with a patch, in this language:

*** Begin Patch
[one or more file sections]
*** End Patch

A file section starts with one of:
*** Add File: <path>      create a file; every following line starts with + (its contents)
*** Delete File: <path>   delete a file; nothing follows
*** Update File: <path>   change a file in place, optionally followed by
*** Move to: <new path>   to rename it too

An update is one or more chunks. A chunk starts with @@, optionally followed by a line that locates
it (a class or function header), then its lines: ' ' for a line kept (give about three around each
change), '-' for a line removed, '+' for a line added. End a chunk that reaches the end of the file
with *** End of File. Paths are relative to the working directory (or absolute); never line numbers.

Example:
*** Begin Patch
*** Add File: hello.txt
+Hello world
*** Update File: src/app.py
*** Move to: src/main.py
@@ def greet():
-print("Hi")
+print("Hello, world!")
*** Delete File: obsolete.txt
*** End Patch`;

export const APPLY_PATCH_FUNCTION_SPEC: FunctionToolSpec = {
  type: 'function',
  name: APPLY_PATCH_TOOL_NAME,
  description: LANGUAGE,
  strict: false,
  parameters: {
    type: 'object',
    properties: { input: { type: 'string', description: 'The whole patch, from *** Begin Patch to *** End Patch.' } },
    required: ['input'],
    additionalProperties: false,
  },
};

/** The patch text of a call: a freeform call's raw input, or a function call's `input`. */
export function patchInput(raw: string, kind: 'function' | 'custom' | undefined): string | { error: string } {
  if (kind === 'custom') return raw;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { error: 'failed to parse function arguments: not JSON' };
  }
  const input = (value as { input?: unknown } | null)?.input;
  if (typeof input !== 'string') return { error: 'failed to parse function arguments: `input` must be a string' };
  return input;
}

/** Seconds as Codex prints them: one decimal, no trailing `.0`. */
export function wallTime(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

/** Codex's exec-style output of a patch that ran. */
export function patchRunOutput(exitCode: number, ms: number, output: string): string {
  return `Exit code: ${exitCode}\nWall time: ${wallTime(ms)} seconds\nOutput:\n${output}`;
}

export const verificationFailed = (message: string): string => `apply_patch verification failed: ${message}`;

export const PATCH_DECLINED_OUTPUT = 'The user declined this patch; no file was changed. Do not retry it unless the user asks.';
