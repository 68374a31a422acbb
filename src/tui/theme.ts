/**
 * The colour themes: every coloured row (markdown and code, diffs, the footer, review badges, pickers)
 * takes its colours from the palette of the current theme, so /theme can swap them all at once.
 * `dark` is the default; `light` trades cyan and yellow (unreadable on white) for blue and magenta;
 * `high-contrast` uses the bright colours in bold and never dims. The theme comes from config
 * (`theme = "auto" | "dark" | "light" | "high-contrast"`); `auto` asks the terminal for its background
 * colour (OSC 11) and stays dark until, or unless, it answers.
 */
import type { ChalkInstance } from 'chalk';

export const THEME_NAMES = ['dark', 'light', 'high-contrast'] as const;
export type ThemeName = (typeof THEME_NAMES)[number];

/** What /theme says of each. */
export const THEME_DESCRIPTIONS: Readonly<Record<ThemeName, string>> = {
  dark: 'for a dark background (the default)',
  light: 'for a light background',
  'high-contrast': 'bright, bold colours; nothing dimmed',
};

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
  /** The selected row, the spinner, marks that draw the eye. Chainable (`accent.bold`). */
  accent: ChalkInstance;
  /** Done, accepted, ready. */
  success: ChalkInstance;
  /** Errors, failures, a dangerous mode. */
  danger: ChalkInstance;
  warning: ChalkInstance;
  /** Shell mode, mentions of skills. */
  special: ChalkInstance;
  /** Diff lines added / removed, and a hunk's `@@` header. */
  added: ChalkInstance;
  removed: ChalkInstance;
  hunk: ChalkInstance;
  /** Secondary text (the footer, hints): dim, except where the theme never dims. */
  muted: ChalkInstance;
  /** A review finding's priority badge, P0–P1 / P2 / P3 and unknown. */
  badgeHigh: ChalkInstance;
  badgeMedium: ChalkInstance;
  badgeLow: ChalkInstance;
}

let current: ThemeName = 'dark';
const listeners = new Set<() => void>();

export function isThemeName(name: string): name is ThemeName {
  return (THEME_NAMES as readonly string[]).includes(name);
}

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

const cache = new WeakMap<ChalkInstance, Map<ThemeName, Palette>>();

/** The colours of `theme` (the current one by default) through `c`, which decides the colour level. */
export function palette(c: ChalkInstance, theme: ThemeName = current): Palette {
  let byTheme = cache.get(c);
  if (byTheme === undefined) cache.set(c, (byTheme = new Map()));
  let p = byTheme.get(theme);
  if (p === undefined) byTheme.set(theme, (p = build(c, theme)));
  return p;
}

function build(c: ChalkInstance, theme: ThemeName): Palette {
  if (theme === 'light') {
    return {
      code: c.blue,
      link: c.blue.underline,
      keyword: c.magenta,
      string: c.green,
      number: c.red,
      name: c.blue,
      comment: c.gray.italic,
      accent: c.blue,
      success: c.green,
      danger: c.red,
      warning: c.magenta,
      special: c.magenta,
      added: c.green,
      removed: c.red,
      hunk: c.blue,
      muted: c.dim,
      badgeHigh: c.bgRed.white.bold,
      badgeMedium: c.bgMagenta.white,
      badgeLow: c.bgGray.white,
    };
  }
  if (theme === 'high-contrast') {
    return {
      code: c.yellowBright,
      link: c.cyanBright.underline,
      keyword: c.magentaBright.bold,
      string: c.greenBright,
      number: c.yellowBright,
      name: c.cyanBright,
      comment: c.italic,
      accent: c.cyanBright.bold,
      success: c.greenBright.bold,
      danger: c.redBright.bold,
      warning: c.yellowBright.bold,
      special: c.magentaBright.bold,
      added: c.greenBright.bold,
      removed: c.redBright.bold,
      hunk: c.cyanBright.bold,
      muted: c.whiteBright,
      badgeHigh: c.bgRedBright.black.bold,
      badgeMedium: c.bgYellowBright.black.bold,
      badgeLow: c.bgWhiteBright.black.bold,
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
    accent: c.cyan,
    success: c.green,
    danger: c.red,
    warning: c.yellow,
    special: c.magenta,
    added: c.green,
    removed: c.red,
    hunk: c.cyan,
    muted: c.dim,
    badgeHigh: c.bgRed.white.bold,
    badgeMedium: c.bgYellow.black,
    badgeLow: c.bgGray.white,
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
