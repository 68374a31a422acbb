import { describe, expect, it } from 'vitest';
import {
  APPROVAL_PRESETS,
  approvalModeChangedText,
  approvalModeFooter,
  describeApprovalMode,
  nextApprovalMode,
  presetIndexOf,
} from '../../../../src/tui/chat/approvals/approval-modes.js';
import { charKey } from '../../../../src/tui/keys/types.js';
import { createHarness, running, text } from '../harness.js';

const AUTO = { approvalPolicy: 'on-request', sandboxMode: 'workspace-write' } as const;
const FULL = { approvalPolicy: 'never', sandboxMode: 'danger-full-access' } as const;
const READ_ONLY = { approvalPolicy: 'on-request', sandboxMode: 'read-only' } as const;
const ASK_FIRST = { approvalPolicy: 'untrusted', sandboxMode: 'workspace-write' } as const;

describe('the approval presets', () => {
  it('are Read only, Ask first, Auto and Full access, as Codex pairs sandbox and approvals', () => {
    expect(APPROVAL_PRESETS.map((p) => [p.label, p.sandboxMode, p.approvalPolicy])).toEqual([
      ['Read only', 'read-only', 'on-request'],
      ['Ask first', 'workspace-write', 'untrusted'],
      ['Auto', 'workspace-write', 'on-request'],
      ['Full access', 'danger-full-access', 'never'],
    ]);
  });

  it('Shift+Tab order wraps around; a mode that is no preset starts over at the first', () => {
    expect(nextApprovalMode(AUTO).label).toBe('Full access');
    expect(nextApprovalMode(FULL).label).toBe('Read only');
    expect(nextApprovalMode(READ_ONLY).label).toBe('Ask first');
    expect(nextApprovalMode({ approvalPolicy: 'never', sandboxMode: 'workspace-write' }).label).toBe('Read only');
    expect(presetIndexOf({ approvalPolicy: 'untrusted', sandboxMode: 'read-only' })).toBe(-1);
  });

  it('the footer says the preset in lower case, else `<approval> · <sandbox>`; no sandbox is a danger', () => {
    expect(approvalModeFooter(AUTO)).toEqual({ text: 'auto', danger: false });
    expect(approvalModeFooter(READ_ONLY)).toEqual({ text: 'read only', danger: false });
    expect(approvalModeFooter(FULL)).toEqual({ text: 'full access', danger: true });
    expect(approvalModeFooter({ approvalPolicy: 'untrusted', sandboxMode: 'danger-full-access' })).toEqual({
      text: 'untrusted · danger-full-access',
      danger: true,
    });
  });

  it('the confirmation names the sandbox and when it asks; during a turn it applies from the next one', () => {
    expect(approvalModeChangedText(AUTO, true)).toBe(
      'Approval mode: Auto (workspace-write, asks before leaving the sandbox) — from the next turn',
    );
    expect(approvalModeChangedText(FULL, false)).toBe('Approval mode: Full access (danger-full-access, never asks)');
    expect(describeApprovalMode(ASK_FIRST)).toBe('Ask first (workspace-write, asks unless a command is known to be read-only)');
    expect(describeApprovalMode({ approvalPolicy: 'never', sandboxMode: 'read-only' })).toBe('never · read-only');
  });
});

