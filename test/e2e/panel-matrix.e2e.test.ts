// Issue 21: the panel as a person sees it, in one code-server session that changes the window
// size (1366×768 and 1920×1080) and the colour theme (light, dark, high contrast, through the
// theme picker, which writes the setting), looking at the key states: the welcome, a command
// waiting (with the badge on the Keel icon, markdown a narrow side bar struggles with, a keyboard
// focus ring and the context meter in every theme), an edit in review, Apply on a code block,
// a pasted 40-line trace in the composer, and the layout after Reset View Locations. Every
// screenshot also runs the geometry checks (panel-look.ts); after each change of size or theme,
// and with the composer grown, the conversation's end must be in view (issue 34).
// Screenshots: artifacts/21-panel-matrix/.
import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { TestIds } from '../../src/protocol/test-ids.js';
import { chunkText } from '../support/model-turn.js';
import { waitFor } from '../support/processes.js';
import { fixerModel, say, streamed } from './lib/fixer-model.js';
import type { KeelSession, ThemeName } from './lib/keel-session.js';
import { WINDOW_SIZES } from './lib/keel-session.js';
import { byTestId } from './lib/keel-view.js';
import { keelSessions } from './lib/session-hooks.js';

/** The new subtotal() an Apply puts in place of the old one (and nowhere else). */
const SUBTOTAL = [
  'function subtotal(lines) {',
  '  // Every line, in cents.',
  '  return lines.reduce((sum, line) => sum + line.unitCents * line.quantity, 0);',
  '}',
].join('\n');

/** The first answer: what a narrow side bar struggles with, then the test run. */
const LONG_ANSWER = [
  say.start,
  '',
  '| file | what it does | lines | status | owner |',
  '| --- | --- | --- | --- | --- |',
  '| src/price.js | computes prices and discounts for the checkout | 42 | failing | billing-team |',
  '| test/price.test.js | the discount and total tests | 30 | runs | billing-team |',
  '',
  '- [x] read the project',
  '- [ ] run the tests',
  '',
  '```js src/long.js',
  ...Array.from({ length: 60 }, (_, i) => `const value${i} = compute(${i}); // line ${i + 1} of a long block`),
  '```',
  '',
  'And a tidier `subtotal()` for `src/price.js`:',
  '',
  '```js',
  SUBTOTAL,
  '```',
].join('\n');

/** What the page shows of the markdown, measured: the long block capped under a toolbar that stays, the table scrolling in its box. */
const MARKDOWN_LOOK = `(() => {
  const pre = [...document.querySelectorAll('.code-block pre')].find((p) => p.textContent.includes('value59'));
  const bar = pre.parentElement.querySelector('.code-actions');
  pre.parentElement.scrollIntoView({ block: 'center' });
  const lineHeight = parseFloat(getComputedStyle(pre.querySelector('code')).lineHeight) || 18;
  pre.scrollTop = pre.scrollHeight;
  const barBox = bar.getBoundingClientRect();
  const preBox = pre.getBoundingClientRect();
  const box = document.querySelector('.table-scroll');
  const li = [...document.querySelectorAll('.markdown li')].find((l) => l.querySelector('input[type=checkbox]'));
  return {
    codeLines: pre.clientHeight / lineHeight,
    codeScrolls: pre.scrollHeight > pre.clientHeight,
    barAboveCode: barBox.bottom <= preBox.top + 1 && barBox.height > 0,
    boxes: [barBox.top, barBox.bottom, preBox.top, preBox.bottom],
    label: bar.querySelector('.code-label').textContent,
    tableScrolls: box.scrollWidth > box.clientWidth,
    taskBullet: getComputedStyle(li).listStyleType,
  };
})()`;

/** Contrast of the meter's edge against the side bar (WCAG, non-text: ≥ 3 is visible). */
const METER_CONTRAST = `(() => {
  // rgb(…)/rgba(…) in 0–255; color(srgb …) (what color-mix computes to) in 0–1.
  const rgb = (c) => { const n = (c.match(/[\\d.]+/g) || []).map(Number); return c.startsWith('color(') ? n.map((v, i) => (i < 3 ? v * 255 : v)) : n; };
  const lum = (c) => { const [r, g, b] = c.slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const bar = document.querySelector('.meter-bar');
  const edge = rgb(getComputedStyle(bar).borderTopColor);
  let back = [];
  for (let n = bar.parentElement; n && back.length < 3; n = n.parentElement) {
    const c = rgb(getComputedStyle(n).backgroundColor);
    if (c.length >= 3 && (c.length < 4 || c[3] > 0.5)) back = c;
  }
  if (back.length < 3) back = rgb(getComputedStyle(document.body).backgroundColor);
  const alpha = edge.length > 3 ? edge[3] : 1;
  const seen = edge.slice(0, 3).map((v, i) => v * alpha + back[i] * (1 - alpha));
  const [a, b] = [lum(seen), lum(back)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
})()`;

