/** Responses API items (the model-facing history), as sent in a request's `input`. */
import type { LocalMediaError } from './local-media.js';
import { DEFAULT_IMAGE_DETAIL, type UserInput } from './user-input.js';

export type ContentItem =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' | 'low' | 'high' | 'original' }
  /** An uploaded image, by its Files API id. */
  | { type: 'input_image'; file_id: string; detail: 'auto' | 'low' | 'high' | 'original' }
  | { type: 'input_audio'; audio_url: string }
  /** An uploaded file (audio given by id), by its Files API id. */
  | { type: 'input_file'; file_id: string }
  | { type: 'output_text'; text: string };

export type MessageRole = 'user' | 'developer' | 'assistant' | 'system';

/** What a tool answers with besides plain text: view_image gives the model an image this way. */
export type ToolOutputContent =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' | 'low' | 'high' | 'original' };

export type ResponseItem =
  | { type: 'message'; id?: string; role: MessageRole; content: ContentItem[] }
  | { type: 'function_call'; id?: string; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string | ToolOutputContent[] }
  /** A freeform tool's call (apply_patch): the model writes `input` in the tool's grammar. */
  | { type: 'custom_tool_call'; id?: string; call_id: string; name: string; input: string }
  | { type: 'custom_tool_call_output'; call_id: string; output: string }
  /** A hosted web search the server ran; kept in history and sent back as it came, as Codex does. */
  | { type: 'web_search_call'; id?: string; status?: string; action?: ResponsesWebSearchAction }
  | {
      type: 'reasoning';
      id?: string;
      summary: { type: 'summary_text'; text: string }[];
      /** Sent back as the server gave it: null, or the raw reasoning text where a server returns it. */
      content?: { type: 'reasoning_text'; text: string }[] | null;
      encrypted_content?: string | null;
    };

/** A `web_search_call`'s action as the Responses API gives it (snake_case tags). */
export type ResponsesWebSearchAction =
  | { type: 'search'; query?: string; queries?: string[] }
  | { type: 'open_page'; url?: string }
  | { type: 'find_in_page'; url?: string; pattern?: string }
  | { type: 'other' };

/** A tool output as text: the text parts of a content answer, an image as `[image]`. */
export function toolOutputText(output: string | readonly ToolOutputContent[]): string {
  if (typeof output === 'string') return output;
  return output.map((part) => (part.type === 'input_text' ? part.text : '[image]')).join('\n');
}

// ---- UserInput → Responses input as newer Codex does (docs/codex-parity.md#conversion-to-responses-input) ----

/** Path-free notices: a file path in the prompt would be an injection vector and leaks local layout. */
export const LOCAL_IMAGE_UNREADABLE_NOTICE = 'Tiller could not read the local image.';
export const LOCAL_IMAGE_INVALID_NOTICE = 'Tiller cannot attach the local image because it is not a valid image.';
/** `reason`: path-free, as `30000×30000 pixels, the limit is 33,554,432 pixels`. */
export const localImageTooLargeNotice = (reason: string): string =>
  `Tiller cannot attach the local image because it is too large: ${reason}.`;
export const localImageUnreadableNotice = (reason: string): string => `Tiller could not read the local image: ${reason}.`;
export const LOCAL_IMAGE_UNSUPPORTED_NOTICE = 'Tiller cannot attach the local image because its format is unsupported.';
export const LOCAL_AUDIO_UNSUPPORTED_NOTICE =
  'Tiller cannot attach the local audio because its format is unsupported; use wav, mp3, m4a, webm, or ogg.';
export const LOCAL_AUDIO_UNREADABLE_NOTICE = 'Tiller could not read the local audio.';

export const localImageOpenTag = (label: number): string => `<image name=[Image #${label}]>`;
export const LOCAL_IMAGE_CLOSE_TAG = '</image>';
export const localAudioOpenTag = (label: number): string => `<audio name=[Audio #${label}]>`;
export const LOCAL_AUDIO_CLOSE_TAG = '</audio>';

/** MIME of the raw bytes a deferred local image carries until it is prepared. */
export const DEFERRED_IMAGE_MIME = 'application/octet-stream';

export type LocalImagePreparation = 'process' | 'defer';

export interface FromUserInputOptions {
  /**
   * `process`: read, resize and encode local images now. `defer`: read the file now (bounded, so
   * unreadable files still give their notice at once) but skip decoding; the image is sent labelled,
   * as `data:application/octet-stream;base64,<file bytes>`, and `prepareDeferredImages` turns it into
   * a real image later, e.g. off the keystroke path, right before the request is sent.
   */
  localImagePreparation: LocalImagePreparation;
  /** Byte limits (tests inject small ones); default 1 GiB for images, 50 MiB for audio. */
  maxImageBytes?: number;
  maxAudioBytes?: number;
}

type Converted = { content: ContentItem[]; notice?: undefined } | { content?: undefined; notice: string };

/** The notice for a local image that could not be attached: why, never where. */
function imageNotice(error: unknown, media: { LocalMediaError: typeof LocalMediaError }): string {
  if (!(error instanceof media.LocalMediaError)) return LOCAL_IMAGE_UNREADABLE_NOTICE;
  if (error.failure === 'invalid') return LOCAL_IMAGE_INVALID_NOTICE;
  if (error.failure === 'unsupported') return LOCAL_IMAGE_UNSUPPORTED_NOTICE;
  if (error.failure === 'tooLarge' && error.reason !== null) return localImageTooLargeNotice(error.reason);
  return error.reason === null ? LOCAL_IMAGE_UNREADABLE_NOTICE : localImageUnreadableNotice(error.reason);
}

