// Issue 10 in a real VS Code through a real browser: with a small context window (the
// keel.contextWindow setting, as for a local model) a task folds its finished steps into a note
// by itself; the state pane shows the context split (instructions and tools, project summary and
// notes, this conversation, room for the answer) and the tokens and cost per kind; Summarize
// finished steps folds the rest.
// Screenshots: test/e2e/artifacts/6-context-pane/.
import * as assert from 'node:assert/strict';
import { NOTE_PROMPT } from '../../src/kernel/index.js';
import { TestIds } from '../../src/protocol/test-ids.js';
import type { RecordedRequest, Responder } from '../support/model-server.js';
import { waitFor } from '../support/processes.js';
import { streamed } from './lib/fixer-model.js';
import { byTestId } from './lib/keel-view.js';
import { WINDOW_SIZES } from './lib/keel-session.js';
import { keelSessions } from './lib/session-hooks.js';

const NOTE_MARK = NOTE_PROMPT.slice(0, 30);
const NOTE = 'Episode note: read the README, src/price.js and its test; discount() rounds down with Math.floor.';
const DONE = 'I have read the whole project now.';
const FILES = [
  'README.md',
  'src/price.js',
  'test/price.test.js',
  'package.json',
  'src/price.js',
  'test/price.test.js',
  'README.md',
  'package.json',
];

/** Thinks out loud (long replies fill a small window), reads a file a turn, answers note requests. */
function readerModel(): Responder {
  let turn = 0;
  return (req: RecordedRequest) => {
    if (req.api === 'unknown') return { type: 'json', status: 404, body: { error: 'not a model endpoint' } };
    const last = req.body.messages.at(-1).content;
    const asksForNote =
      Array.isArray(last) && last.some((b: { type: string; text?: string }) => b.type === 'text' && b.text?.startsWith(NOTE_MARK));
    // Usage as a real model reports it: the request's input, so the bar shows real use.
    const usage = { input: Math.ceil(JSON.stringify(req.body).length / 4), output: 60 };
    if (asksForNote) return streamed(req, { text: [NOTE], usage });
    const file = FILES[turn++];
    if (!file) return streamed(req, { text: [DONE], usage });
    const thinking = `Step ${turn}: looking at ${file} next, to see how prices and discounts are computed. `.repeat(16);
    return streamed(req, { text: [thinking], toolCalls: [{ name: 'read_file', input: { path: file, force: true } }], usage });
  };
}

describe('Keel end to end: the context state pane', function () {
  this.timeout(300_000);
  const sessions = keelSessions();

  it('folds at the high-water mark, shows the breakdown and cost, and folds on request', async () => {
    const session = await sessions.start({
      name: '6-context-pane',
      model: readerModel(),
      settings: { 'keel.contextWindow': 8192 },
      viewport: WINDOW_SIZES.fullHd,
      theme: 'highContrast',
    });
    const { view } = session;
    await view.open();
    await view.send('Read the project and tell me how discounts are computed.');
    await session.answerKeyQuestion();
    // textContent, not innerText: off-screen items skip rendering (content-visibility: auto).
    const transcript = (await view.testId(TestIds.transcript)).first();
    await waitFor('the answer in the transcript', async () => ((await transcript.textContent()) ?? '').includes(DONE), {
      timeoutMs: 120_000,
      intervalMs: 100,
    });
    const folds = await view.testId(TestIds.foldItem);
    assert.ok((await folds.count()) >= 1, 'the task folded by itself in an 8k window');
    assert.match((await folds.first().textContent()) ?? '', /Folded \d+ steps?/);
    await folds.first().scrollIntoViewIfNeeded();
    await session.screenshot('folded-by-itself');

    // The compact bar, then the details on click.
    const meter = (await view.testId(TestIds.meter)).first();
    await meter.waitFor({ state: 'visible' });
    assert.match(await meter.innerText(), /Context (<1|\d+)%/);
    assert.equal(
      await meter.locator('[role="meter"]').getAttribute('aria-valuemax'),
      '8192',
      'the bar is against the window set in keel.contextWindow',
    );
    await meter.locator('.meter-toggle').click();
    const details = (await view.testId(TestIds.meterDetails)).first();
    await details.waitFor({ state: 'visible', timeout: 10_000 });
    const text = await details.innerText();
    for (const part of [
      /instructions and tools/,
      /project summary and notes \(\d+ folds?\)/,
      /this conversation/,
      /room for the answer\s*2\.0k/,
    ])
      assert.match(text, part);
    assert.match(text, /Tokens so far: input [\d.]+k? · cache read [\d.]+k? · cache write [\d.]+k? · output [\d.]+k?/);
    assert.match(text, /Cost so far: input \$[\d.]+ · cache read \$[\d.]+ · cache write \$[\d.]+ · output \$[\d.]+ = \$[\d.]+/);
    // The details the user opened take their room above the composer (about 120 px at 1920×1080).
    await session.screenshot('state-pane', { rules: { minTranscriptShare: 0.6 } });

    const before = await folds.count();
    await view.click(TestIds.foldNow);
    await waitFor('a requested fold in the transcript', async () => (await folds.count()) > before, { timeoutMs: 30_000, intervalMs: 100 });
    const requested = folds.last();
    await requested.scrollIntoViewIfNeeded();
    await requested.locator('summary').click();
    assert.match((await requested.textContent()) ?? '', /asked for/);
    assert.ok(((await requested.locator('.fold-note').textContent()) ?? '').includes(NOTE), 'the model wrote the note');
    await (await view.locator(byTestId(TestIds.meterDetails))).first().waitFor({ state: 'visible' });
    await session.screenshot('state-pane-after-fold-now', { rules: { minTranscriptShare: 0.6 } });

    const notes = session.modelRequests().filter((r) => JSON.stringify(r.body.messages).includes(NOTE_MARK));
    assert.equal(notes.length, before + 1, 'one note request per fold');
  });
});
