// A real browser on the real workbench: Debian's Chromium driven by playwright-core.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Frame, type Locator, type Page } from 'playwright-core';
import { waitFor } from './processes.js';

const chromiumPath = process.env.KEEL_CHROMIUM ?? '/usr/bin/chromium';
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface WorkbenchOptions {
  artifactsDir?: string; // screenshots go here
  viewport?: { width: number; height: number };
}

export class Workbench {
  readonly readyMs: number;
  readonly consoleErrors: string[] = [];
  private shots = 0;

  constructor(
    readonly browser: Browser,
    readonly page: Page,
    readyMs: number,
    private readonly artifactsDir: string | undefined,
  ) {
    this.readyMs = readyMs;
    page.on('console', (msg) => {
      if (msg.type() === 'error') this.consoleErrors.push(msg.text());
    });
  }

  /** Saves a numbered PNG of the whole window; returns its path. */
  async screenshot(name: string): Promise<string | undefined> {
    if (!this.artifactsDir) return undefined;
    mkdirSync(this.artifactsDir, { recursive: true });
    const file = join(this.artifactsDir, `${String(++this.shots).padStart(2, '0')}-${name}.png`);
    await this.page.screenshot({ path: file }).catch(() => undefined);
    return file;
  }

  /**
   * Runs a command by its palette label, e.g. "Keel: Fix the Failing Tests"; returns the time
   * (ms since epoch) the command was picked.
   */
  async runCommand(label: string): Promise<number> {
    const { page } = this;
    const input = page.locator('.quick-input-widget .quick-input-box input');
    for (let attempt = 0; ; attempt++) {
      // F1 may be swallowed where focus sits (e.g. inside a webview); retry from the editor area.
      if (attempt > 0)
        await page
          .locator('.part.editor')
          .click({ position: { x: 40, y: 40 }, force: true })
          .catch(() => undefined);
      await page.keyboard.press('F1');
      try {
        await input.waitFor({ state: 'visible', timeout: 5000 });
        break;
      } catch (error) {
        if (attempt >= 2) throw error;
        await page.keyboard.press('Escape');
      }
    }
    await input.fill(`>${label}`);
    const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: label }).first();
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    // The list filters as it is typed; pick the row whose label matches exactly when there is one.
    const exact = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', {
      has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }),
    });
    const pick = (await exact.count()) > 0 ? exact.first() : row;
    const at = await clickedAt(page.mainFrame(), pick);
    await input.waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
    return at;
  }

  /**
   * Opens a workspace file through Quick Open (F1, then the path without `>`) and waits for its
   * tab. Under load the file search behind Quick Open can answer late, after the row wait: the
   * row is awaited for 30 s and, if it never shows, Quick Open is closed and tried once more
   * (a fresh query starts a fresh search).
   */
  async openFile(path: string): Promise<void> {
    const { page } = this;
    const base = path.split('/').at(-1)!;
    const input = page.locator('.quick-input-widget .quick-input-box input');
    // A row shows the base name, its folder apart.
    const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: base }).first();
    for (let attempt = 0; ; attempt++) {
      // F1 may be swallowed where focus sits (a webview): start from the editor area.
      await page
        .locator('.part.editor')
        .click({ position: { x: 40, y: 40 }, force: true })
        .catch(() => undefined);
      await page.keyboard.press('F1');
      try {
        await input.waitFor({ state: 'visible', timeout: 10_000 });
        await input.fill(path);
        await row.waitFor({ state: 'visible', timeout: 30_000 });
        await row.click();
        break;
      } catch (error) {
        if (attempt >= 1) throw error;
        await page.keyboard.press('Escape');
        await input.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
      }
    }
    await input.waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
    await page.locator('.tabs-container .tab.active', { hasText: base }).first().waitFor({ state: 'visible', timeout: 30_000 });
  }

  /** The frame whose document holds `selector` (webview DOM lives in nested iframes). */
  async frameWith(selector: string, timeoutMs = 30_000): Promise<Frame> {
    return waitFor(`a frame holding ${selector}`, () => this.findFrame(selector), { timeoutMs, intervalMs: 200 });
  }

  /** Shows the Keel sidebar view and returns the frame of its webview. */
  async openKeelView(timeoutMs = 30_000): Promise<Frame> {
    const selector = '[data-testid="input"]';
    const sidebar = this.page.locator('.part.sidebar');
    const icon = this.page
      .locator('.activitybar .action-item a[aria-label^="Keel"], .activitybar .action-label[aria-label^="Keel"]')
      .first();
    let lastClick = 0;
    return waitFor(
      'the Keel view',
      async () => {
        const frame = await this.findFrame(selector);
        if (frame) return frame;
        // After a reload the activity bar may restore Keel as "checked" with the sidebar
        // hidden, so look at what the sidebar shows rather than at the icon's state.
        const showsKeel =
          (await sidebar.isVisible()) &&
          /keel/i.test(
            (await sidebar
              .locator('.composite.title')
              .first()
              .innerText()
              .catch(() => '')) ?? '',
          );
        if (!showsKeel && Date.now() - lastClick > 3000) {
          lastClick = Date.now();
          if (await icon.isVisible()) await icon.click();
          else await this.runCommand('Keel: Focus on Chat View');
        }
        return undefined;
      },
      { timeoutMs, intervalMs: 250 },
    );
  }

  /** The frame holding `selector` now, if any; opens nothing. */
  async findFrame(selector: string): Promise<Frame | undefined> {
    for (const frame of this.page.frames()) {
      if (frame === this.page.mainFrame() || frame.isDetached()) continue;
      if (
        await frame
          .locator(selector)
          .count()
          .catch(() => 0)
      )
        return frame;
    }
    return undefined;
  }

  /** Developer: Reload Window, then waits for the new workbench (not the old page's DOM). */
  async reloadWindow(): Promise<void> {
    const navigated = this.page.waitForEvent('framenavigated', { predicate: (f) => f === this.page.mainFrame(), timeout: 60_000 });
    await this.runCommand('Developer: Reload Window');
    await navigated;
    await this.page.locator('.monaco-workbench').waitFor({ state: 'attached', timeout: 60_000 });
  }

  /** Texts of editor tabs, e.g. to see a diff editor open. */
  async editorTabs(): Promise<string[]> {
    return this.page.locator('.tabs-container .tab .label-name').allInnerTexts();
  }

  async close(): Promise<void> {
    await this.browser.close().catch(() => undefined);
  }
}

/** Debian's Chromium, headless, with the flags these machines need. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true });
}

export async function openWorkbench(url: string, options: WorkbenchOptions = {}): Promise<Workbench> {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: options.viewport ?? { width: 1400, height: 900 } });
    const page = await context.newPage();
    const started = Date.now();
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    await page.locator('.monaco-workbench').waitFor({ state: 'attached', timeout: 60_000 });
    const readyMs = Date.now() - started;
    return new Workbench(browser, page, readyMs, options.artifactsDir);
  } catch (error) {
    await browser.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Clicks `target` and returns when the click reached the page (ms since epoch, the browser's
 * clock, which is this machine's): playwright's own waiting before a click can take seconds on a
 * loaded machine and must not count in latency figures.
 */
export async function clickedAt(frame: Frame, target: Locator): Promise<number> {
  await frame.evaluate(() => {
    const w = window as unknown as { __keelClickAt?: number };
    w.__keelClickAt = undefined;
    document.addEventListener('mousedown', () => (w.__keelClickAt = Date.now()), { capture: true, once: true });
  });
  const before = Date.now();
  await target.click();
  const at = await frame.evaluate(() => (window as unknown as { __keelClickAt?: number }).__keelClickAt).catch(() => undefined);
  return at ?? before;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