/**
 * The Responses input for one user turn: the user message (always present, possibly with empty
 * content), then a developer message with the notices for local media that could not be attached,
 * when there are any. Image and audio labels count separately, 1-based, remote and local together,
 * and a failed item still uses its number. Skills and mentions add no content (injected by the core).
 */
export async function fromUserInput(items: readonly UserInput[], options: FromUserInputOptions): Promise<ResponseItem[]> {
  // Imported on the first local file, not at the top: local-media pulls in fs and (lazily) sharp,
  // which callers that only need the ResponseItem types, and a turn of text alone, should not pay for
  // (loading the chunk stood between a first Enter and its request).
  const loadMedia = (): Promise<typeof import('./local-media.js')> => import('./local-media.js');
  let imageLabel = 0;
  let audioLabel = 0;
  const content: ContentItem[] = [];
  const notices: string[] = [];

  const convert = async (item: UserInput): Promise<Converted> => {
    switch (item.type) {
      case 'text':
        return { content: [{ type: 'input_text', text: item.text }] };
      case 'image':
        imageLabel++;
        return { content: [{ type: 'input_image', image_url: item.image_url, detail: item.detail ?? DEFAULT_IMAGE_DETAIL }] };
      case 'image_file':
        imageLabel++;
        return { content: [{ type: 'input_image', file_id: item.file_id, detail: item.detail ?? DEFAULT_IMAGE_DETAIL }] };
      case 'audio':
        audioLabel++;
        return { content: [{ type: 'input_audio', audio_url: item.audio_url }] };
      case 'audio_file':
        audioLabel++;
        return { content: [{ type: 'input_file', file_id: item.file_id }] };
      case 'local_image': {
        const label = ++imageLabel;
        const detail = item.detail ?? DEFAULT_IMAGE_DETAIL;
        const media = await loadMedia();
        try {
          const readOptions = options.maxImageBytes === undefined ? {} : { maxBytes: options.maxImageBytes };
          let imageUrl: string;
          if (options.localImagePreparation === 'defer') {
            const bytes = await media.readBoundedLocalMedia(item.path, 'image', readOptions);
            imageUrl = media.dataUrlFromBytes(DEFERRED_IMAGE_MIME, bytes);
          } else {
            imageUrl = (await media.prepareLocalImage(item.path, item.detail, readOptions)).dataUrl;
          }
          return {
            content: [
              { type: 'input_text', text: localImageOpenTag(label) },
              { type: 'input_image', image_url: imageUrl, detail },
              { type: 'input_text', text: LOCAL_IMAGE_CLOSE_TAG },
            ],
          };
        } catch (error) {
          return { notice: imageNotice(error, media) };
        }
      }
      case 'local_audio': {
        const label = ++audioLabel;
        const media = await loadMedia();
        try {
          const readOptions = options.maxAudioBytes === undefined ? {} : { maxBytes: options.maxAudioBytes };
          const audio = await media.prepareLocalAudio(item.path, readOptions);
          return {
            content: [
              { type: 'input_text', text: localAudioOpenTag(label) },
              { type: 'input_audio', audio_url: audio.dataUrl },
              { type: 'input_text', text: LOCAL_AUDIO_CLOSE_TAG },
            ],
          };
        } catch (error) {
          const unsupported = error instanceof media.LocalMediaError && error.failure === 'unsupported';
          return { notice: unsupported ? LOCAL_AUDIO_UNSUPPORTED_NOTICE : LOCAL_AUDIO_UNREADABLE_NOTICE };
        }
      }
      case 'skill':
      case 'mention':
        return { content: [] };
    }
  };

  // Labels are taken synchronously, in item order, before each conversion's first await, so the
  // files can be read and encoded concurrently.
  for (const converted of await Promise.all(items.map(convert))) {
    if (converted.notice !== undefined) notices.push(converted.notice);
    else content.push(...converted.content);
  }

  const out: ResponseItem[] = [{ type: 'message', role: 'user', content }];
  if (notices.length > 0) {
    out.push({ type: 'message', role: 'developer', content: notices.map((text) => ({ type: 'input_text', text })) });
  }
  return out;
}

/**
 * Finishes images left raw by `localImagePreparation: 'defer'`: each octet-stream `input_image` is
 * decoded, resized and encoded as in `process`. One that fails is replaced, with its tags, by the
 * same path-free notice `process` would have given, in place in that message.
 */
export async function prepareDeferredImages(items: readonly ResponseItem[]): Promise<ResponseItem[]> {
  const prefix = `data:${DEFERRED_IMAGE_MIME};base64,`;
  const media = await import('./local-media.js');
  const out: ResponseItem[] = [];
  for (const item of items) {
    if (
      item.type !== 'message' ||
      !item.content.some((c) => c.type === 'input_image' && 'image_url' in c && c.image_url.startsWith(prefix))
    ) {
      out.push(item);
      continue;
    }
    const content: ContentItem[] = [];
    for (let i = 0; i < item.content.length; i++) {
      const c = item.content[i]!;
      if (c.type !== 'input_image' || !('image_url' in c) || !c.image_url.startsWith(prefix)) {
        content.push(c);
        continue;
      }
      try {
        const bytes = Buffer.from(c.image_url.slice(prefix.length), 'base64');
        const image = await media.prepareImageBytes(bytes, media.promptImageMode(c.detail));
        content.push({ ...c, image_url: media.dataUrlFromBytes(image.mime, image.data) });
      } catch (error) {
        const prev = content[content.length - 1];
        if (prev?.type === 'input_text' && prev.text.startsWith('<image name=')) content.pop();
        const next = item.content[i + 1];
        if (next?.type === 'input_text' && next.text === LOCAL_IMAGE_CLOSE_TAG) i++;
        content.push({ type: 'input_text', text: imageNotice(error, media) });
      }
    }
    out.push({ ...item, content });
  }
  return out;
}
