/** Helpers for the tests of pending-input edits and delivery receipts: an approval gate, steers and edits by client id. */
import type { PendingInputEditAction, ServerRequestMap, V2UserInput } from '../../../src/protocol/api.js';
import type { Harness } from './harness.js';
import { text } from './harness.js';
import { until } from './process.js';

type Approval = ServerRequestMap['item/commandExecution/requestApproval'];

/** An approval request the test answers: until it does, the tool call is running. */
export interface ParkedApproval {
  command: string;
  accept(): void;
}

/** Parks every approval request of `h` until the test accepts it (config `approvalPolicy: 'on-request'`). */
export function approvalGate(h: Harness): { next(): Promise<ParkedApproval> } {
  const parked: ParkedApproval[] = [];
  h.server.setServerRequestHandler(
    (req) =>
      new Promise((resolve) => {
        const params = req.params as Approval['params'];
        parked.push({ command: params.command, accept: () => resolve({ decision: 'accept' } as never) });
      }),
  );
  return {
    async next() {
      await until(() => parked.length > 0);
      return parked.shift()!;
    },
  };
}

export function shellCall(command: string, callId: string) {
  return { functionCall: { name: 'shell', arguments: { command }, callId } };
}

export function steer(h: Harness, value: string, clientId: string | null, turnId: string) {
  return h.server.request('turn/steer', {
    threadId: h.threadId,
    input: [text(value)],
    expectedTurnId: turnId,
    ...(clientId ? { tillerClientId: clientId } : {}),
  });
}

export function edit(h: Harness, clientId: string, action: PendingInputEditAction, input?: V2UserInput[]) {
  return h.server.request('tiller/pendingInput/edit', { threadId: h.threadId, clientId, action, ...(input ? { input } : {}) });
}

/** The userMessage completions so far, in order. */
export function userMessages(h: Harness) {
  return h.log.of('item/completed').filter((n) => n.item.type === 'userMessage');
}

/** The completed commandExecution item that ran `command`. */
export function commandItem(h: Harness, command: string) {
  const found = h.log.of('item/completed').find((n) => n.item.type === 'commandExecution' && n.item.command === command);
  if (!found) throw new Error(`no completed command ${command}`);
  return found.item;
}
