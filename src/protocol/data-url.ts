/**
 * A data URL shortened for people to read (`tiller inspect --summary`, /inspect): its head, then the
 * size of what it holds, decoded, so both inspectors give the same count.
 */
const DATA_URL = /^data:([^;,]*)(;base64)?,(.*)$/s;

/** `data:image/png;base64,… (N bytes)`, N the decoded size; other strings unchanged. */
export function summarizeDataUrl(url: string): string {
  const match = DATA_URL.exec(url);
  if (!match) return url;
  const [, mime = '', base64 = '', payload = ''] = match;
  const bytes = base64 ? Buffer.byteLength(payload, 'base64') : Buffer.byteLength(decodeURIComponentSafe(payload));
  return `data:${mime}${base64},… (${bytes} bytes)`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
