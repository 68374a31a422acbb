/**
 * The live area's layout (pure): how many rows each part under the streaming answer gets, the room
 * left for the answer's tail and where the caret is. Ink draws only the live area, and it must stay
 * shorter than the terminal (a taller one makes Ink clear the screen and reprint), so every part is
 * built as rows first and gets what the parts placed before it left: the approval prompt or a picker
 * (keeping room for the waiting messages), the composer, its popup (cut), the waiting messages (cut),
 * and last the answer's tail.
 */
import { windowRows } from './components/composer-view.js';

/** The footer: a blank row, then the hint and the model. */
const FOOTER_ROWS = 2;
/** The live area stays this many rows shorter than the terminal at least. */
const SPARE_ROWS = 1;
/** The streaming answer keeps a row whatever else shows (the printer never gives it less). */
const TAIL_MIN_ROWS = 1;
/** What every part's room leaves below and above it. */
const KEPT_ROWS = FOOTER_ROWS + SPARE_ROWS + TAIL_MIN_ROWS;
/** Kept for the waiting messages while the approval prompt or a picker shows, so they stay in sight. */
const PENDING_MIN_ROWS = 4;

/** The rows the composer may show: half the screen, scrolled to the caret. */
export function composerWindow(screenRows: number): number {
  return Math.floor(screenRows / 2);
}

export interface ScreenParts {
  /** The terminal's height. */
  rows: number;
  /** The running command and MCP work, right under the answer. */
  commands: readonly string[];
  /** The status line, its blank row first (none while no turn runs). */
  status: readonly string[];
  /** The waiting messages, a blank row first, in at most `room` rows; null when none wait. */
  pending: ((room: number) => string[]) | null;
  /** The approval prompt or a picker, a blank row first, its own rows fitted to `room`; null when none shows. */
  modal: ((room: number) => string[]) | null;
  attachments: readonly string[];
  /** The composer's rows and caret (composerView), laid out for `composerWindow(rows)`. */
  composer: { rows: string[]; caret: { row: number; col: number }; empty: boolean };
  popup: readonly string[];
  footer: string;
}

/** The live area under the answer's tail, part by part, top to bottom. */
export interface ScreenLayout {
  commands: readonly string[];
  status: readonly string[];
  pending: readonly string[];
  /** The approval prompt or a picker; none when the composer has the keys. */
  modal: readonly string[];
  /** A blank row, then the attachment rows; none under a modal. */
  attachments: readonly string[];
  /** The composer's window; under a modal the draft (if any) without the cursor. */
  composer: readonly string[];
  popup: readonly string[];
  footer: readonly string[];
  /** Rows left for the streaming answer's tail, above everything else. */
  tailRoom: number;
  /** The caret's cell, its row counted from the first row under the tail; null under a modal. */
  caret: { x: number; y: number } | null;
}

export function layoutScreen(parts: ScreenParts): ScreenLayout {
  const { rows, commands, status } = parts;
  const above = commands.length + status.length;
  const pendingKept = parts.pending === null ? 0 : PENDING_MIN_ROWS;
  // The modal's room leaves out its blank row.
  const modal = parts.modal?.(rows - (above + 1 + KEPT_ROWS + pendingKept)) ?? null;
  const shown = windowRows(parts.composer.rows, parts.composer.caret.row, composerWindow(rows));
  // Under a modal the draft stays in view when there is one (typing may go on into it).
  const composer = modal === null ? shown.rows : parts.composer.empty ? [] : ['', ...shown.rows];
  const attachments = modal === null ? ['', ...parts.attachments] : [];
  // A popup taller than the room left (the `?` overlay in one column on a small screen) is cut.
  const popupRoom = rows - (above + attachments.length + composer.length + KEPT_ROWS);
  const popup =
    modal !== null || parts.popup.length === 0
      ? []
      : parts.popup.length <= popupRoom
        ? parts.popup
        : [...parts.popup.slice(0, Math.max(0, popupRoom - 1)), '  …'];
  const bottom = (modal?.length ?? 0) + attachments.length + composer.length + popup.length;
  const pending = parts.pending?.(rows - (above + bottom + KEPT_ROWS)) ?? [];
  return fitToScreen(parts, {
    commands,
    status,
    pending,
    modal: modal ?? [],
    attachments,
    composer,
    popup,
    footer: ['', parts.footer],
    caretRow: modal === null ? shown.caretRow : null,
  });
}

type Sections = Omit<ScreenLayout, 'tailRoom' | 'caret'> & { caretRow: number | null };

const sectionRows = (s: Sections): number =>
  [s.commands, s.status, s.pending, s.modal, s.attachments, s.composer, s.popup, s.footer].reduce((n, part) => n + part.length, 0);

/**
 * On a screen too short for every part, rows go until the live area and one row of the answer fit
 * above the spare row: a live area as tall as the terminal scrolls its top row into the scrollback,
 * where Ink's next erase cannot reach it and it stays for good. The least needed go first: the popup,
 * the blank separators, the waiting messages, the running command's top rows, the status line's
 * wrapped rows, the modal's top rows and last the composer's window (around the caret).
 */
function fitToScreen(parts: ScreenParts, sections: Sections): ScreenLayout {
  const budget = parts.rows - SPARE_ROWS - TAIL_MIN_ROWS;
  let s = sections;
  const dropBlank = (rows: readonly string[]): readonly string[] => (rows[0] === '' ? rows.slice(1) : rows);
  const cuts: Array<(over: number) => Partial<Sections>> = [
    (over) => ({ popup: s.popup.slice(0, Math.max(0, s.popup.length - over)) }),
    () => ({ footer: dropBlank(s.footer) }),
    () => ({ status: dropBlank(s.status) }),
    () => ({ attachments: dropBlank(s.attachments) }),
    (over) => ({ pending: s.pending.slice(0, Math.max(0, s.pending.length - over)) }),
    (over) => ({ commands: s.commands.slice(Math.min(s.commands.length, over)) }),
    (over) => ({ status: s.status.slice(0, Math.max(Math.min(1, s.status.length), s.status.length - over)) }),
    (over) => ({ modal: s.modal.slice(Math.min(Math.max(0, s.modal.length - 1), over)) }),
    (over) => {
      if (s.caretRow === null) return { composer: s.composer.slice(Math.min(Math.max(0, s.composer.length - 1), over)) };
      const windowed = windowRows([...s.composer], s.caretRow, s.composer.length - over);
      return { composer: windowed.rows, caretRow: windowed.caretRow };
    },
  ];
  for (const cut of cuts) {
    const over = sectionRows(s) - budget;
    if (over <= 0) break;
    s = { ...s, ...cut(over) };
  }
  const { caretRow, ...layout } = s;
  return {
    ...layout,
    tailRoom: parts.rows - SPARE_ROWS - sectionRows(s),
    caret:
      caretRow === null
        ? null
        : { x: parts.composer.caret.col, y: s.commands.length + s.status.length + s.pending.length + s.attachments.length + caretRow },
  };
}
