/**
 * What the next turn/start sends as model, reasoning effort and approval mode, and the pickers and
 * keys that change them (/model, Alt+, / Alt+., /approvals, Shift+Tab). A running turn keeps the
 * settings it started with; the info cell says so.
 */
import { errorMessage } from '../../../error-message.js';
import type { AppServerClient, ReasoningEffort, ThreadResumeResult, ThreadStartResult } from '../../../protocol/api.js';
import type { KeyEvent } from '../../keys/types.js';
import type { ChatStore, NewCell } from '../../store.js';
import type { ModelChoice } from '../../store-types.js';
import type { PickerKeyAction } from '../input/app-keys.js';
import { APPROVAL_PRESETS, approvalModeChangedText, type ApprovalMode } from '../approvals/approval-modes.js';
import {
  effortChangedText,
  loadingModelPicker,
  modelChangedText,
  modelPickerKey,
  stepEffort,
  withModels,
} from '../commands/model-picker.js';

export interface TurnSettingsHost {
  store: ChatStore;
  client: AppServerClient;
  cell(cell: NewCell): void;
  turnRunning(): boolean;
  /** The config's effort: a new thread starts with it. */
  configEffort: ReasoningEffort | null;
}

export interface TurnChoice {
  model: string;
  effort: ReasoningEffort | null;
  provider: string | null;
}

export class TurnSettingsControl {
  /** What the next turn/start sends as `model` and `effort`. */
  model: string;
  effort: ReasoningEffort | null;
  /** The provider /model switched to, sent with every turn/start (`tillerModelProvider`); null: the thread's own. */
  provider: string | null = null;
  /** The effort the thread runs with as far as we know: what the last turn/start sent, else the config's. */
  private threadEffort: ReasoningEffort | null;
  /** The provider model/list listed first: the one the app server started with. */
  private ownProvider: string | null = null;
  /** The /model picker's model/list request; an answer for one closed since is dropped. */
  private modelListRequest: object | null = null;

  constructor(
    private readonly host: TurnSettingsHost,
    model: string,
  ) {
    this.model = model;
    this.effort = this.threadEffort = host.configEffort;
    host.store.setState((s) => ({ footer: { ...s.footer, effort: this.effort } }));
  }

  /** A set effort goes with every turn/start; none (null) only to clear the thread's. */
  effortSetting(effort: ReasoningEffort | null): { effort?: ReasoningEffort | null } {
    return effort !== null || effort !== this.threadEffort ? { effort } : {};
  }

  /** A turn/start with this effort was accepted: the thread runs with it now. */
  turnStartedWith(effort: ReasoningEffort | null): void {
    this.threadEffort = effort;
  }

  /** A new thread, or one resumed or forked (with the effort it had). */
  adopt(res: ThreadStartResult | ThreadResumeResult): void {
    this.model = res.model;
    // The thread runs on the provider it was started or resumed with.
    this.provider = null;
    if ('tillerTokenUsage' in res) this.effort = res.reasoningEffort;
    // A new thread starts with the config's effort (the app server's), whatever this one had.
    this.threadEffort = 'tillerTokenUsage' in res ? res.reasoningEffort : this.host.configEffort;
  }

  /** The model and effort chosen for the next turn (/model, Alt+. / Alt+,). */
  choice(): TurnChoice {
    return { model: this.model, effort: this.effort, provider: this.provider };
  }

  /**
   * Goes on with an earlier choice in the thread just adopted: the Esc-Esc backtrack forks before
   * the chosen turn, and that thread knows only the settings it had then (as /fork and resume keep
   * the choice, so does editing an earlier message).
   */
  keep(choice: TurnChoice): void {
    this.model = choice.model;
    this.effort = choice.effort;
    this.provider = choice.provider;
    this.host.store.setState((s) => ({ footer: { ...s.footer, model: choice.model, effort: choice.effort } }));
  }

  /** /model: open at once, filled when model/list answers (its note, or why it failed, shows under the list). */
  openModelPicker(): void {
    const request = {};
    this.modelListRequest = request;
    this.host.store.setState({ modelPicker: loadingModelPicker() });
    const arrived = (models: ModelChoice[], note: string | null): void => {
      const picker = this.host.store.getState().modelPicker;
      if (picker === null || this.modelListRequest !== request) return;
      // model/list names the thread's own provider first.
      const own = models[0]?.provider ?? null;
      this.host.store.setState({ modelPicker: withModels(picker, models, note, { model: this.model, provider: this.provider }, own) });
      this.ownProvider = own;
    };
    this.host.client.request('model/list', { tillerProviders: true }).then(
      (res) =>
        arrived(
          res.data.map((m) => ({ model: m.model, provider: m.tillerProvider ?? null, providerName: m.tillerProviderName ?? null })),
          res.note ?? null,
        ),
      (error: unknown) => arrived([], `Could not list the models: ${errorMessage(error)}`),
    );
  }

  modelPickerKey(event: KeyEvent): void {
    const picker = this.host.store.getState().modelPicker;
    if (picker === null) return;
    const step = modelPickerKey(event, picker, this.effort);
    if (step.picker === null) this.modelListRequest = null;
    this.host.store.setState({ modelPicker: step.picker });
    if (step.chosen !== undefined) {
      const picked = step.chosen;
      const name = picker.models?.find((m) => m.model === picked.model && m.provider === picked.provider)?.providerName ?? null;
      this.setModel(picked.model, picked.effort, picked.provider, name);
    }
  }

  /** The /approvals picker's keys. */
  modePickerKey(action: PickerKeyAction, selected: number): void {
    if (action.type === 'move') {
      this.host.store.setState({ modePicker: { selected: (selected + action.by + APPROVAL_PRESETS.length) % APPROVAL_PRESETS.length } });
    } else if (action.type === 'close') this.host.store.setState({ modePicker: null });
    else if (action.type === 'pick') {
      this.host.store.setState({ modePicker: null });
      this.setApprovalMode(APPROVAL_PRESETS[action.index ?? selected]!);
    }
  }

  /** Alt+. / Alt+,: one reasoning effort up or down, from the next turn. */
  stepEffort(by: 1 | -1): void {
    const step = stepEffort(this.effort, by);
    if (step.moved) {
      this.effort = step.effort;
      this.host.store.setState((s) => ({ footer: { ...s.footer, effort: step.effort } }));
    }
    this.host.cell({ kind: 'info', text: effortChangedText(step, by, this.host.turnRunning()) });
  }

  setApprovalMode({ approvalPolicy, sandboxMode }: ApprovalMode): void {
    const mode = { approvalPolicy, sandboxMode };
    this.host.store.setState({ approvalMode: mode });
    this.host.cell({ kind: 'info', text: approvalModeChangedText(mode, this.host.turnRunning()) });
  }

  private setModel(model: string, effort: ReasoningEffort | null, provider: string | null, providerName: string | null): void {
    const current = this.provider ?? this.ownProvider;
    const moved = provider !== null && provider !== current;
    this.model = model;
    this.effort = effort;
    if (provider !== null) this.provider = provider;
    this.host.store.setState((s) => ({
      footer: { ...s.footer, model, effort, ...(moved && providerName !== null ? { providerLabel: providerName } : {}) },
    }));
    this.host.cell({ kind: 'info', text: modelChangedText(model, effort, this.host.turnRunning(), moved ? providerName : null) });
  }
}
