import assert from 'node:assert/strict';
import type { ToolIntent } from '../../../src/kernel/index.js';
import { planIntentEdit } from '../../../src/host/edits/edit-plans.js';

const intent = (tool: string, input: unknown): ToolIntent => ({
  id: 'i1',
  tool,
  input,
  providerRef: 'p',
  summary: '',
  risk: 'write',
  paths: ['a.txt'],
  status: 'awaiting_approval',
});
const bytes = (s: string) => new TextEncoder().encode(s);

describe('host/edit-plans (the diff editor’s proposed side)', () => {
  it('applies edit_file blocks to the current bytes, keeping CRLF', () => {
    const plan = planIntentEdit(
      intent('edit_file', { path: 'a.txt', edits: [{ search: 'two', replace: 'TWO' }] }),
      bytes('one\r\ntwo\r\n'),
    );
    assert.deepEqual(plan, { ok: true, content: 'one\r\nTWO\r\n' });
  });

  it('shows write_file content for a new file', () => {
    assert.deepEqual(planIntentEdit(intent('write_file', { path: 'n.txt', content: 'hi\n' }), undefined), { ok: true, content: 'hi\n' });
  });

  it('says why an edit cannot apply', () => {
    const plan = planIntentEdit(intent('edit_file', { path: 'a.txt', edits: [{ search: 'absent', replace: 'x' }] }), bytes('one\n'));
    assert.equal(plan?.ok, false);
    assert.equal(planIntentEdit(intent('edit_file', { path: 'a.txt', edits: [{ search: 'a', replace: 'b' }] }), undefined)?.ok, false);
  });

  it('ignores tools that change no file', () => {
    assert.equal(planIntentEdit(intent('run_command', { command: 'ls' }), undefined), undefined);
  });
});