describe('approval modes in the chat', () => {
  it('start from the config, and thread/start and every turn/start send the current one', async () => {
    const h = await createHarness({ config: { approvalPolicy: 'untrusted', sandboxMode: 'read-only' } });
    expect(h.store.getState().approvalMode).toEqual({ approvalPolicy: 'untrusted', sandboxMode: 'read-only' });
    expect(h.client.requestsOf('thread/start')[0]).toMatchObject({ approvalPolicy: 'untrusted', sandbox: 'read-only' });
    h.type('hi');
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('turn/start')[0]).toMatchObject({
      approvalPolicy: 'untrusted',
      sandboxPolicy: { type: 'readOnly', networkAccess: false },
    });
  });

  it('Shift+Tab cycles the presets and says so; the draft stays; the next turn uses the new mode', async () => {
    const h = await createHarness({ config: { sandboxWritableRoots: ['/extra'], sandboxNetworkAccess: true } });
    h.type('draft');
    h.press('backtab', { shift: true });
    expect(h.store.getState().approvalMode).toEqual(FULL);
    expect(h.cellTexts().at(-1)).toBe('• Approval mode: Full access (danger-full-access, never asks)');
    h.press('backtab', { shift: true });
    h.press('backtab', { shift: true });
    expect(h.store.getState().approvalMode).toEqual(ASK_FIRST);
    expect(h.composerText()).toBe('draft');
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('turn/start')[0]).toMatchObject({
      input: [text('draft')],
      approvalPolicy: 'untrusted',
      sandboxPolicy: { type: 'workspaceWrite', writableRoots: ['/extra'], networkAccess: true },
    });
  });

  it('a running turn keeps its mode: the change is for the next turn, a steer carries none', async () => {
    const h = await createHarness();
    await running(h);
    h.press('backtab', { shift: true });
    expect(h.cellTexts().at(-1)).toBe('• Approval mode: Full access (danger-full-access, never asks) — from the next turn');
    h.type('steer');
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('turn/steer')).toEqual([
      { threadId: 'thread-1', input: [text('steer')], expectedTurnId: 'turn-1', tillerClientId: expect.stringMatching(/^tiller-input-/) },
    ]);
    h.completeTurn('turn-1');
    h.type('next');
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('turn/start').map((r) => r.approvalPolicy)).toEqual(['on-request', 'never']);
    expect(h.client.requestsOf('turn/start')[1]?.sandboxPolicy).toEqual({ type: 'dangerFullAccess' });
  });

  it('Shift+Tab works in Vim normal mode too, and /new starts its thread in the current mode', async () => {
    const h = await createHarness({ vimEnabled: true });
    h.input(charKey('i'));
    h.type('abc');
    h.press('escape');
    expect(h.store.getState().composer.vim.mode).toBe('normal');
    h.press('backtab', { shift: true });
    expect(h.store.getState().approvalMode).toEqual(FULL);
    expect(h.composerText()).toBe('abc');
    h.ctrlKey('c');
    h.input(charKey('i'));
    h.type('/new');
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('thread/start').at(-1)).toMatchObject({ approvalPolicy: 'never', sandbox: 'danger-full-access' });
  });

  it('/approvals opens the picker on the current preset; ↑/↓ move, Enter picks, the picker owns the keys', async () => {
    const h = await createHarness();
    h.type('/approvals');
    h.press('enter');
    expect(h.store.getState().modePicker).toEqual({ selected: 2 });
    h.press('down');
    expect(h.store.getState().modePicker).toEqual({ selected: 3 });
    h.press('down');
    expect(h.store.getState().modePicker).toEqual({ selected: 0 });
    h.press('up');
    h.type('q');
    h.press('backtab', { shift: true });
    expect(h.composerText()).toBe('');
    expect(h.store.getState().approvalMode).toEqual(AUTO);
    h.press('enter');
    expect(h.store.getState().modePicker).toBeNull();
    expect(h.store.getState().approvalMode).toEqual(FULL);
    expect(h.cellTexts().at(-1)).toBe('• Approval mode: Full access (danger-full-access, never asks)');
    expect(h.client.requestsOf('turn/start')).toEqual([]);
  });

  it("a row's number picks it at once; a number past the last row does nothing", async () => {
    const h = await createHarness();
    h.type('/approvals');
    h.press('enter');
    h.type('9');
    expect(h.store.getState().modePicker).toEqual({ selected: 2 });
    h.type('2');
    expect(h.store.getState().modePicker).toBeNull();
    expect(h.store.getState().approvalMode).toEqual(ASK_FIRST);
    expect(h.composerText()).toBe('');
  });

  it('Esc or Ctrl+C closes the picker unchanged; an approval prompt closes it so the question is seen', async () => {
    const h = await createHarness();
    await running(h);
    h.type('/approvals');
    h.press('enter');
    h.press('up');
    h.press('escape');
    expect(h.store.getState().modePicker).toBeNull();
    expect(h.store.getState().approvalMode).toEqual(AUTO);
    expect(h.client.requestsOf('turn/interrupt')).toEqual([]);
    h.type('/approvals');
    h.press('enter');
    h.ctrlKey('c');
    expect(h.store.getState().modePicker).toBeNull();
    expect(h.store.getState().exitRequested).toBe(false);
    h.type('/approvals');
    h.press('enter');
    void h.client.serverRequest('item/commandExecution/requestApproval', {
      threadId: 'thread-1',
      turnId: 'turn-1',
      itemId: 'c1',
      startedAtMs: 0,
      command: 'ls',
      commandActions: [],
      cwd: '/work',
      reason: null,
    });
    expect(h.store.getState().modePicker).toBeNull();
    expect(h.store.getState().modal).not.toBeNull();
  });

  it('/status shows the approval mode', async () => {
    const h = await createHarness();
    h.type('/status');
    h.press('enter');
    expect(h.cellTexts().at(-1)).toContain('Approvals: Auto (workspace-write, asks before leaving the sandbox)');
  });
});