/** Tabs from the composer back to the waiting card's Approve, so it holds a keyboard focus ring. */
async function focusApproveByKeyboard(session: KeelSession): Promise<void> {
  const card = await session.view.pendingCard(30_000);
  const approve = card.locator(byTestId(TestIds.approve)).first();
  await approve.focus();
  await session.workbench.page.keyboard.press('Shift+Tab');
  await session.workbench.page.keyboard.press('Tab');
}

/** The Keel icon's badge in the activity bar ('' when none). */
async function keelBadge(session: KeelSession): Promise<string> {
  const badge = session.workbench.page.locator('.activitybar .action-item:has([aria-label^="Keel"]) .badge-content').first();
  return (await badge.count()) && (await badge.isVisible()) ? (await badge.innerText()).trim() : '';
}

async function pickRow(session: KeelSession, query: string, row: string): Promise<void> {
  const page = session.workbench.page;
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill(query);
  const hit = page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: row }).first();
  await hit.waitFor({ state: 'visible', timeout: 15_000 });
  await hit.click();
}

describe('Keel panel in two window sizes and three themes (issue 21)', function () {
  this.timeout(400_000);
  const sessions = keelSessions();

  it('gives the conversation the side bar and keeps cards whole, in every size and theme', async () => {
    const session = await sessions.start({
      name: '21-panel-matrix',
      theme: 'light',
      viewport: WINDOW_SIZES.laptop,
      model: fixerModel((req, index) =>
        index === 0 ? streamed(req, { text: chunkText(LONG_ANSWER, 80), toolCalls: [{ name: 'run_tests', input: {} }] }) : undefined,
      ),
    });
    const { view, workbench } = session;
    const page = workbench.page;
    const frame: Frame = await view.open();
    await session.screenshot('welcome-laptop-light');

    await workbench.runCommand('Keel: Fix the Failing Tests');
    await session.answerKeyQuestion();
    const card = await view.pendingCard(60_000, /npm test/);
    assert.equal(await card.locator(byTestId(TestIds.intentCommand)).innerText(), 'npm test', 'the command the card asks about, whole');
    await waitFor('the badge on the Keel icon', async () => (await keelBadge(session)) === '1', { timeoutMs: 10_000 });
    await session.screenshot('command-waits-laptop-light');
    await session.sidebarShot('readme-command-waits');
    const md = (await frame.evaluate(MARKDOWN_LOOK)) as Record<string, unknown>;
    assert.ok((md.codeLines as number) <= 26 && md.codeScrolls, `a 60-line block is capped and scrolls: ${JSON.stringify(md)}`);
    assert.ok(md.barAboveCode, `its toolbar stays above the code while it scrolls: ${JSON.stringify(md)}`);
    assert.equal(md.label, 'src/long.js · js');
    assert.ok(md.tableScrolls, 'the wide table scrolls in its own box');
    assert.equal(md.taskBullet, 'none', 'a task list item has its checkbox, no bullet');

    for (const [size, theme] of [
      ['laptop', 'dark'],
      ['fullHd', 'dark'],
      ['fullHd', 'highContrast'],
      ['laptop', 'highContrast'],
      ['fullHd', 'light'],
    ] as [keyof typeof WINDOW_SIZES, ThemeName][]) {
      await session.setWindowSize(WINDOW_SIZES[size]);
      await session.setTheme(theme);
      await focusApproveByKeyboard(session);
      // The window and the theme changed under a reader at the bottom: the waiting card is still there.
      await session.screenshot(`command-waits-${size}-${theme}`, { rules: { atBottom: true } });
      const contrast = (await frame.evaluate(METER_CONTRAST)) as number;
      assert.ok(contrast >= 3, `the context meter is visible in ${theme}: its edge at ${contrast.toFixed(2)}:1`);
    }

    // Back to the laptop, dark: the run goes on by keys from the view; the edit waits in review.
    await session.setWindowSize(WINDOW_SIZES.laptop);
    await session.setTheme('dark');
    await (await view.testId(TestIds.input)).first().click();
    await page.keyboard.press('Alt+Shift+KeyY');
    await view.pendingCard(60_000, /Edit a file/);
    await page.locator('.monaco-diff-editor').first().waitFor({ state: 'visible', timeout: 30_000 });
    await session.screenshot('diff-review-laptop-dark');
    await session.sidebarShot('readme-diff-review');
    await view.approve(/Edit a file/);
    await view.approve(/npm test/);
    await view.waitForText(say.done, 60_000);
    await waitFor('no badge once nothing waits', async () => (await keelBadge(session)) === '', { timeoutMs: 10_000 });

    // Apply on the 4-line subtotal() block: it replaces subtotal() alone, approved on its card.
    const before = session.file('src/price.js');
    const block = frame.locator('.code-block').filter({ hasText: 'Every line, in cents.' }).first();
    await block.scrollIntoViewIfNeeded();
    await block.locator(byTestId('apply-code')).click();
    await pickRow(session, 'src/price.js', 'price.js');
    const applyCard = await view.pendingCard(30_000, /Apply a code block/);
    await view.waitOnScreen(applyCard);
    assert.match(await applyCard.innerText(), /Replace lines 6–8 of src\/price\.js \(function subtotal\(lines\) \{\)/);
    await session.screenshot('apply-card-laptop-dark');
    await view.approve(/Apply a code block/);
    await waitFor('the block in place', async () => session.file('src/price.js').includes('// Every line, in cents.'), {
      timeoutMs: 30_000,
    });
    const after = session.file('src/price.js');
    assert.equal(after, before.replace(/function subtotal\(lines\) \{\n[\s\S]*?\n\}/, SUBTOTAL), 'only subtotal() changed');

    // A pasted 40-line trace: the composer grows to about ten lines, then scrolls; Send is ready.
    const composer = (await view.testId(TestIds.input)).first();
    const send = (await view.testId(TestIds.send)).first();
    assert.ok(Number(await send.evaluate((b) => getComputedStyle(b).opacity)) <= 0.5, 'Send looks disabled with nothing to send');
    await composer.fill(Array.from({ length: 40 }, (_, i) => `    at frame${i} (src/price.js:${i + 1}:3)`).join('\n'));
    const grown = await composer.evaluate((t) => ({
      lines: t.clientHeight / parseFloat(getComputedStyle(t).lineHeight),
      scrolls: t.scrollHeight > t.clientHeight,
    }));
    assert.ok(grown.lines >= 9 && grown.lines <= 11 && grown.scrolls, `about ten lines, then it scrolls: ${JSON.stringify(grown)}`);
    assert.equal(await send.evaluate((b) => b.classList.contains('ready')), true, 'Send is ready');
    // The user's own draft takes the room here, by choice: the conversation keeps half.
    await session.screenshot('composer-40-lines', { rules: { minTranscriptShare: 0.5, atBottom: true } });
    await composer.fill('');

    // After View: Reset View Locations the Chat view still has its container to itself.
    await session.setTheme('light');
    await workbench.runCommand('View: Reset View Locations');
    await view.open();
    await session.screenshot('after-reset-view-locations');

    // The keyboard lands in the composer after New Task and after Focus on Chat View (not in the
    // editor, not eleven Tabs away): the next words typed are the message.
    for (const command of ['Keel: New Task', 'Keel: Focus on Chat View']) {
      await page
        .locator('.part.editor')
        .first()
        .click({ position: { x: 300, y: 200 }, force: true });
      await workbench.runCommand(command);
      await waitFor(
        `the composer to have the keyboard after ${command}`,
        () => frame.evaluate(() => document.hasFocus() && document.activeElement?.getAttribute('data-testid') === 'input'),
        { timeoutMs: 10_000, intervalMs: 50 },
      );
      await page.keyboard.type('typed next');
      await waitFor(`the words in the composer after ${command}`, async () => (await composer.inputValue()) === 'typed next', {
        timeoutMs: 10_000,
      });
      await composer.fill('');
    }
    assert.equal(session.file('src/price.js'), after, 'nothing was typed into the file');
  });
});
