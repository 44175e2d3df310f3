// The narrow panel (issue 34 #14) measured in Debian's Chromium with real layout, in a 300 px
// side bar 768 px high: the webview built from this source (`node esbuild.mjs`) in
// media/dev-harness.html, as transcript-scroll.e2e.test.ts does. A table's last column is read
// without scrolling, the header stays on one row with a custom agent picked, and the collapsed
// to-do pin gives the transcript its room.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import type { Server } from 'node:http';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { serveWebview } from '../../scripts/static-server.js';
import type { Hints, TranscriptItem } from '../../src/protocol/index.js';
import { launchChromium } from '../support/browser.js';
import { snapshot } from '../unit/webview/fixtures.js';

const ROOT = resolve(__dirname, '../..');
const SETTLE = 'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50))))';

const TABLE =
  '| File | Change | Why |\n| --- | --- | --- |\n' +
  '| `src/price.js` | rounds `discount()` to the cent | the test expects 9.99, not 9.98 |\n' +
  '| `test/price.test.js` | no change | it was right |\n';

const HINTS: Hints = {
  noApiKey: false,
  restricted: false,
  canResume: false,
  model: { provider: 'anthropic', model: 'claude-sonnet-5-5', vision: true },
  agents: [{ name: 'security-reviewer', description: 'Reviews a change for security problems' }],
  agent: 'security-reviewer',
  todos: Array.from({ length: 8 }, (_, i) => ({
    id: String(i),
    text: `Step ${i + 1} of the plan, in a few words`,
    status: i < 2 ? ('done' as const) : i === 2 ? ('in_progress' as const) : ('pending' as const),
  })),
};

const items: TranscriptItem[] = [
  { kind: 'user', id: 'u1', text: 'Which files did you change, and why?' },
  { kind: 'assistant', id: 'a1', text: TABLE, done: true },
];

describe('webview in a real browser: a 300 px side bar, 768 px high', function () {
  this.timeout(60_000);
  let browser: Browser;
  let served: { server: Server; base: string };
  let page: Page;

  before(async () => {
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'inherit' });
    served = await serveWebview(ROOT);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 300, height: 768 } });
    await page.goto(`${served.base}/media/dev-harness.html`);
    await page.waitForFunction('window.__keelOutbox && window.__keelOutbox.length > 0');
    await page.evaluate(`window.postMessage(${JSON.stringify(snapshot(items, { taskId: 't1', status: 'running', hints: HINTS }))}, '*')`);
    await page.evaluate(SETTLE);
  });
  after(async () => {
    await browser?.close();
    served?.server.close();
  });

  it('shows a table’s last column whole, without scrolling sideways', async () => {
    const m = (await page.evaluate(`(() => {
      const box = document.querySelector('.table-scroll');
      const last = [...document.querySelectorAll('table tr:first-child th')].at(-1).getBoundingClientRect();
      return { overflow: box.scrollWidth - box.clientWidth, lastWidth: last.width, lastRight: last.right, boxRight: box.getBoundingClientRect().right };
    })()`)) as { overflow: number; lastWidth: number; lastRight: number; boxRight: number };
    assert.ok(m.overflow <= 1, `the table fits its box (${m.overflow} px over)`);
    assert.ok(m.lastWidth >= 64, `the last column is a column, not a sliver: ${m.lastWidth} px`);
    assert.ok(m.lastRight <= m.boxRight + 1, 'and ends inside the panel');
  });

  it('keeps the header on one row with a custom agent picked', async () => {
    const tops = (await page.evaluate(
      `[...document.querySelectorAll('.header-controls > *')].filter((e) => e.offsetParent).map((e) => Math.round(e.getBoundingClientRect().top))`,
    )) as number[];
    assert.ok(tops.length >= 3, 'mode, model and auto-approve pickers');
    assert.equal(new Set(tops).size, 1, `one row: tops ${tops}`);
    const agent = await page.locator('[data-testid="mode-picker"]').inputValue();
    assert.match(agent, /security-reviewer/);
  });

  it('collapses the to-do pin, and the transcript gets the room', async () => {
    const heights = `(() => ({
      log: document.querySelector('[data-testid="transcript"]').getBoundingClientRect().height,
      pin: document.querySelector('[data-testid="todo-pin"]').getBoundingClientRect().height,
    }))()`;
    const open = (await page.evaluate(heights)) as { log: number; pin: number };
    await page.locator('[data-testid="todo-pin-toggle"]').click();
    await page.evaluate(SETTLE);
    const shut = (await page.evaluate(heights)) as { log: number; pin: number };
    assert.ok(shut.pin <= 30, `one line: ${shut.pin} px (was ${open.pin})`);
    assert.ok(shut.log >= open.log + open.pin - shut.pin - 2, `the transcript grew from ${open.log} to ${shut.log} px`);
  });
});
