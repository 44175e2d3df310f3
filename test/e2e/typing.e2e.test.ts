// Issue 34 in a real VS Code (code-server in Chromium), typed and clicked as a person does:
// 1. nothing is approved by accident — text typed into the composer while a card arrives, after
//    clicking a welcome prompt, a card and a link, all lands in the composer and decides nothing
//    (each card waits until its Approve is clicked; the file is written only then);
// 2. the activity line is never silent — while a 3 kB write_file streams slowly it says "Writing
//    NOTES.md · … kB"; when the stream stalls it says so with Stop and Retry, and Retry streams the
//    turn again, the cut text kept and marked;
// 4. the conversation's end stays in view as the composer grows, the context details open and the
//    window and the side bar change size.
// Every screenshot runs the panel checks (panel-look.ts) with the rules of its moment.
// Screenshots: test/e2e/artifacts/34-typing/.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator } from 'playwright-core';
import { TestIds } from '../../src/protocol/test-ids.js';
import { anthropicEvents, sse } from '../support/anthropic-wire.js';
import type { RecordedRequest, Reply } from '../support/model-server.js';
import { chunkText } from '../support/model-turn.js';
import { waitFor } from '../support/processes.js';
import { fixerModel, streamed, toolHistory } from './lib/fixer-model.js';
import { WINDOW_SIZES, type KeelSession } from './lib/keel-session.js';
import { byTestId } from './lib/keel-view.js';
import { keelSessions } from './lib/session-hooks.js';

const LINK_TEXT = 'Node test runner';
const FIRST = `I will run the tests first; the [${LINK_TEXT}](https://nodejs.org/api/test.html) says which fail.`;
const NOTES = Array.from({ length: 60 }, (_, i) => `- note ${i + 1}: discount() rounds down where it should round.`).join('\n');
const CHECKING = 'Checking the notes against the test output, one line at a time';
const DONE = 'NOTES.md lists what fails: discount() rounds down.';

/** Slow enough that a person types while it streams (the card arrives mid-sentence). */
const PACE = { chunkBytes: 48, pauseMs: 110 };

/** The model: a paced first turn with a link, a slowly streamed 3 kB write_file, a stalled turn, then the answer. */
function typingModel() {
  let stalled = false;
  return fixerModel((req: RecordedRequest): Reply | undefined => {
    const last = toolHistory(req).at(-1);
    if (!last) return streamed(req, { text: chunkText(FIRST, 10), toolCalls: [{ name: 'run_tests', input: {} }] }, PACE);
    if (last.name === 'run_tests')
      return streamed(
        req,
        { text: ['Writing notes.'], toolCalls: [{ name: 'write_file', input: { path: 'NOTES.md', content: NOTES } }], fragmentChars: 24 },
        { chunkBytes: 90, pauseMs: 90 },
      );
    if (last.name === 'write_file' && !stalled) {
      stalled = true;
      // Some text, then nothing: the connection stays open and silent.
      const events = anthropicEvents({ text: chunkText(CHECKING, 16) });
      return { type: 'stream', body: sse(events.slice(0, 5)), stall: true };
    }
    return streamed(req, { text: chunkText(DONE, 12) });
  });
}

/** Back to the composer with the mouse, the caret then put at the end of the draft. */
async function backToComposer(session: KeelSession, composer: Locator): Promise<void> {
  await composer.click();
  await session.workbench.page.keyboard.press('Control+End');
}

/** Types `text` a key at a time, as a person does. */
async function typeSlowly(session: KeelSession, text: string): Promise<void> {
  await session.workbench.page.keyboard.type(text, { delay: 35 });
}

async function waiting(frame: Frame, hasText: RegExp): Promise<Locator> {
  return frame.locator(`${byTestId(TestIds.intentCard)}[data-intent-status="awaiting_approval"]`).filter({ hasText });
}

