import { describe, expect, it } from 'vitest';
import {
  StartIfIdle,
  StartOrSteer,
  describeNotSubmittedReason,
  notSubmitted,
  started,
  steerMode,
  steered,
  turnInputRequest,
  userInputRequest,
  type NotSubmittedReason,
  type NotSubmittedReasonType,
  type SteerSubmission,
  type StartIfIdleSubmission,
} from '../../src/protocol/turn-input.js';

describe('turn input types', () => {
  it('builds a user-input request with default settings', () => {
    const request = userInputRequest([{ type: 'text', text: 'hi', text_elements: [] }]);
    expect(request).toEqual({
      input: { type: 'userInput', content: [{ type: 'text', text: 'hi', text_elements: [] }], clientId: null },
      threadSettings: {},
      start: {},
      additionalContext: {},
      responsesapiClientMetadata: null,
    });
    const custom = turnInputRequest({ type: 'developerInput', content: ['note'] }, { start: { kind: 'compact' } });
    expect(custom.start).toEqual({ kind: 'compact' });
  });

  it('has the three modes and the three submissions', () => {
    expect(StartOrSteer).toEqual({ type: 'startOrSteer' });
    expect(StartIfIdle).toEqual({ type: 'startIfIdle' });
    expect(steerMode('turn-1')).toEqual({ type: 'steer', expectedTurnId: 'turn-1' });
    expect(started('t')).toEqual({ type: 'started', turnId: 't' });
    expect(steered('t')).toEqual({ type: 'steered', turnId: 't' });
    expect(notSubmitted({ type: 'emptyInput' })).toEqual({ type: 'notSubmitted', reason: { type: 'emptyInput' } });
    const s: SteerSubmission = steered('x');
    const i: StartIfIdleSubmission = started('y');
    expect([s.type, i.type]).toEqual(['steered', 'started']);
  });

  it("lists exactly Codex's NotSubmittedReason variants, each described", () => {
    const reasons: NotSubmittedReason[] = [
      { type: 'notIdle' },
      { type: 'pendingTriggerTurn' },
      { type: 'planMode' },
      { type: 'noActiveTurn' },
      { type: 'expectedTurnMismatch', expected: 'a', actual: 'b' },
      { type: 'activeTurnNotSteerable', turnKind: 'review' },
      { type: 'activeTurnOutputSchemaMismatch' },
      { type: 'emptyInput' },
    ];
    const all: Record<NotSubmittedReasonType, true> = {
      notIdle: true,
      pendingTriggerTurn: true,
      planMode: true,
      noActiveTurn: true,
      expectedTurnMismatch: true,
      activeTurnNotSteerable: true,
      activeTurnOutputSchemaMismatch: true,
      emptyInput: true,
    };
    expect(reasons.map((r) => r.type)).toEqual(Object.keys(all));
    expect(describeNotSubmittedReason({ type: 'noActiveTurn' })).toBe('no active turn to steer');
    expect(describeNotSubmittedReason({ type: 'emptyInput' })).toBe('input must not be empty');
    expect(describeNotSubmittedReason({ type: 'expectedTurnMismatch', expected: 'a', actual: 'b' })).toBe(
      'expected active turn id `a` but found `b`',
    );
    expect(describeNotSubmittedReason({ type: 'activeTurnNotSteerable', turnKind: 'compact' })).toBe('cannot steer a compact turn');
    for (const r of reasons) expect(describeNotSubmittedReason(r).length).toBeGreaterThan(0);
  });
});
