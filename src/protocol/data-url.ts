/**
 * A data URL shortened for people to read (`tiller inspect --summary`, /inspect): its head, then the
 * size of what it holds, decoded, so both inspectors give the same count.
 */

export interface DataUrlInfo {
  mime: string;
  base64: boolean;
  /** Size of the decoded payload. */
  bytes: number;
  /** Its first `headBytes` bytes, decoded (enough to sniff an image header). */
  head: Buffer;
}

/** The MIME and decoded size of a data URL, or null for any other string. */
export function dataUrlInfo(url: string, headBytes = 0): DataUrlInfo | null {
  if (!url.startsWith('data:')) return null;
  const comma = url.indexOf(',');
  if (comma < 0) return null;
  const header = url.slice('data:'.length, comma);
  const base64 = header.endsWith(';base64');
  const mime = base64 ? header.slice(0, -';base64'.length) : header;
  // As `data:<mime>[;base64],`: other parameters are not read.
  if (mime.includes(';')) return null;
  if (base64) {
    // Only the head is decoded: a data URL can hold megabytes.
    const head = Buffer.from(url.slice(comma + 1, comma + 1 + Math.ceil(headBytes / 3) * 4), 'base64');
    return { mime, base64, bytes: Buffer.byteLength(url.slice(comma + 1), 'base64'), head };
  }
  const decoded = Buffer.from(decodeURIComponentSafe(url.slice(comma + 1)));
  return { mime, base64, bytes: decoded.length, head: decoded.subarray(0, headBytes) };
}

/** `data:image/png;base64,… (N bytes)`, N the decoded size; other strings unchanged. */
export function summarizeDataUrl(url: string): string {
  const info = dataUrlInfo(url);
  return info === null ? url : `data:${info.mime}${info.base64 ? ';base64' : ''},… (${info.bytes} bytes)`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
