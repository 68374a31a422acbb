/**
 * The `view_image` tool's schema (Codex's `{path}`), its arguments, and the path-free text the
 * model reads when the image cannot be used: a path in the prompt leaks the machine's layout and
 * the file name is the model's own input anyway.
 */
import { LocalMediaError } from '../../../protocol/local-media.js';
import type { FunctionToolSpec } from '../../model/types.js';

export const VIEW_IMAGE_TOOL_NAME = 'view_image';
/** Codex's answer to a model that takes no images. */
export const VIEW_IMAGE_UNSUPPORTED_OUTPUT = 'view_image is not allowed because you do not support image inputs';

export const VIEW_IMAGE_TOOL_SPEC: FunctionToolSpec = {
  type: 'function',
  name: VIEW_IMAGE_TOOL_NAME,
  description:
    'Looks at a local image file: the image is added to the conversation. Use it only for a path the user gave or a file you made, not for an image already attached in <image> tags.',
  strict: false,
  parameters: {
    type: 'object',
    properties: { path: { type: 'string', description: 'Path of the image file (absolute, or relative to the working directory)' } },
    required: ['path'],
    additionalProperties: false,
  },
};

/** The path to read, or why the arguments are not usable (told to the model). */
export function parseViewImageArguments(raw: string): { path: string } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { error: 'failed to parse function arguments: not JSON' };
  }
  const path = typeof value === 'object' && value !== null ? (value as { path?: unknown }).path : undefined;
  if (typeof path !== 'string' || path.trim().length === 0 || path.includes('\0'))
    return { error: 'failed to parse function arguments: `path` must be a non-empty string' };
  return { path };
}

/** What the model reads when the file could not be made an image; never the path. */
export function viewImageFailure(error: unknown): string {
  if (!(error instanceof LocalMediaError)) return 'unable to read the image';
  if (error.failure === 'unsupported') return 'unable to process the image: unsupported image format';
  if (error.failure === 'invalid') return 'unable to process the image: the file is not a valid image';
  switch (error.kind) {
    case 'NotFound':
      return 'unable to read the image: no such file';
    case 'PermissionDenied':
      return 'unable to read the image: permission denied';
    case 'InvalidInput':
      return 'unable to read the image: not a regular file';
    // Our own messages (size, pixel count): they name no path.
    case 'InvalidData':
      return `unable to process the image: ${error.message}`;
    default:
      return 'unable to read the image';
  }
}
