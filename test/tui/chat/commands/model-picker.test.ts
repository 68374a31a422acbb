/**
 * /model and Alt+, / Alt+.: the picker's pure logic (model-picker.ts), its rows (lines.ts) and the
 * controller driving it against a fake app server (model/list, turn/start's model and effort).
 */
import { Chalk } from 'chalk';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import type { ModelListResult } from '../../../../src/protocol/api.js';
import {
  EFFORT_CHOICES,
  effortChangedText,
  filteredModels,
  loadingModelPicker,
  modelChangedText,
  modelPickerKey,
  stepEffort,
  withModels,
} from '../../../../src/tui/chat/commands/model-picker.js';
import { EFFORT_PICKER_HINT, MODEL_PICKER_HINT, modelPickerLines } from '../../../../src/tui/components/modal-lines.js';
import { charKey, key } from '../../../../src/tui/keys/types.js';
import type { ModelPickerState } from '../../../../src/tui/store.js';
import { FakeAppServerClient } from '../fake-client.js';
import { createHarness, running, type Harness } from '../harness.js';

const plain = new Chalk({ level: 0 });
const names = (rows: readonly { model: string }[] | null | undefined): string[] | null => rows?.map((r) => r.model) ?? null;
const row = (model: string) => ({ model, provider: null, providerName: null });
const MODELS = ['gpt-5.1-codex', 'gpt-5.1-codex-mini', 'gpt-4o-mini', 'o3'];
const open = (models = MODELS, current = 'gpt-5.1-codex', note: string | null = null): ModelPickerState =>
  withModels(loadingModelPicker(), models, note, current);

function listResult(ids: string[], note: string | null = null, provider?: { id: string; name: string }): ModelListResult {
  return {
    data: ids.map((id) => ({
      ...(provider ? { tillerProvider: provider.id, tillerProviderName: provider.name } : {}),
      id,
      model: id,
      displayName: id,
      description: '',
      hidden: false,
      supportedReasoningEfforts: [],
      defaultReasoningEffort: 'medium',
      isDefault: false,
    })),
    nextCursor: null,
    note,
  };
}

describe('the picker state', () => {
  it('opens on the current model, first when the list lacks it', () => {
    expect(open().selected).toBe(0);
    expect(open(MODELS, 'o3').selected).toBe(3);
    expect(open(['a', 'b'], 'mine')).toMatchObject({ models: [row('mine'), row('a'), row('b')], selected: 0 });
  });

  it('typing filters (any case), Backspace unfilters, the highlighted model stays highlighted while it matches', () => {
    let p = open(MODELS, 'gpt-5.1-codex-mini');
    for (const ch of 'MINI') p = modelPickerKey(charKey(ch), p, null).picker!;
    expect(p.filter).toBe('MINI');
    expect(names(filteredModels(p))).toEqual(['gpt-5.1-codex-mini', 'gpt-4o-mini']);
    expect(p.selected).toBe(0);
    p = modelPickerKey(key('down'), p, null).picker!;
    p = modelPickerKey(charKey('x'), p, null).picker!;
    expect(filteredModels(p)).toEqual([]);
    p = modelPickerKey(key('backspace'), p, null).picker!;
    expect(filteredModels(p)[p.selected]?.model).toBe('gpt-5.1-codex-mini');
  });

  it('↑/↓ wrap, PgUp/PgDn stop at the ends, Esc and Ctrl+C close', () => {
    const p = open();
    expect(modelPickerKey(key('up'), p, null).picker?.selected).toBe(3);
    expect(modelPickerKey(key('pagedown'), p, null).picker?.selected).toBe(3);
    expect(modelPickerKey(key('pageup'), p, null).picker?.selected).toBe(0);
    expect(modelPickerKey(key('escape'), p, null).picker).toBeNull();
    expect(modelPickerKey(charKey('c', { ctrl: true }), p, null).picker).toBeNull();
  });

  it('Enter goes on to the efforts of the model, on the current effort; Enter or a number picks, Esc goes back', () => {
    const down = modelPickerKey(key('down'), open(), 'high').picker!;
    const effort = modelPickerKey(key('enter'), down, 'high').picker!;
    expect(effort).toMatchObject({
      stage: 'effort',
      model: 'gpt-5.1-codex-mini',
      selected: EFFORT_CHOICES.findIndex((c) => c.effort === 'high'),
    });
    expect(modelPickerKey(key('enter'), effort, 'high')).toEqual({
      picker: null,
      chosen: { model: 'gpt-5.1-codex-mini', effort: 'high', provider: null },
    });
    expect(modelPickerKey(charKey('1'), effort, 'high').chosen).toEqual({ model: 'gpt-5.1-codex-mini', effort: null, provider: null });
    expect(modelPickerKey(charKey('3'), effort, 'high').chosen).toEqual({ model: 'gpt-5.1-codex-mini', effort: 'low', provider: null });
    expect(modelPickerKey(key('escape'), effort, 'high').picker).toMatchObject({ stage: 'model', selected: 1, model: null });
  });

  it('ignores Enter while the models are loading', () => {
    expect(modelPickerKey(key('enter'), loadingModelPicker(), null)).toEqual({ picker: loadingModelPicker() });
  });
});

