/**
 * The model's questions (Codex's `item/tool/requestUserInput`), shown one at a time as a picker
 * above the composer. The composer keeps the keyboard for typing: only while its draft is empty do
 * ↑/↓, a digit, Enter and Esc answer, so a steer can still be written and sent meanwhile. The
 * answers go back keyed by question id, the picked option's label each; Esc skips the question.
 * Requests wait in order; the end of their turn (or the app) cancels them.
 */
import type { AppServerClient, ServerRequestMap, ToolRequestUserInputResponse } from '../../../protocol/api.js';
import type { KeyEvent } from '../../keys/types.js';
import type { ChatStore } from '../../store.js';

export type UserInputParams = ServerRequestMap['item/tool/requestUserInput']['params'];

interface Waiting {
  params: UserInputParams;
  answers: ToolRequestUserInputResponse['answers'];
  /** The question on screen, an index into params.questions. */
  at: number;
  resolve(response: ToolRequestUserInputResponse): void;
  reject(error: Error): void;
}

export class QuestionQueue {
  private readonly waiting: Waiting[] = [];

  constructor(
    private readonly store: ChatStore,
    client: Pick<AppServerClient, 'onNotification'>,
  ) {
    // The turn that asked is over: its questions can no longer be answered.
    client.onNotification((n) => {
      if (n.method === 'turn/completed' && this.waiting.some((w) => w.params.turnId === n.params.turn.id)) this.cancelAll();
    });
  }

  request(params: UserInputParams): Promise<ToolRequestUserInputResponse> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ params, answers: {}, at: 0, resolve, reject });
      if (this.waiting.length === 1) this.show();
    });
  }

  /** A key while a question shows and the draft is empty; true when it answered or moved the picker. */
  key(event: KeyEvent, draftEmpty: boolean): boolean {
    const current = this.waiting[0];
    const prompt = this.store.getState().question;
    if (current === undefined || !prompt || !draftEmpty || event.ctrl || event.meta) return false;
    const count = prompt.options.length;
    if (event.name === 'up' || event.name === 'down') {
      const step = event.name === 'up' ? -1 : 1;
      this.store.setState({ question: { ...prompt, selected: (prompt.selected + step + count) % count } });
      return true;
    }
    if (event.name === 'enter') return this.pick(current, prompt.selected);
    if (event.name === 'escape') return this.skip(current);
    if (event.name === 'char' && event.char !== undefined && /^[1-9]$/.test(event.char)) {
      const index = Number(event.char) - 1;
      return index < count ? this.pick(current, index) : false;
    }
    return false;
  }

  /** Every open request is cancelled (its turn ended, or the app is closing). */
  cancelAll(): void {
    for (const w of this.waiting.splice(0)) w.reject(new Error('cancelled'));
    this.show();
  }

  private pick(current: Waiting, index: number): boolean {
    const question = current.params.questions[current.at]!;
    const option = question.options?.[index];
    if (option === undefined) return false;
    current.answers[question.id] = { answers: [option.label] };
    return this.next(current);
  }

  private skip(current: Waiting): boolean {
    return this.next(current);
  }

  private next(current: Waiting): boolean {
    current.at += 1;
    if (current.at >= current.params.questions.length) {
      this.waiting.shift();
      current.resolve({ answers: current.answers });
    }
    this.show();
    return true;
  }

  private show(): void {
    const current = this.waiting[0];
    const question = current?.params.questions[current.at];
    if (current === undefined || question === undefined) {
      this.store.setState({ question: null });
      return;
    }
    this.store.setState({
      question: {
        header: question.header,
        question: question.question,
        options: question.options ?? [],
        number: current.at + 1,
        count: current.params.questions.length,
        selected: 0,
      },
    });
  }
}
