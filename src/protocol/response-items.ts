/** Responses API items (the model-facing history), as sent in a request's `input`. */

export type ContentItem =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' | 'low' | 'high' | 'original' }
  | { type: 'input_audio'; audio_url: string }
  | { type: 'output_text'; text: string };

export type MessageRole = 'user' | 'developer' | 'assistant' | 'system';

export type ResponseItem =
  | { type: 'message'; id?: string; role: MessageRole; content: ContentItem[] }
  | { type: 'function_call'; id?: string; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string }
  | { type: 'reasoning'; id?: string; summary: { type: 'summary_text'; text: string }[]; encrypted_content?: string | null };
