// Keel's own requests in the transcript: the fix-the-tests instruction and the plan approval are
// marked as Keel's (the webview shows them as a compact line, not as the user's message), words
// the user typed are never marked, and a to-do update the pin shows is not also a card.
import assert from 'node:assert/strict';
import { Presenter } from '../../../src/host/presenter/index.js';
import { buildFixTestsPrompt, keelPromptOf } from '../../../src/host/session/prompts.js';
import { PLAN_APPROVED_TEXT } from '../../../src/kernel/index.js';
import type { TranscriptItem } from '../../../src/protocol/index.js';
import { EventFactory } from './events.js';
import { FakeClock } from './fake-clock.js';

function load(events: (f: EventFactory) => Parameters<Presenter['load']>[0]): TranscriptItem[] {
  const f = new EventFactory();
  const presenter = new Presenter({ clock: new FakeClock(), post: () => {}, kernel: () => f.state, contextWindow: 200_000 });
  presenter.load(events(f), 'task-1');
  return JSON.parse(presenter.snapshot().itemsJson) as TranscriptItem[];
}

describe("presenter: Keel's own prompts and the to-do surface", () => {
  it('marks the fix-the-tests request (with or without a command) and the plan approval as Keel’s', () => {
    const users = load((f) => [
      f.event({ type: 'user_message', text: buildFixTestsPrompt({ testCommand: 'npm test' }) }),
      f.event({ type: 'user_message', text: buildFixTestsPrompt() }),
      f.event({ type: 'user_message', text: PLAN_APPROVED_TEXT }),
      f.event({ type: 'user_message', text: 'Fix the failing tests in this workspace.\nand also the docs' }),
      f.event({ type: 'user_message', text: 'I approve the plan.' }),
    ]).filter((i) => i.kind === 'user');
    assert.deepEqual(
      users.map((u) => (u.kind === 'user' ? (u.keel ?? 'user') : '')),
      ['fix_tests', 'fix_tests', 'plan_approved', 'user', 'user'],
    );
    assert.equal(keelPromptOf('hello'), undefined);
  });

  it('shows a to-do update once, in the pin: its card goes when the list is pinned; a failed one stays', () => {
    const items = load((f) => {
      const write = (id: string) => ({ ...f.intent(id), tool: 'todo_write', risk: 'read' as const, summary: 'to-do list' });
      const todos = [{ id: '1', text: 'Fix it', status: 'in_progress' as const }];
      return [
        f.event({ type: 'user_message', text: 'go' }),
        f.event({ type: 'intent_proposed', intent: write('i1') }),
        f.event({ type: 'intent_started', intentId: 'i1' }),
        f.event({ type: 'observation', observation: { intentId: 'i1', ok: true, content: '1. [in_progress] Fix it', facts: { todos } } }),
        f.event({ type: 'intent_proposed', intent: write('i2') }),
        f.event({ type: 'observation', observation: { intentId: 'i2', ok: false, content: 'bad list' } }),
      ];
    });
    assert.deepEqual(
      items.filter((i) => i.kind === 'intent').map((i) => i.id),
      ['i2'],
    );
  });
});
