// Issue 21: the panel as a person sees it, in one code-server session that changes the window
// size (1366×768 and 1920×1080) and the colour theme (light, dark, high contrast) through the
// settings, and looks at the key states in each: the conversation's share of the side bar, a
// waiting card's whole command and buttons, nothing scrolling sideways, and a visible focus
// ring. Every screenshot runs those checks (panel-look.ts). Screenshots: artifacts/21-panel-matrix/.
import * as assert from 'node:assert/strict';
import { TestIds } from '../../src/protocol/test-ids.js';
import { fixerModel, streamed } from './lib/fixer-model.js';
import { byTestId } from './lib/keel-view.js';
import { type KeelSession, THEMES, type ThemeName, WINDOW_SIZES } from './lib/keel-session.js';
import { keelSessions } from './lib/session-hooks.js';
import { chunkText } from '../support/model-turn.js';

/** An answer a narrow side bar struggles with: a wide table and a 60-line code block. */
const LONG_ANSWER = [
  'I will run the tests first. Here is what I know so far:',
  '',
  '| file | what it does | lines | status | owner |',
  '| --- | --- | --- | --- | --- |',
  '| src/price.js | computes prices and discounts for the checkout | 42 | failing | billing-team |',
  '| test/price.test.js | the discount and total tests | 30 | runs | billing-team |',
  '',
  '```js src/long.js',
  ...Array.from({ length: 60 }, (_, i) => `const value${i} = compute(${i}); // line ${i + 1} of a long block`),
  '```',
  '',
  '- [x] read the project',
  '- [ ] run the tests',
].join('\n');

/** Tabs from the composer back to the waiting card's Approve, so it holds a keyboard focus ring. */
async function focusApproveByKeyboard(session: KeelSession): Promise<void> {
  const card = await session.view.pendingCard(30_000);
  const approve = card.locator(byTestId(TestIds.approve)).first();
  await approve.focus();
  await session.workbench.page.keyboard.press('Shift+Tab');
  await session.workbench.page.keyboard.press('Tab');
}

describe('Keel panel in two window sizes and three themes (issue 21)', function () {
  this.timeout(300_000);
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
    await view.open();
    await session.screenshot('welcome-laptop-light');
    await workbench.runCommand('Keel: Fix the Failing Tests');
    await session.answerKeyQuestion();
    await view.pendingCard(60_000, /npm test|run_tests/);
    await session.screenshot('command-waits-laptop-light');

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
      await session.screenshot(`command-waits-${size}-${theme}`);
    }
    assert.ok(THEMES.light);
  });
});
