// Issue 15's context in, in a real VS Code through a real browser: `@` in the composer opens
// its menu at the caret (issue 34: not the quick pick at the top of the window), a file and the
// problems become mentions in the sentence and chips, and reach the model stand-in's request as
// delimited attachment blocks; a pasted PNG shows as a thumbnail and reaches the stand-in as an
// image block. Screenshots: test/e2e/artifacts/15-attachments/.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { TestIds } from '../../src/protocol/test-ids.js';
import type { RecordedRequest, Responder } from '../support/model-server.js';
import { waitFor } from '../support/processes.js';
import { streamed } from './lib/fixer-model.js';
import { type KeelSession, WINDOW_SIZES } from './lib/keel-session.js';
import { keelSessions } from './lib/session-hooks.js';

const ANSWER = 'Seen what you attached.';
/** A 1×1 PNG: small enough to go as it is (no downscale). */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const answering: Responder = (req: RecordedRequest) =>
  req.api === 'unknown' ? { type: 'json', status: 404, body: { error: 'not a model endpoint' } } : streamed(req, { text: [ANSWER] });

/** The blocks of the first user message of the stand-in's first model request (Anthropic wire). */
function firstUserBlocks(session: KeelSession): { type: string; text?: string; source?: { media_type: string; data: string } }[] {
  const request = session.modelRequests()[0];
  assert.ok(request, 'the stand-in got a request');
  const content = request.body.messages[0].content;
  return Array.isArray(content) ? content : [{ type: 'text', text: content }];
}

/**
 * Types `@` and `query` in the composer and picks the first row of the menu that opened at the
 * caret: it sits just above the line being written (not at the top of the window), and no quick
 * pick opens.
 */
async function pickInMenu(session: KeelSession, input: Locator, query: string, rowText: string): Promise<void> {
  await input.press('@');
  const menu = (await session.view.testId(TestIds.mentionList)).first();
  await menu.waitFor({ state: 'visible', timeout: 15_000 });
  await input.pressSequentially(query);
  const row = menu.locator('[role="option"]').filter({ hasText: rowText }).first();
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  const [box, field] = [await menu.boundingBox(), await input.boundingBox()];
  assert.ok(box && field, 'the menu and the box are laid out');
  assert.ok(
    box.y + box.height <= field.y + field.height && box.y + box.height >= field.y - 4,
    `the menu ends at the caret's line: ${JSON.stringify({ box, field })}`,
  );
  assert.equal(await session.workbench.page.locator('.quick-input-widget:visible').count(), 0, 'no quick pick at the top of the window');
  const inPanel = await (await session.view.testId(TestIds.input))
    .first()
    .evaluate((el) => el.closest('.composer')!.getBoundingClientRect().width);
  assert.ok(box.width <= inPanel, 'the menu fits in the panel');
  await session.screenshot(`mention-menu-${query}`);
  await input.press('Enter');
  await menu.waitFor({ state: 'hidden', timeout: 10_000 });
}

/** Picks `query` in the quick pick the `@` opened (waits for the row, then Enter). */
async function pickInQuickPick(page: Page, query: string, rowText: string): Promise<void> {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill(query);
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: rowText }).first();
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  await row.click();
  await input.waitFor({ state: 'hidden', timeout: 10_000 });
}

