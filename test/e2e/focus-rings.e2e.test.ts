// Issue 34, problem 1: every control the keyboard can reach shows a focus ring, in the light,
// dark and high-contrast themes, also after a mouse click where the user then tabs (Chromium
// shows :focus-visible rings after a Tab whatever came before, but a ring can still be missing,
// melt into what is behind it, or be clipped by a box that hides overflow). Measured in Debian's
// Chromium on the built webview (media/dev-harness.html) with each theme's variables captured
// from VS Code (scripts/gallery/themes), as the gallery renders it.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { serveWebview } from '../../scripts/static-server.js';
import type { TranscriptItem } from '../../src/protocol/index.js';
import { launchChromium } from '../support/browser.js';
import { snapshot } from '../unit/webview/fixtures.js';

const ROOT = resolve(__dirname, '../..');
const THEMES = ['light', 'dark', 'highContrast'] as const;

const readTheme = (name: string) => JSON.parse(readFileSync(join(ROOT, 'scripts', 'gallery', 'themes', `${name}.json`), 'utf8'));

/** A view with most kinds of control: a link, a code block's buttons, a done card's result, a waiting card, a failure's Retry. */
function items(): TranscriptItem[] {
  return [
    { kind: 'user', id: 'u1', text: 'Fix the failing tests' },
    {
      kind: 'assistant',
      id: 'a1',
      done: true,
      text: 'See [the guide](https://example.com/guide) and `src/price.js:12`.\n\n```js\nconst x = 1;\n```\n',
    },
    {
      kind: 'intent',
      id: 'i1',
      tool: 'run_tests',
      summary: 'npm test',
      risk: 'execute',
      status: 'done',
      command: 'npm test',
      elapsedMs: 900,
      result: { ok: true, failing: true, summary: '3 passed, 1 failed', detail: 'discount: expected 500, got 499' },
    },
    {
      kind: 'intent',
      id: 'i2',
      tool: 'edit_file',
      summary: 'src/price.js',
      risk: 'write',
      status: 'awaiting_approval',
      paths: ['src/price.js'],
      approvalReason: 'Changes src/price.js.',
    },
    {
      kind: 'notice',
      id: 'n1',
      level: 'error',
      text: 'The model server failed.',
      retry: true,
      action: { label: 'Show Log', message: 'log/show' },
    },
  ];
}

/**
 * The focused element and its ring, in the page: a string, not a function (tsx would wrap named
 * inner functions in a helper the page does not have).
 */
const RING = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return undefined;
  const s = getComputedStyle(el);
  const rgba = (c) => { const n = (c.match(/[\\d.]+/g) || []).map(Number); return c.startsWith('color(') ? [n[0] * 255, n[1] * 255, n[2] * 255, n[3] ?? 1] : [n[0], n[1], n[2], n[3] ?? 1]; };
  const lum = (c) => { const [r, g, b] = c.slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  let back;
  for (let n = el.parentElement; n && !back; n = n.parentElement) { const c = rgba(getComputedStyle(n).backgroundColor); if (c[3] > 0.5) back = c; }
  back = back || rgba(getComputedStyle(document.body).backgroundColor);
  const ring = rgba(s.outlineColor);
  const seen = ring.slice(0, 3).map((v, i) => v * ring[3] + back[i] * (1 - ring[3]));
  const [hi, lo] = [lum(seen), lum(back)].sort((a, b) => b - a);
  const width = s.outlineStyle === 'none' ? 0 : parseFloat(s.outlineWidth);
  const offset = parseFloat(s.outlineOffset) || 0;
  const r = el.getBoundingClientRect();
  const out = width + offset;
  const box = { top: r.top - out, left: r.left - out, bottom: r.bottom + out, right: r.right + out };
  let clippedBy = '';
  for (let n = el.parentElement; n && n !== document.documentElement; n = n.parentElement) {
    const o = getComputedStyle(n);
    if (o.overflowX === 'visible' && o.overflowY === 'visible') continue;
    const c = n.getBoundingClientRect();
    // What of the ring's box lies outside this clipping box (scrolled content is brought into view first).
    const cut = Math.max(c.top - box.top, c.left - box.left, box.bottom - c.bottom, box.right - c.right);
    if (cut > Math.max(0.5, width - 0.5)) { clippedBy = n.className || n.tagName; break; }
  }
  const label = (el.getAttribute('aria-label') || el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
  return {
    what: el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ')[0] : '') + ' "' + label + '"',
    visible: el.matches(':focus-visible'),
    width,
    contrast: (hi + 0.05) / (lo + 0.05),
    clippedBy,
  };
})()`;

interface Ring {
  what: string;
  visible: boolean;
  width: number;
  contrast: number;
  clippedBy: string;
}

describe('webview in a real browser: a focus ring on every control, in every theme (issue 34)', function () {
  this.timeout(120_000);
  let browser: Browser;
  let served: { server: Server; base: string };

  before(async () => {
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'inherit' });
    served = await serveWebview(ROOT);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    served?.server.close();
  });

  async function open(theme: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 300, height: 900 } });
    await page.goto(`${served.base}/media/dev-harness.html`);
    await page.waitForFunction('window.__keelOutbox && window.__keelOutbox.length > 0');
    const t = readTheme(theme);
    await page.evaluate(
      `(() => { const t = ${JSON.stringify(t)}; for (const [k, v] of Object.entries(t.variables)) document.documentElement.style.setProperty(k, v); document.body.className = t.bodyClass; })()`,
    );
    const snap = snapshot(items(), { status: 'failed', taskId: 't1', pendingIntentIds: ['i2'] });
    await page.evaluate(`window.postMessage(${JSON.stringify(snap)}, '*')`);
    await page.locator('[data-testid="intent-card"][data-intent-id="i2"]').waitFor();
    return page;
  }

  for (const theme of THEMES) {
    it(`${theme}: after a mouse click, each Tab lands on a control with a visible, unclipped ring`, async () => {
      const page = await open(theme);
      // A mouse click first: Chromium shows no ring for what a click focuses, and the user then tabs.
      await page.locator('[data-testid="user-message"] .user-text').click();
      const seen: Ring[] = [];
      const problems: string[] = [];
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press('Tab');
        const ring = (await page.evaluate(RING)) as Ring | undefined;
        if (!ring) continue;
        if (seen.some((r) => r.what === ring.what)) break; // round the page once
        seen.push(ring);
        if (!ring.visible) problems.push(`${ring.what} is focused by Tab but shows no :focus-visible ring`);
        else if (ring.width < 1 || ring.contrast < 3)
          problems.push(`${ring.what}: a ${ring.width} px ring at ${ring.contrast.toFixed(2)}:1 (wanted ≥ 1 px, ≥ 3:1)`);
        if (ring.clippedBy) problems.push(`${ring.what}: its ring is cut off by .${ring.clippedBy}`);
      }
      await page.close();
      assert.ok(seen.length >= 15, `Tab reached ${seen.length} controls: ${seen.map((r) => r.what).join(', ')}`);
      assert.deepEqual(problems, [], `in ${theme}`);
    });
  }
});