describe('Keel in a real VS Code: typing decides nothing, the activity line, the bottom in view (issue 34)', function () {
  this.timeout(420_000);
  const sessions = keelSessions();

  it('keeps typed text in the composer while cards arrive, says what it does, and keeps the end in view', async () => {
    const session = await sessions.start({ name: '34-typing', model: typingModel(), viewport: WINDOW_SIZES.laptop });
    const { view, workbench } = session;
    const page = workbench.page;
    const frame = await view.open();
    const composer = (await view.testId(TestIds.input)).first();
    let typed = '';
    const type = async (text: string) => {
      await typeSlowly(session, text);
      typed += text;
    };

    // A welcome prompt, clicked: the keyboard goes to the composer.
    await (await view.testId(TestIds.welcomePrompt)).filter({ hasText: 'Fix the failing tests' }).first().click();
    await session.answerKeyQuestion();
    await composer.click();
    // Typing while the first card arrives (the stream is paced: it comes mid-sentence).
    const testsCard = await waiting(frame, /npm test|Run the tests/);
    for (const word of 'also explain why the discount is wrong'.split(/(?= )/)) {
      await type(word);
      if (await testsCard.count()) break;
    }
    await testsCard.first().waitFor({ timeout: 60_000 });
    await type(' please');
    await session.screenshot('card-arrives-while-typing', { rules: { composerFocused: true, atBottom: true } });
    assert.equal(await composer.inputValue(), typed, 'every key typed is in the composer');
    assert.equal(await testsCard.count(), 1, 'the card still waits');

    // A card clicked with the mouse, then typing: still the composer's.
    await testsCard.first().locator(byTestId(TestIds.intentCommand)).click();
    await type(' and the fix');
    assert.equal(await composer.inputValue(), typed, 'typed after clicking the card');
    // A link clicked: Keel asks before opening it (declined); typing after it lands in the composer.
    await frame.locator('.markdown a', { hasText: LINK_TEXT }).first().click();
    await session.answerModal('Open this link from the transcript?', 'Cancel', { screenshot: 'link-question' });
    // The question took the keyboard; Keel gives it back to the composer (a person sees the caret there).
    await waitFor(
      'the composer to have the keyboard after the link question',
      () => frame.evaluate(() => document.hasFocus() && document.activeElement?.getAttribute('data-testid') === 'input'),
      { timeoutMs: 10_000, intervalMs: 50 },
    );
    await type(' too');
    assert.equal(await composer.inputValue(), typed, 'typed after the link');
    assert.equal(await testsCard.count(), 1, 'no key decided the card');
    await session.screenshot('typed-after-card-and-link', { rules: { atBottom: true } });

    // Only a click decides: the tests run, then the model writes a 3 kB file, slowly.
    await testsCard.first().locator(byTestId(TestIds.approve)).first().click();
    await backToComposer(session, composer);
    const notesCard = await waiting(frame, /NOTES\.md/);
    let looks = 0;
    await waitFor(
      'the write_file call to start streaming',
      async () =>
        /Writing NOTES\.md/.test(
          (await frame
            .locator(byTestId(TestIds.statusLine))
            .innerText()
            .catch(() => '')) ?? '',
        ),
      { timeoutMs: 60_000, intervalMs: 50 },
    );
    while (!(await notesCard.count()) && looks < 6) {
      await session.screenshot(`writing-notes-${++looks}`, { rules: { activity: /^Writing NOTES\.md · [\d.]+ (B|kB) · \d+s$/ } });
      await type('.');
    }
    assert.ok(looks >= 2, `the activity line was looked at ${looks} times while the call streamed`);
    await notesCard.first().waitFor({ timeout: 60_000 });
    await session.screenshot('notes-card-arrives', { rules: { composerFocused: true, atBottom: true } });
    assert.equal(existsSync(join(session.folder, 'NOTES.md')), false, 'nothing written before Approve');

    // Size changes while the card waits at the bottom: the end stays in view after each.
    for (const line of ['second line', 'third line']) {
      await page.keyboard.press('Shift+Enter');
      typed += '\n';
      await type(line);
    }
    await session.screenshot('composer-grew', { rules: { atBottom: true, composerFocused: true } });
    await frame.locator('.meter-toggle').click();
    // The user's choice takes the room here: the details and a three-line draft leave the conversation half.
    await session.screenshot('details-open', { rules: { atBottom: true, minTranscriptShare: 0.45 } });
    await frame.locator('.meter-toggle').click();
    await session.setWindowSize(WINDOW_SIZES.fullHd);
    await session.setSideBarWidth(650);
    await session.screenshot('fullhd-650px', { rules: { atBottom: true } });
    await session.setSideBarWidth(300);
    await session.screenshot('fullhd-300px', { rules: { atBottom: true } });
    await session.setWindowSize(WINDOW_SIZES.laptop);
    await session.screenshot('laptop-300px', { rules: { atBottom: true } });
    assert.equal(await composer.inputValue(), typed, 'the draft is whole');

    // Approve by click: the file is written; the next turn stalls and the line says so.
    await notesCard.first().locator(byTestId(TestIds.approve)).first().click();
    await waitFor('NOTES.md written', () => existsSync(join(session.folder, 'NOTES.md')), { timeoutMs: 30_000 });
    const stall = frame.locator(`${byTestId(TestIds.statusLine)}.stalled`);
    await stall.waitFor({ state: 'visible', timeout: 60_000 });
    // A four-line draft and the notice with its buttons (a second row at 300 px) share the room.
    await session.screenshot('stalled', { rules: { activity: /^No data from the model for \d+s$/, minTranscriptShare: 0.6 } });
    await frame.locator(byTestId(TestIds.stallRetry)).click();
    await view.waitForText(DONE, 60_000);
    const cut = frame.locator(`${byTestId(TestIds.assistantText)}[data-cut="true"]`);
    assert.match(await cut.first().innerText(), /Checking the notes[\s\S]*stream was cut here/);
    await session.screenshot('retried-after-stall', { rules: { atBottom: true } });
    assert.equal(
      session.modelRequests().filter((r) => JSON.stringify(r.body).includes('also explain why')).length,
      0,
      'the draft was never sent',
    );
  });
});
