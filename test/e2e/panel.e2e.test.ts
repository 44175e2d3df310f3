// Issue 15, the panel a user lives in, in a real VS Code (code-server) in a real browser: approve
// by keyboard only with a visible focus ring, the whole call readable in a 300 px sidebar, a
// message queued while a run is busy, and Retry after the model server answered 500.
// Screenshots: test/e2e/artifacts/panel-*/.
import * as assert from 'node:assert/strict';
import { TestIds } from '../../src/protocol/test-ids.js';
import { waitFor } from '../support/processes.js';
import { fixerModel, requestText, say } from './lib/fixer-model.js';
import { openWorkbench } from '../support/browser.js';
import { byTestId, KeelView } from './lib/keel-view.js';
import { WINDOW_SIZES } from './lib/keel-session.js';
import { keelSessions } from './lib/session-hooks.js';

describe('Keel panel (issue 15) in a real VS Code', function () {
  this.timeout(300_000);
  const sessions = keelSessions();

  it('shows the whole call at 300 px and approves by keyboard only (focus ring, Enter, Alt+Shift+Y in the diff and in the view)', async () => {
    const session = await sessions.start({ name: 'panel-keyboard', model: fixerModel() });
    const { view, workbench } = session;
    const frame = await view.open();
    await session.setSideBarWidth(300);
    await session.screenshot('welcome-300px');
    assert.match(await (await view.testId(TestIds.welcome)).first().innerText(), /Fix the failing tests/);

    await workbench.runCommand('Keel: Fix the Failing Tests');
    await session.answerKeyQuestion();
    const card = await view.pendingCard(60_000, /Run the tests|Run a command|npm test/);
    // The summary (or command) is shown whole: its box is inside the card, nothing cut off.
    const body = card.locator(`${byTestId(TestIds.intentSummary)}:visible, ${byTestId(TestIds.intentCommand)}:visible`).first();
    const [cardBox, bodyBox] = [await card.boundingBox(), await body.boundingBox()];
    assert.ok(cardBox && bodyBox && bodyBox.x + bodyBox.width <= cardBox.x + cardBox.width + 1, 'the call text fits the card');
    assert.ok((await body.innerText()).trim().length > 0);
    assert.match((await card.getAttribute('title')) ?? '', /Approve: Alt\+Shift\+Y/);

    // Keyboard only: into the view, Tab to Approve (a visible ring), Enter.
    const approve = card.locator(byTestId(TestIds.approve)).first();
    await approve.focus();
    await workbench.page.keyboard.press('Shift+Tab');
    await workbench.page.keyboard.press('Tab');
    await waitFor('Approve to hold the keyboard', () => approve.evaluate((el) => el === document.activeElement), { timeoutMs: 5000 });
    const ring = await approve.evaluate((el) => getComputedStyle(el).outlineWidth);
    assert.equal(ring, '2px', 'a 2 px focus ring');
    await session.screenshot('approve-focus-ring-300px');
    await workbench.page.keyboard.press('Enter');

    // The edit waits in the diff editor: Alt+Shift+Y approves it from there.
    await view.waitForText(say.edit, 60_000);
    await workbench.page.locator('.monaco-diff-editor').first().waitFor({ state: 'visible', timeout: 30_000 });
    await view.pendingCard(30_000, /price\.js|edit_file/);
    await workbench.page.locator('.monaco-diff-editor .editor.modified .view-lines').first().click();
    await workbench.page.keyboard.press('Alt+Shift+KeyY');
    await waitFor('the edit to land', () => session!.file('src/price.js').includes('Math.round((cents'), { timeoutMs: 30_000 });
    await frame.locator(byTestId(TestIds.intentCard)).first().waitFor();
    // The diff closed after the decision: one group, price.js open once (issue 34, problem 9).
    const page = workbench.page;
    await waitFor('one editor group', async () => (await page.locator('.editor-group-container').count()) === 1, { timeoutMs: 15_000 });
    // Waited for: the diff's tab closes once the edit's result is in, a moment after the bytes land.
    const tabs = (text: string) => page.locator('.tabs-container .tab').filter({ hasText: text }).count();
    const settled = async () => (await tabs("Keel's proposal")) === 0 && (await tabs('price.js')) === 1;
    await waitFor('the diff to close, price.js open once', settled, { timeoutMs: 15_000 });
    await session.screenshot('approved-by-keys');

    // The second test run waits; the keyboard is in Keel's composer: Alt+Shift+Y approves it from
    // the view too, and types nothing into the composer.
    await view.pendingCard(60_000, /npm test|run_tests/);
    const composer = (await view.testId(TestIds.input)).first();
    await composer.click();
    await workbench.page.keyboard.press('Alt+Shift+KeyY');
    await view.waitForText(say.done, 60_000);
    assert.equal(await composer.inputValue(), '', 'the key typed nothing');
    await session.screenshot('approved-from-the-view');
  });

  it('queues a message sent while the run is busy and sends it when the run stops', async () => {
    const session = await sessions.start({ name: 'panel-queued', model: fixerModel(), viewport: WINDOW_SIZES.fullHd, theme: 'dark' });
    const { view, workbench } = session;
    await view.open();
    await workbench.runCommand('Keel: Fix the Failing Tests');
    await session.answerKeyQuestion();
    await view.pendingCard(60_000);
    await view.send('Afterwards, summarise the fix in one line.');
    const queued = (await view.testId(TestIds.queued)).first();
    await queued.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await queued.innerText(), /Queued[\s\S]*summarise the fix/);
    // The whole queued text shows, not a pill cut to "t…".
    const whole = await queued
      .locator('.queued-text')
      .evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.textContent === 'Afterwards, summarise the fix in one line.');
    assert.ok(whole, 'the queued message is shown whole');
    await session.screenshot('queued');
    assert.ok(!session.model.requests.some((r) => requestText(r).includes('summarise the fix')), 'not sent into the busy run');
    for (const step of [/Run the tests|Run a command|npm test/, /price\.js|edit_file/, /Run the tests|Run a command|npm test/])
      await view.approve(step);
    await waitFor(
      'the queued message to reach the model',
      () => session!.model.requests.some((r) => requestText(r).includes('summarise the fix')),
      { timeoutMs: 90_000 },
    );
    await queued.waitFor({ state: 'hidden', timeout: 10_000 });
  });

  it('edit and resend an earlier message forks the task there; the original stays in the history', async () => {
    const session = await sessions.start({ name: 'panel-edit-resend', model: fixerModel(), theme: 'highContrast' });
    const { view, workbench } = session;
    const frame = await view.open();
    await workbench.runCommand('Keel: Fix the Failing Tests');
    await session.answerKeyQuestion();
    await view.pendingCard(60_000);
    await view.click(TestIds.stop);
    // The command's request shows as Keel's (a compact line), and is edited as the user's own would be.
    const message = frame.locator(byTestId(TestIds.keelPrompt)).first().locator('xpath=..');
    await message.hover();
    await message.locator(byTestId(TestIds.editMessage)).click();
    const box = message.locator(byTestId(TestIds.editMessageInput));
    await box.fill('Fix only the discount test, please.');
    await session.screenshot('editing');
    await message.locator(byTestId(TestIds.resendMessage)).click();
    await waitFor(
      'the edited message to reach the model',
      () => session!.model.requests.some((r) => requestText(r).includes('Fix only the discount test')),
      { timeoutMs: 60_000 },
    );
    await view.waitForText('Fix only the discount test', 30_000);
    assert.ok(!(await view.transcriptText()).includes('Fix the failing tests in this workspace'), 'the fork starts at the edit');
    await session.screenshot('forked');
    await workbench.runCommand('Keel: Task History');
    const rows = workbench.page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    await waitFor(
      'both tasks in the history',
      async () => {
        const text = (await rows.allInnerTexts()).join('\n');
        return text.includes('Fix only the discount test') && /Fix the failing tests/i.test(text);
      },
      { timeoutMs: 10_000 },
    );
    await session.screenshot('history-both');
    await workbench.page.keyboard.press('Escape');
  });

  it('two browser tabs on the same folder share one task history', async () => {
    const session = await sessions.start({ name: 'panel-two-tabs', model: fixerModel() });
    const { view, workbench } = session;
    await view.open();
    await workbench.runCommand('Keel: Fix the Failing Tests');
    await session.answerKeyQuestion();
    await view.pendingCard(60_000);
    const second = await openWorkbench(session.server.url, { artifactsDir: session.artifactsDir });
    try {
      const secondView = new KeelView(second);
      await secondView.open();
      await second.runCommand('Keel: Task History');
      const row = second.page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: /Fix the failing tests/i });
      await row.first().waitFor({ state: 'visible', timeout: 30_000 });
      await second.screenshot('second-tab-history');
    } finally {
      await second.close();
    }
  });

  it('a run failed by a 500 ends with Retry beside Show Log, and Retry runs the turn again', async () => {
    let failing = true;
    const session = await sessions.start({
      name: 'panel-retry',
      model: fixerModel(() => (failing ? { type: 'json', status: 500, body: { error: { message: 'stand-in is down' } } } : undefined)),
    });
    const { view, workbench } = session;
    await view.open();
    await workbench.runCommand('Keel: Fix the Failing Tests');
    await session.answerKeyQuestion();
    const retry = (await view.testId(TestIds.retry)).first();
    await retry.waitFor({ state: 'visible', timeout: 120_000 });
    const notice = (await view.locator(`${byTestId(TestIds.notice)}[data-level="error"]`)).last();
    assert.match(await notice.innerText(), /Show Log/);
    await session.screenshot('failed-with-retry');
    failing = false;
    await retry.click();
    await view.waitForText(say.start, 60_000);
    await view.pendingCard(60_000);
    await session.screenshot('retried');
  });
});
