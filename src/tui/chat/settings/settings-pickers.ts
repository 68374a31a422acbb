/**
 * The controller's side of /statusline and /theme: it opens the pickers, routes their keys, applies
 * each move at once (the footer's items, the theme), restores on Esc, and on Enter keeps the choice
 * and writes it to config.toml (`[tui] status_line`, `theme`) so the next start has it too.
 */
import { errorMessage } from '../../../error-message.js';
import { writeConfigValue } from '../../../runtime/config-edit.js';
import { parseStatusLine, type StatusLineItemId, unknownItemsWarning } from '../../components/status-line.js';
import type { InputEvent } from '../../keys/types.js';
import type { ChatStore, NewCell } from '../../store.js';
import { currentTheme, setTheme, type ThemeName } from '../../theme.js';
import { gitBranch } from './git-branch.js';
import { openStatusLinePicker, statusLinePickerKey } from './status-line-picker.js';
import { openThemePicker, themePickerKey } from './theme-picker.js';

export interface SettingsPickersHost {
  store: ChatStore;
  /** Where config.toml is (TILLER_HOME); null: the choice lasts for this session only. */
  home: string | null;
  cwd: string;
  /** `[tui] status_line` as written (null: none): the footer's items from the start. */
  statusLine: string[] | null;
  cell(cell: NewCell): void;
}

export class SettingsPickers {
  /** Config's status line ids Tiller does not know, as a warning to show at start. */
  readonly warnings: string[] = [];

  constructor(private readonly host: SettingsPickersHost) {
    if (host.statusLine !== null) {
      const { items, unknown } = parseStatusLine(host.statusLine);
      host.store.setState({ statusLine: items });
      if (unknown.length > 0) this.warnings.push(unknownItemsWarning(unknown));
    }
    this.refreshBranch();
    // A turn may have switched the branch: read it again when one ends.
    host.store.subscribe((s, before) => {
      if (s.activeTurn === null && before.activeTurn !== null) this.refreshBranch();
    });
  }

  get open(): boolean {
    return (this.host.store.getState().settingsPicker ?? null) !== null;
  }

  openStatusLine(): void {
    const current = this.host.store.getState().statusLine ?? null;
    this.host.store.setState({ settingsPicker: openStatusLinePicker(current) });
    this.refreshBranch();
  }

  openTheme(): void {
    this.host.store.setState({ settingsPicker: openThemePicker(currentTheme()) });
  }

  /** The footer's branch again (a turn may have switched it). */
  refreshBranch(): void {
    const branch = gitBranch(this.host.cwd);
    if (branch !== (this.host.store.getState().gitBranch ?? null)) this.host.store.setState({ gitBranch: branch });
  }

  input(event: InputEvent): void {
    const picker = this.host.store.getState().settingsPicker ?? null;
    if (picker === null || event.type === 'paste' || event.kind === 'release') return;
    if (picker.kind === 'statusline') {
      const step = statusLinePickerKey(event, picker);
      if (step.type === 'move') return this.host.store.setState({ settingsPicker: step.picker, statusLine: step.items });
      this.host.store.setState({ settingsPicker: null, statusLine: step.items });
      if (step.type === 'confirm') this.keepStatusLine(step.items);
      return;
    }
    const step = themePickerKey(event, picker);
    setTheme(step.theme);
    if (step.type === 'preview') return this.host.store.setState({ settingsPicker: step.picker });
    this.host.store.setState({ settingsPicker: null });
    if (step.type === 'confirm') this.keepTheme(step.theme, picker.original);
  }

  private keepStatusLine(items: StatusLineItemId[]): void {
    const shown = items.length === 0 ? 'nothing' : items.join(' · ');
    this.save(['tui'], 'status_line', items, `Status line: ${shown}.`);
  }

  private keepTheme(theme: ThemeName, before: ThemeName): void {
    // What the scrollback shows is printed again in the new colours (a new transcript epoch).
    if (theme !== before) this.host.store.setState((s) => ({ transcriptGeneration: s.transcriptGeneration + 1 }));
    this.save([], 'theme', theme, `Theme: ${theme}.`);
  }

  private save(table: string[], key: string, value: string | string[], done: string): void {
    if (this.host.home === null) return this.host.cell({ kind: 'info', text: done });
    try {
      writeConfigValue(this.host.home, table, key, value);
      this.host.cell({ kind: 'info', text: `${done} Saved in config.toml.` });
    } catch (error) {
      this.host.cell({ kind: 'error', text: `${done} It could not be saved in config.toml: ${errorMessage(error)}` });
    }
  }
}