describe('stepEffort and the cells', () => {
  it('moves one effort up or down, from medium when none is set, and stays at the ends', () => {
    expect(stepEffort(null, 1)).toEqual({ effort: 'high', moved: true });
    expect(stepEffort(null, -1)).toEqual({ effort: 'low', moved: true });
    expect(stepEffort('high', 1)).toEqual({ effort: 'xhigh', moved: true });
    expect(stepEffort('xhigh', 1)).toEqual({ effort: 'xhigh', moved: false });
    expect(stepEffort('minimal', -1)).toEqual({ effort: 'minimal', moved: false });
  });

  it('says what changed and when it applies', () => {
    expect(modelChangedText('o3', 'high', false)).toBe('Model: o3, reasoning effort high');
    expect(modelChangedText('o3', null, true)).toBe('Model: o3, reasoning effort default (none sent) — from the next turn');
    expect(effortChangedText({ effort: 'low', moved: true }, -1, true)).toBe('Reasoning effort: low — from the next turn');
    expect(effortChangedText({ effort: 'xhigh', moved: false }, 1, false)).toBe('Reasoning effort: xhigh (already the highest)');
  });
});

describe('modelPickerLines', () => {
  it('lists the models with the highlighted one and the current one marked, the note last', () => {
    const rows = modelPickerLines(
      open(MODELS, 'gpt-5.1-codex', 'The provider did not list its models (404).'),
      { model: 'gpt-5.1-codex', effort: null },
      60,
      plain,
    );
    expect(rows).toEqual([
      'Model for the next turn',
      '',
      '▸ gpt-5.1-codex (current)',
      '  gpt-5.1-codex-mini',
      '  gpt-4o-mini',
      '  o3',
      '',
      '⚠ The provider did not list its models (404).',
    ]);
  });

  it('scrolls to the highlighted model within the rows it has and says how many there are', () => {
    const many = Array.from({ length: 30 }, (_, i) => `model-${String(i).padStart(2, '0')}`);
    const picker = { ...open(many, 'model-00'), selected: 20 };
    const rows = modelPickerLines(picker, { model: 'model-00', effort: null }, 60, plain, 10);
    expect(rows).toHaveLength(10);
    expect(rows).toContain('▸ model-20');
    expect(rows.slice(2, -1)).toEqual(['  model-14', '  model-15', '  model-16', '  model-17', '  model-18', '  model-19', '▸ model-20']);
    expect(rows.at(-1)).toBe('  15–21 of 30');
  });

  it('shows the efforts of the picked model with the current one marked, each row within the width', () => {
    const effort: ModelPickerState = { ...open(), stage: 'effort', model: 'o3', selected: 4 };
    const rows = modelPickerLines(effort, { model: 'o3', effort: 'high' }, 60, plain);
    expect(rows[0]).toBe('Reasoning effort for o3');
    expect(rows).toContain('▸ 5. high (current)  deeper reasoning, slower answers');
    expect(rows).toContain('  1. default         none sent: the model decides');
    expect(rows.every((row) => stringWidth(row) <= 60)).toBe(true);
    expect(modelPickerLines(loadingModelPicker(), { model: 'o3', effort: null }, 60, plain)).toContain("  Loading the provider's models…");
  });

  it('has footer hints that fit a 60-column footer with its indent', () => {
    expect(stringWidth(`  ${MODEL_PICKER_HINT}`)).toBeLessThanOrEqual(60);
    expect(stringWidth(`  ${EFFORT_PICKER_HINT}`)).toBeLessThanOrEqual(60);
  });
});

