import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTuiArgs } from '../../../src/tui/main.js';

describe('parseTuiArgs', () => {
  it('reads --model and --base-url in both spellings', () => {
    expect(parseTuiArgs([])).toEqual({ overrides: {} });
    expect(parseTuiArgs(['--model', 'gpt-x', '--base-url=http://127.0.0.1:1/v1'])).toEqual({
      overrides: { model: 'gpt-x', baseUrl: 'http://127.0.0.1:1/v1' },
    });
    expect(parseTuiArgs(['-m', 'small'])).toEqual({ overrides: { model: 'small' } });
  });

  it('explains unknown options and missing values', () => {
    expect(parseTuiArgs(['--frob'])).toBe("unknown option '--frob'");
    expect(parseTuiArgs(['--model'])).toBe("option '--model' needs a value");
    expect(parseTuiArgs(['constructor'])).toBe("unknown option 'constructor'");
  });

  it('reads -a/--ask-for-approval and -s/--sandbox in every spelling', () => {
    expect(parseTuiArgs(['-a', 'untrusted', '-s', 'read-only'])).toEqual({ overrides: { approvalPolicy: 'untrusted', sandboxMode: 'read-only' } });
    expect(parseTuiArgs(['--ask-for-approval=never', '--sandbox', 'danger-full-access'])).toEqual({
      overrides: { approvalPolicy: 'never', sandboxMode: 'danger-full-access' },
    });
    expect(parseTuiArgs(['--ask-for-approval', 'on-request', '--sandbox=workspace-write'])).toEqual({
      overrides: { approvalPolicy: 'on-request', sandboxMode: 'workspace-write' },
    });
  });

  it('names the allowed values when a policy or a sandbox mode is not one of them', () => {
    expect(parseTuiArgs(['-a', 'always'])).toBe("option '-a' takes one of untrusted, on-request, never (not 'always')");
    expect(parseTuiArgs(['--sandbox=none'])).toBe(
      "option '--sandbox' takes one of read-only, workspace-write, danger-full-access (not 'none')",
    );
    expect(parseTuiArgs(['-s'])).toBe("option '-s' needs a value");
  });

  it('--full-auto and --dangerously-bypass-approvals-and-sandbox set both, as Codex; a later flag wins', () => {
    expect(parseTuiArgs(['--full-auto'])).toEqual({ overrides: { approvalPolicy: 'on-request', sandboxMode: 'workspace-write' } });
    expect(parseTuiArgs(['--dangerously-bypass-approvals-and-sandbox'])).toEqual({
      overrides: { approvalPolicy: 'never', sandboxMode: 'danger-full-access' },
    });
    expect(parseTuiArgs(['--full-auto', '-a', 'untrusted'])).toEqual({ overrides: { approvalPolicy: 'untrusted', sandboxMode: 'workspace-write' } });
    expect(parseTuiArgs(['--full-auto=yes'])).toBe("option '--full-auto' takes no value");
    expect(parseTuiArgs(['--add-dir', '/data', '--add-dir=rel'])).toEqual({ overrides: { addDirs: ['/data', join(process.cwd(), 'rel')] } });
  });
});
