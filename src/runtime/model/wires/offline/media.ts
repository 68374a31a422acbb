/** What the offline model can tell about an image or audio URL without decoding it. */
import { sniffImage } from '../../../../protocol/media-type.js';

export interface MediaFacts {
  /** `data:` URLs only; null for remote URLs. */
  mime: string | null;
  bytes: number | null;
  width: number | null;
  height: number | null;
  remote: boolean;
}

const DATA_URL = /^data:([^;,]*)(;base64)?,/i;

export function mediaFacts(url: string): MediaFacts {
  const match = DATA_URL.exec(url);
  if (!match) return { mime: null, bytes: null, width: null, height: null, remote: true };
  const payload = url.slice(match[0].length);
  const bytes = match[2] ? Buffer.from(payload, 'base64') : Buffer.from(decodeURIComponent(payload), 'utf8');
  const sniffed = sniffImage(bytes);
  return {
    mime: sniffed?.mime ?? (match[1] || null),
    bytes: bytes.length,
    width: sniffed?.width ?? null,
    height: sniffed?.height ?? null,
    remote: false,
  };
}