async function typeCommand(h: Harness, command: string): Promise<void> {
  h.type(command);
  h.press('enter');
  await h.settle();
}

describe('/model in the chat', () => {
  it('lists the models from model/list, switches the model and effort for the next turn/start and says so', async () => {
    const client = new FakeAppServerClient().always('model/list', () => listResult(['fake-model', 'fast-model']));
    const h = await createHarness({ client });
    await typeCommand(h, '/model');
    expect(h.client.requestsOf('model/list')).toEqual([{ tillerProviders: true }]);
    expect(h.store.getState().modelPicker).toMatchObject({ stage: 'model', models: [row('fake-model'), row('fast-model')], selected: 0 });
    h.press('down');
    h.press('enter');
    h.input(charKey('5'));
    expect(h.store.getState().modelPicker).toBeNull();
    expect(h.cellTexts().at(-1)).toBe('• Model: fast-model, reasoning effort high');
    expect(h.store.getState().footer).toMatchObject({ model: 'fast-model', effort: 'high' });
    await typeCommand(h, 'hello');
    expect(h.client.requestsOf('turn/start').at(-1)).toMatchObject({ model: 'fast-model', effort: 'high' });
  });

  it('lists every provider’s models with its name, and a pick on another provider goes with each turn/start after it', async () => {
    const own = listResult(['fake-model'], null, { id: 'openai', name: 'OpenAI' });
    const local = listResult(['qwen3:8b', 'llama3.2'], null, { id: 'ollama', name: 'Ollama' });
    const client = new FakeAppServerClient().always('model/list', () => ({ ...own, data: [...own.data, ...local.data] }));
    const h = await createHarness({ client });
    await typeCommand(h, '/model');
    const picker = h.store.getState().modelPicker!;
    expect(picker.models?.map((m) => `${m.model}@${m.provider}`)).toEqual(['fake-model@openai', 'qwen3:8b@ollama', 'llama3.2@ollama']);
    const rows = modelPickerLines(picker, { model: 'fake-model', effort: null }, 60, plain);
    expect(rows).toContain('▸ fake-model (current)  OpenAI');
    expect(rows).toContain('  qwen3:8b              Ollama');
    // The filter matches the provider's name too.
    h.type('olla');
    expect(names(filteredModels(h.store.getState().modelPicker!))).toEqual(['qwen3:8b', 'llama3.2']);
    h.press('enter');
    h.input(charKey('1'));
    expect(h.cellTexts().at(-1)).toBe('• Model: qwen3:8b on Ollama, reasoning effort default (none sent)');
    expect(h.store.getState().footer).toMatchObject({ model: 'qwen3:8b', providerLabel: 'Ollama' });
    await typeCommand(h, 'hello');
    expect(h.client.requestsOf('turn/start').at(-1)).toMatchObject({ model: 'qwen3:8b', tillerModelProvider: 'ollama' });
    h.completeTurn('turn-1');
    await typeCommand(h, 'again');
    expect(h.client.requestsOf('turn/start').at(-1)).toMatchObject({ model: 'qwen3:8b', tillerModelProvider: 'ollama' });
  });

  it('a pick on the thread’s own provider stays on it: the cell names no provider', async () => {
    const client = new FakeAppServerClient().always('model/list', () =>
      listResult(['fake-model', 'fast-model'], null, { id: 'openai', name: 'OpenAI' }),
    );
    const h = await createHarness({ client });
    await typeCommand(h, '/model');
    h.press('down');
    h.press('enter');
    h.input(charKey('1'));
    expect(h.cellTexts().at(-1)).toBe('• Model: fast-model, reasoning effort default (none sent)');
    await typeCommand(h, 'hello');
    expect(h.client.requestsOf('turn/start').at(-1)).toMatchObject({ model: 'fast-model', tillerModelProvider: 'openai' });
  });

  it("shows model/list's note, and the current model alone when model/list fails", async () => {
    const client = new FakeAppServerClient().once('model/list', () =>
      listResult(['fake-model', 'a'], 'The provider did not list its models (404).'),
    );
    client.once('model/list', () => Promise.reject(new Error('app server is closed')));
    const h = await createHarness({ client });
    await typeCommand(h, '/model');
    expect(h.store.getState().modelPicker).toMatchObject({
      models: [row('fake-model'), row('a')],
      note: 'The provider did not list its models (404).',
    });
    h.press('escape');
    await typeCommand(h, '/model');
    expect(h.store.getState().modelPicker).toMatchObject({
      models: [row('fake-model')],
      note: 'Could not list the models: app server is closed',
    });
  });

  it('drops a model/list answer that comes after the picker closed', async () => {
    let answer: (r: ModelListResult) => void = () => undefined;
    const client = new FakeAppServerClient().once('model/list', () => new Promise<ModelListResult>((resolve) => (answer = resolve)));
    const h = await createHarness({ client });
    await typeCommand(h, '/model');
    expect(h.store.getState().modelPicker?.models).toBeNull();
    h.press('escape');
    answer(listResult(['x']));
    await h.settle();
    expect(h.store.getState().modelPicker).toBeNull();
  });

  it('closes for an approval prompt, so the question is seen', async () => {
    const h = await createHarness();
    await running(h);
    await typeCommand(h, '/model');
    expect(h.store.getState().modelPicker).not.toBeNull();
    void h.client.serverRequest('item/commandExecution/requestApproval', {
      threadId: 'thread-1',
      turnId: 'turn-1',
      itemId: 'c1',
      startedAtMs: 0,
      commandActions: [],
      command: 'touch x',
      cwd: '/work',
      reason: null,
    });
    await h.settle();
    expect(h.store.getState()).toMatchObject({ modelPicker: null, modal: { kind: 'approval', command: 'touch x' } });
  });

  it('keeps the draft: typing goes to the filter while the picker is open', async () => {
    const h = await createHarness();
    await typeCommand(h, '/model');
    h.type('large');
    expect(h.store.getState().modelPicker).toMatchObject({ filter: 'large', selected: 0 });
    expect(h.composerText()).toBe('');
  });

  it('choosing the default effort after one was sent clears it (tillerClearEffort); none set sends none', async () => {
    const h = await createHarness({ config: { reasoningEffort: 'low' } });
    await typeCommand(h, 'one');
    expect(h.client.requestsOf('turn/start').at(-1)).toMatchObject({ model: 'fake-model', effort: 'low' });
    h.completeTurn('turn-1');
    await typeCommand(h, '/model');
    h.press('enter');
    h.input(charKey('1'));
    await typeCommand(h, 'two');
    expect(h.client.requestsOf('turn/start').at(-1)).toMatchObject({ tillerClearEffort: true });
    expect(h.client.requestsOf('turn/start').at(-1)).not.toHaveProperty('effort');
    h.completeTurn('turn-2');
    await typeCommand(h, 'three');
    expect(h.client.requestsOf('turn/start').at(-1)).not.toHaveProperty('effort');
  });
});

