// Where the transcript stands after the host sends the whole task again (a snapshot: the answer to
// a lost delta, or the task opened again), measured in Debian's Chromium with real layout: the
// webview built from this source (`npm run build`, as the webview bench does) in
// media/dev-harness.html. Items are laid out late (content-visibility), which is what a DOM
// without layout cannot show.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import type { Server } from 'node:http';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { serveWebview } from '../../scripts/static-server.js';
import type { SessionSnapshot, TranscriptItem } from '../../src/protocol/index.js';
import { launchChromium } from '../support/browser.js';
import { waitFor } from '../support/processes.js';
import { snapshot } from '../unit/webview/fixtures.js';

const ROOT = resolve(__dirname, '../..');

/** A finished run with a long answer, then an Apply card waiting at the end. */
function items(): TranscriptItem[] {
  const code = Array.from({ length: 60 }, (_, i) => `const value${i} = compute(${i}); // line ${i + 1}`).join('\n');
  const answer = `I will run the tests first.\n\n\`\`\`js src/long.js\n${code}\n\`\`\`\n\nAnd a tidier \`subtotal()\`:\n\n\`\`\`js\nfunction subtotal(lines) {\n  return 0;\n}\n\`\`\`\n`;
  const done = (id: string, summary: string): TranscriptItem => ({
    kind: 'intent',
    id,
    tool: 'run_tests',
    summary: 'npm test',
    risk: 'execute',
    status: 'done',
    elapsedMs: 400,
    result: { ok: true, summary },
  });
  return [
    { kind: 'user', id: 'u1', text: 'Fix the failing tests' },
    { kind: 'assistant', id: 'a1', done: true, text: answer },
    done('i1', '3 passed, 1 failed'),
    { kind: 'assistant', id: 'a2', done: true, text: 'discount() truncates; it should round to the nearest cent.' },
    done('i2', '4 passed, 0 failed'),
    { kind: 'assistant', id: 'a3', done: true, text: 'All tests pass now.' },
    {
      kind: 'intent',
      id: 'apply-1',
      tool: 'apply_code',
      summary: 'Replace lines 6–8 of src/price.js with the code block',
      risk: 'write',
      status: 'awaiting_approval',
      paths: ['src/price.js'],
    },
  ];
}

function taskAgain(seq: number): SessionSnapshot {
  return snapshot(items(), { seq, taskId: 'task-1', pendingIntentIds: ['apply-1'] });
}

/** The waiting card's box against the transcript's, and the text a person can read in it. */
const CARD_ON_SCREEN = `(() => {
  const log = document.querySelector('[data-testid="transcript"]').getBoundingClientRect();
  const el = document.querySelector('[data-testid="intent-card"][data-intent-id="apply-1"]');
  const card = el.getBoundingClientRect();
  return { inView: card.top >= log.top - 1 && card.bottom <= log.bottom + 1, card: [card.top, card.bottom], log: [log.top, log.bottom], text: el.innerText };
})()`;

type OnScreen = { inView: boolean; card: number[]; log: number[]; text: string };

/** How far the transcript's end is below its visible box (0: the bottom is in view). */
const BELOW_BOTTOM = `(() => {
  const log = document.querySelector('[data-testid="transcript"]');
  return Math.round(log.scrollHeight - log.scrollTop - log.clientHeight);
})()`;

/** Two frames and a moment: layout, ResizeObserver, paint. */
const SETTLE = 'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50))))';

/** A delta carrying `ops` after `seq`. */
const delta = (seq: number, ...ops: unknown[]) => ({ type: 'transcript/delta', seq, ops });

describe('webview in a real browser: the transcript after the task is sent again', function () {
  this.timeout(60_000);
  let browser: Browser;
  let served: { server: Server; base: string };
  let page: Page;

  before(async () => {
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'inherit' });
    served = await serveWebview(ROOT);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    served?.server.close();
  });
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 300, height: 600 } });
    await page.goto(`${served.base}/media/dev-harness.html`);
    await page.waitForFunction('window.__keelOutbox && window.__keelOutbox.length > 0');
  });

  it('stands at the bottom with the waiting card on screen, though the reader had scrolled up', async () => {
    await page.evaluate(`window.postMessage(${JSON.stringify(taskAgain(0))}, '*')`);
    await waitFor('the card on screen after the first view', async () => ((await page.evaluate(CARD_ON_SCREEN)) as OnScreen).inView, {
      timeoutMs: 10_000,
    });
    await page.locator('[data-testid="transcript"]').evaluate((log) => {
      log.scrollTop = 0;
    });
    await waitFor('the reader at the top', async () => !((await page.evaluate(CARD_ON_SCREEN)) as OnScreen).inView, { timeoutMs: 5_000 });

    // The same task again: every item is rebuilt, and the list ends as tall as it was.
    await page.evaluate(`window.postMessage(${JSON.stringify(taskAgain(7))}, '*')`);
    // Two frames: the rebuilt items take their real height in the first layout.
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50))))');
    const seen = (await page.evaluate(CARD_ON_SCREEN)) as OnScreen;
    assert.ok(seen.inView, `the waiting card is on screen: card ${seen.card} in the transcript ${seen.log}`);
    assert.match(seen.text, /Replace lines 6–8 of src\/price\.js/);
  });

  // Issue 34, problem 4: what shares the column with the transcript changes its box, not its
  // content; the reader at the bottom must stay there after each change.
  it('keeps the bottom in view as the composer grows, the details open, the pin appears and the window shrinks', async () => {
    await page.evaluate(`window.postMessage(${JSON.stringify(taskAgain(0))}, '*')`);
    await waitFor('the card on screen', async () => ((await page.evaluate(CARD_ON_SCREEN)) as OnScreen).inView, { timeoutMs: 10_000 });
    await page.evaluate(SETTLE);
    const changes: [string, () => Promise<unknown>][] = [
      [
        'the composer grows to four lines',
        async () => {
          await page.locator('[data-testid="input"]').click();
          await page.keyboard.type('one');
          for (const line of ['two', 'three', 'four']) {
            await page.keyboard.press('Shift+Enter');
            await page.keyboard.type(line);
          }
        },
      ],
      ['the context details open', () => page.locator('.meter-toggle').click()],
      [
        'the to-do pin appears',
        () =>
          page.evaluate(
            `window.postMessage(${JSON.stringify(
              delta(1, {
                type: 'hints/set',
                hints: {
                  noApiKey: false,
                  restricted: false,
                  canResume: false,
                  todos: [
                    { id: '1', text: 'Run the tests', status: 'done' },
                    { id: '2', text: 'Fix discount()', status: 'in_progress' },
                    { id: '3', text: 'Run the tests again', status: 'pending' },
                  ],
                },
              }),
            )}, '*')`,
          ),
      ],
      ['the window gets shorter', () => page.setViewportSize({ width: 300, height: 480 })],
      ['the window gets narrower and taller', () => page.setViewportSize({ width: 260, height: 640 })],
    ];
    const misses: string[] = [];
    for (const [what, change] of changes) {
      await change();
      await page.evaluate(SETTLE);
      const below = (await page.evaluate(BELOW_BOTTOM)) as number;
      if (below > 2) misses.push(`${what}: the end is ${below} px below the view`);
    }
    assert.deepEqual(misses, [], 'the bottom stays in view after every change');
  });
});
