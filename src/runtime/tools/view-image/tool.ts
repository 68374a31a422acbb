/**
 * The `view_image` tool: a local file becomes an `input_image` in the call's output, read, resized
 * and encoded exactly as a user's attached image (protocol/local-media.ts: regular files only, so a
 * FIFO never blocks; the pixel count is checked before decoding). Reads follow the sandbox, which
 * lets a command read every file, so any path the process can read is allowed. An `imageView` item
 * reports what was looked at; a failure is told to the model without the path and the turn goes on.
 */
import { isAbsolute, resolve } from 'node:path';
import type { ThreadItem } from '../../../protocol/api.js';
import { functionCallOutput, type ToolCallResult } from '../../core/function-call.js';
import { newId } from '../../core/ids.js';
import type { Tool } from '../tool.js';
import {
  parseViewImageArguments,
  VIEW_IMAGE_TOOL_NAME,
  VIEW_IMAGE_TOOL_SPEC,
  VIEW_IMAGE_UNSUPPORTED_OUTPUT,
  viewImageFailure,
} from './spec.js';

export const viewImageTool: Tool = {
  name: VIEW_IMAGE_TOOL_NAME,
  confinement: 'sandbox',
  itemType: 'imageView',
  spec: () => VIEW_IMAGE_TOOL_SPEC,
  readOnly: () => true,
  handle: async ({ services, turn, call }): Promise<ToolCallResult> => {
    const answer = (output: Parameters<typeof functionCallOutput>[1]): ToolCallResult => ({
      output: functionCallOutput(call.call_id, output),
      aborted: turn.signal.aborted,
    });
    if (!services.config.modelSupportsImages) return answer(VIEW_IMAGE_UNSUPPORTED_OUTPUT);
    const args = parseViewImageArguments(call.arguments);
    if ('error' in args) return answer(args.error);
    const path = isAbsolute(args.path) ? args.path : resolve(turn.context.cwd, args.path);
    // Loaded lazily: sharp is heavy and most turns never look at an image.
    const media = await import('../../../protocol/local-media.js');
    let imageUrl: string;
    try {
      imageUrl = (await media.prepareLocalImage(path, undefined)).dataUrl;
    } catch (error) {
      return answer(viewImageFailure(error));
    }
    const item: ThreadItem = { type: 'imageView', id: newId(), path };
    services.events.itemStarted(item);
    services.events.itemCompleted(item);
    // As Codex 0.171 sends it: the resized image, marked `original` so the server keeps it as given.
    return answer([{ type: 'input_image', image_url: imageUrl, detail: 'original' }]);
  },
};