describe('Alt+, and Alt+.', () => {
  it('lower and raise the effort for the next turn, with a cell each and the footer updated', async () => {
    const h = await createHarness({ config: { reasoningEffort: 'medium' } });
    h.input(charKey('.', { alt: true }));
    h.input(charKey('.', { alt: true }));
    h.input(charKey('.', { alt: true }));
    h.input(charKey(',', { alt: true }));
    expect(h.cellTexts()).toEqual([
      '• Reasoning effort: high',
      '• Reasoning effort: xhigh',
      '• Reasoning effort: xhigh (already the highest)',
      '• Reasoning effort: high',
    ]);
    expect(h.store.getState().footer.effort).toBe('high');
    expect(h.composerText()).toBe('');
    await typeCommand(h, 'go');
    expect(h.client.requestsOf('turn/start').at(-1)).toMatchObject({ effort: 'high' });
  });

  it('during a turn: applies from the next turn, the running one keeps its effort', async () => {
    const h = await createHarness();
    await running(h);
    h.input(charKey(',', { alt: true }));
    expect(h.cellTexts().at(-1)).toBe('• Reasoning effort: low — from the next turn');
    expect(h.client.requestsOf('turn/start')).toHaveLength(1);
    expect(h.client.requestsOf('turn/start')[0]).not.toHaveProperty('effort');
  });

  it('/status names the effort beside the model', async () => {
    const h = await createHarness({ config: { reasoningEffort: 'low' } });
    await typeCommand(h, '/status');
    expect(h.cellTexts().at(-1)).toContain('Model:     fake-model (reasoning effort low)');
  });

  it('leave a draft as it is', async () => {
    const h = await createHarness();
    h.type('draft');
    h.input(charKey('.', { alt: true }));
    expect(h.composerText()).toBe('draft');
    expect(h.store.getState().footer.effort).toBe('high');
  });
});
