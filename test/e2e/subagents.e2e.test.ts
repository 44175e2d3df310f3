// Issue 12 in a real VS Code through a real browser: the task delegates to a sub-agent that may
// write; the child's write asks for approval, shown nested in the child's run under the
// delegate card, approved there; the child's answer and the file it changed come back.
// Screenshots: test/e2e/artifacts/12-subagents/.
import * as assert from 'node:assert/strict';
import { TestIds } from '../../src/protocol/test-ids.js';
import type { RecordedRequest, Responder } from '../support/model-server.js';
import { waitFor } from '../support/processes.js';
import { streamed } from './lib/fixer-model.js';
import { byTestId } from './lib/keel-view.js';
import { WINDOW_SIZES } from './lib/keel-session.js';
import { keelSessions } from './lib/session-hooks.js';

const CHILD_BRIEF = 'CHILD: write NOTES.md with one line saying the tests use node --test.';
const DONE = 'The sub-agent wrote NOTES.md.';

/** The agent asking is named by the first words of its first message; its step by its replies so far. */
function delegatingModel(): Responder {
  return (req: RecordedRequest) => {
    if (req.api === 'unknown') return { type: 'json', status: 404, body: { error: 'not a model endpoint' } };
    const messages = req.body.messages as { role: string; content: unknown }[];
    const first = JSON.stringify(messages[0]?.content ?? '');
    const step = messages.filter((m) => m.role === 'assistant').length;
    if (first.includes('CHILD:')) {
      if (step === 0)
        return streamed(req, { toolCalls: [{ name: 'write_file', input: { path: 'NOTES.md', content: 'Tests use node --test.\n' } }] });
      return streamed(req, { text: ['Wrote NOTES.md.'] });
    }
    if (step === 0)
      return streamed(req, { toolCalls: [{ name: 'delegate', input: { task: CHILD_BRIEF, tools: ['read_file', 'write_file'] } }] });
    return streamed(req, { text: [DONE] });
  };
}

describe('Keel end to end: sub-agents', function () {
  this.timeout(300_000);
  const sessions = keelSessions();

  it("a child's write asks in a card nested in its run, and is approved there", async () => {
    const session = await sessions.start({ name: '12-subagents', model: delegatingModel(), viewport: WINDOW_SIZES.fullHd, theme: 'dark' });
    const { view } = session;
    const frame = await view.open();
    await view.send('Have a sub-agent write NOTES.md.');
    await session.answerKeyQuestion();
    const run = frame.locator(byTestId(TestIds.frameCard)).first();
    await run.waitFor({ state: 'attached', timeout: 60_000 });
    // Collapsed at first: the nested card is inside the closed run until it is expanded.
    await run.locator('summary').click();
    const nested = run.locator(`${byTestId(TestIds.intentCard)}[data-intent-status="awaiting_approval"]`).first();
    await nested.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match((await nested.textContent()) ?? '', /NOTES\.md/);
    await session.screenshot('nested-approval');
    await nested.locator(byTestId(TestIds.approve)).first().click();
    await waitFor('the parent answer', async () => (await view.transcriptText()).includes(DONE), { timeoutMs: 60_000, intervalMs: 100 });
    assert.equal(session.file('NOTES.md'), 'Tests use node --test.\n', 'the approved write landed');
    assert.match((await run.textContent()) ?? '', /done · 2 turns · 1 call/);
    await session.screenshot('child-done');
  });
});