describe('Keel end to end: context in, with @ and images', function () {
  this.timeout(300_000);
  const sessions = keelSessions();

  it('@file and @problems reach the model as attachment blocks, shown as chips', async () => {
    const session = await sessions.start({ name: '15-attachments', model: answering, theme: 'highContrast' });
    const { page } = session.workbench;
    // A problem the built-in JSON language service reports once the file is open.
    writeFileSync(join(session.folder, 'broken.json'), '{ "price": }\n');
    await session.workbench.openFile('broken.json');
    // The status bar's problems item: the error count comes first ("⊗ 1 ⚠ 0").
    const problemsItem = page.locator('.statusbar-item').filter({ has: page.locator('.codicon-error') });
    await waitFor(
      'the JSON error in the Problems count',
      async () => (await problemsItem.count()) > 0 && /^\s*[1-9]/.test((await problemsItem.first().textContent()) ?? ''),
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    await session.screenshot('problem-reported');

    const { view } = session;
    await view.open();
    const input = (await view.testId(TestIds.input)).first();
    await input.click();
    await input.pressSequentially('Explain ');
    await pickInMenu(session, input, 'price', 'src/price.js');
    await session.screenshot('mention-picked');
    await pickInMenu(session, input, 'prob', 'Problems');
    // The keyboard stayed in the composer, not in broken.json (open in the editor): words typed
    // now go into the message, after the mentions, one space apart.
    await page.keyboard.type('in the price code');
    const sentence = 'Explain @src/price.js @Problems in the price code';
    await waitFor('the mentions in the sentence', async () => (await input.inputValue()) === sentence, {
      timeoutMs: 5000,
      intervalMs: 100,
    });
    assert.equal(await page.locator('.tabs-container .tab.dirty').count(), 0, 'no editor was typed into');
    const chips = (await view.locator(`.attachment-tray [data-testid="${TestIds.attachmentChip}"]`)).filter({ hasText: /./ });
    await waitFor('two chips in the composer', async () => (await chips.count()) === 2, { timeoutMs: 15_000, intervalMs: 100 });
    assert.deepEqual(await chips.allInnerTexts(), ['src/price.js', 'Problems (1)']);
    await session.screenshot('chips-in-composer');
    // The same menu at the caret in a full-HD window.
    await page.setViewportSize(WINDOW_SIZES.fullHd);
    await input.press('End');
    await input.pressSequentially(' ');
    await input.press('@');
    const menu = (await view.testId(TestIds.mentionList)).first();
    await menu.waitFor({ state: 'visible', timeout: 15_000 });
    await menu.locator('[role="option"]').filter({ hasText: 'src/price.js' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await session.screenshot('mention-menu-1920');
    await input.press('Escape');

    await input.fill('Explain the price code and the problem.');
    await (await view.testId(TestIds.send)).first().click();
    await session.answerKeyQuestion();
    await view.waitForText(ANSWER, 60_000);
    const sentChips = (await view.locator(`[data-testid="${TestIds.userMessage}"] [data-testid="${TestIds.attachmentChip}"]`)).filter({
      hasText: /./,
    });
    assert.deepEqual(await sentChips.allInnerTexts(), ['src/price.js', 'Problems (1)']);
    await session.screenshot('chips-in-message');

    const blocks = firstUserBlocks(session);
    const file = blocks.find((b) => b.text?.startsWith('<attachment kind="file"'));
    assert.ok(file, 'the file travels as its own text block');
    assert.match(file.text!, /path="src\/price\.js"/);
    assert.ok(file.text!.includes(session.file('src/price.js').trimEnd()), "the file's content as captured");
    const problems = blocks.find((b) => b.text?.startsWith('<attachment kind="problems"'));
    assert.ok(problems, 'the problems travel as their own text block');
    assert.match(problems.text!, /broken\.json:1:\d+ error/);
    // The user's words follow what they attached (the repo map block, when there is one, joins the same turn after them).
    const words = blocks.findIndex((b) => b.text === 'Explain the price code and the problem.');
    assert.ok(words > blocks.indexOf(file) && words > blocks.indexOf(problems), "the user's words come after the attachments");
  });

  it('a pasted PNG and a selection added from the editor reach the model as an image block and a selection block', async () => {
    const session = await sessions.start({ name: '15-attachments-image', model: answering, viewport: WINDOW_SIZES.fullHd });
    const { view } = session;
    const { page } = session.workbench;
    const frame = await view.open();
    // Keel: Add Selection to Chat, on the whole of src/price.js.
    await session.workbench.openFile('src/price.js');
    await page.locator('.monaco-editor textarea').first().waitFor({ state: 'attached', timeout: 15_000 });
    await page.keyboard.press('Control+A');
    await session.workbench.runCommand('Keel: Add Selection to Chat');
    const lineCount = session.file('src/price.js').trimEnd().split('\n').length;
    const selectionChip = frame.locator(`.attachment-tray [data-testid="${TestIds.attachmentChip}"][data-kind="selection"]`).first();
    await selectionChip.waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(await selectionChip.innerText(), `src/price.js:1-${lineCount}`);

    const input = (await view.testId(TestIds.input)).first();
    await input.click();
    // A real paste event with a real File in its DataTransfer, as the clipboard delivers it.
    await input.evaluate((el, data) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], 'screenshot.png', { type: 'image/png' }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
    }, PNG_BASE64);
    const thumb = frame.locator(`.attachment-tray [data-testid="${TestIds.messageImage}"]`).first();
    await thumb.waitFor({ state: 'visible', timeout: 15_000 });
    await session.screenshot('thumbnail-in-composer');

    await view.send('What does this screenshot show?');
    await session.answerKeyQuestion();
    await view.waitForText(ANSWER, 60_000);
    await frame
      .locator(`[data-testid="${TestIds.userMessage}"] [data-testid="${TestIds.messageImage}"]`)
      .first()
      .waitFor({ state: 'visible' });
    await session.screenshot('thumbnail-in-message');

    const blocks = firstUserBlocks(session);
    const selection = blocks.find((b) => b.text?.startsWith('<attachment kind="selection"'));
    assert.ok(selection, 'the selection travels as its own text block');
    assert.match(selection.text!, new RegExp(`path="src/price\\.js" lines="1-${lineCount}"`));
    const image = blocks.find((b) => b.type === 'image');
    assert.ok(image, 'an image block in the request');
    assert.deepEqual(image.source, { type: 'base64', media_type: 'image/png', data: PNG_BASE64 });
  });

  it('the header picks the model and toggles auto-approve classes, written to the user settings', async () => {
    const session = await sessions.start({ name: '15-header-pickers', model: answering, theme: 'dark' });
    const { view } = session;
    const { page } = session.workbench;
    await view.open();
    const model = (await view.testId(TestIds.modelPicker)).first();
    await waitFor('the model in the header', async () => (await model.innerText()).includes('claude-sonnet-5-5'), {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    await session.screenshot('header');
    await model.click();
    await pickInQuickPick(page, 'haiku', 'claude-haiku-4-5');
    await waitFor('the new model in the header', async () => (await model.innerText()).includes('claude-haiku-4-5'), {
      timeoutMs: 30_000,
      intervalMs: 100,
    });

    const auto = (await view.testId(TestIds.autoApprovePicker)).first();
    assert.equal(await auto.innerText(), 'Auto: read');
    await auto.click();
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: 'execute' }).first().click();
    await session.screenshot('auto-approve-toggles');
    await input.press('Enter');
    await waitFor('the new classes in the header', async () => (await auto.innerText()) === 'Auto: read, execute', {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    await session.screenshot('header-after');
  });
});
