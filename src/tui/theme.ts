/**
 * The colours of code, links and names, for a dark or a light terminal background. The dark look
 * (cyan code, yellow numbers) is unreadable on white, so a light background gets blue, red and
 * magenta instead. The theme comes from config (`theme = "light" | "dark" | "auto"`); `auto` asks
 * the terminal for its background colour (OSC 11) and stays dark until, or unless, it answers.
 */
import type { ChalkInstance } from 'chalk';

export type ThemeName = 'dark' | 'light';

type Style = (text: string) => string;

export interface Palette {
  /** Inline code and code blocks without a language. */
  code: Style;
  link: Style;
  keyword: Style;
  string: Style;
  number: Style;
  /** Names: types, functions, attributes. */
  name: Style;
  comment: Style;
}

let current: ThemeName = 'dark';
const listeners = new Set<() => void>();

export function currentTheme(): ThemeName {
  return current;
}

/** Rows drawn from now on use `theme`; the screen is told, so the live area is drawn again at once. */
export function setTheme(theme: ThemeName): void {
  if (theme === current) return;
  current = theme;
  for (const listener of [...listeners]) listener();
}

/** Calls `listener` on every change of the theme; returns the unsubscribe. */
export function onThemeChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function palette(c: ChalkInstance, theme: ThemeName = current): Palette {
  if (theme === 'light') {
    return {
      code: c.blue,
      link: c.blue.underline,
      keyword: c.magenta,
      string: c.green,
      number: c.red,
      name: c.blue,
      comment: c.gray.italic,
    };
  }
  return {
    code: c.cyan,
    link: c.cyan.underline,
    keyword: c.magenta,
    string: c.green,
    number: c.yellow,
    name: c.cyan,
    comment: c.dim.italic,
  };
}

/** Asks the terminal for its background colour; the answer is `ESC ] 11 ; rgb:RRRR/GGGG/BBBB` then BEL or ST. */
export const BACKGROUND_QUERY = '\x1b]11;?\x07';

/**
 * The background an OSC 11 answer names (its body after `ESC ]`), as 0–1 channels; null for
 * anything else. Channels have 1 to 4 hex digits (`rgb:f/f/f`, `rgb:ffff/ffff/ffff`).
 */
export function parseBackgroundReply(body: string): [number, number, number] | null {
  const match = /^11;rgba?:([0-9a-f]{1,4})\/([0-9a-f]{1,4})\/([0-9a-f]{1,4})(?:\/[0-9a-f]{1,4})?$/i.exec(body);
  if (!match) return null;
  const channel = (hex: string): number => Number.parseInt(hex, 16) / (16 ** hex.length - 1);
  return [channel(match[1]!), channel(match[2]!), channel(match[3]!)];
}

/** Light when the background's relative luminance (sRGB, as WCAG) is over one half. */
export function themeForBackground([r, g, b]: [number, number, number]): ThemeName {
  const linear = (v: number): number => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  const luminance = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  return luminance > 0.5 ? 'light' : 'dark';
}
