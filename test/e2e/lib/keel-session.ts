// One end-to-end scenario's world: the model stand-in, a fresh copy of examples/failing-tests,
// code-server with Keel installed and pointed at the stand-in, and Chromium on the workbench.
// close() ends all of it (process groups), whatever state the scenario left it in.
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { openWorkbench, type Workbench } from '../../support/browser.js';
import { copyWorkspace, packageVsix, repoRoot, startCodeServer, type CodeServer } from '../../support/code-server.js';
import { startModelServer, type ModelServer, type Responder } from '../../support/model-server.js';
import { waitFor } from '../../support/processes.js';
import { KeelView } from './keel-view.js';
import { describeLook, lookAtPanel, type LookRules, panelProblems } from './panel-look.js';

export type Provider = 'anthropic' | 'openai';

/** The colour themes the panel is checked in: VS Code's defaults and its high-contrast theme. */
export const THEMES = { light: 'Light 2026', dark: 'Dark 2026', highContrast: 'Default High Contrast' } as const;
export type ThemeName = keyof typeof THEMES;
/** The themes' names in the theme picker. */
const THEME_LABELS: Record<ThemeName, string> = { light: 'Light 2026', dark: 'Dark 2026', highContrast: 'Dark High Contrast' };

/** Window sizes people have: a full-HD monitor and a common laptop. */
export const WINDOW_SIZES = { fullHd: { width: 1920, height: 1080 }, laptop: { width: 1366, height: 768 } } as const;

export interface SessionOptions {
  name: string; // artifacts go to test/e2e/artifacts/<name>/
  provider?: Provider;
  model: Responder;
  settings?: Record<string, unknown>;
  /** Writes files into the workspace copy before VS Code opens it (e.g. a .vscode/mcp.json). */
  prepare?: (folder: string) => void;
  /** The browser window (default: the laptop size). */
  viewport?: { width: number; height: number };
  /** The colour theme (default: light). */
  theme?: ThemeName;
  /** What every screenshot checks of the panel as shown (see panel-look.ts). */
  look?: LookRules;
}

const artifactsRoot = join(repoRoot, 'test', 'e2e', 'artifacts');

export class KeelSession {
  private readonly startedAt = Date.now();

  private constructor(
    readonly artifactsDir: string,
    readonly model: ModelServer,
    readonly server: CodeServer,
    readonly workbench: Workbench,
    readonly view: KeelView,
    readonly folder: string,
    readonly providerLabel: string,
    private readonly lookRules: LookRules = {},
  ) {}

  static async start(options: SessionOptions): Promise<KeelSession> {
    const provider = options.provider ?? 'anthropic';
    const vsix = await packageVsix();
    const model = await startModelServer(options.model);
    let server: CodeServer | undefined;
    try {
      const folder = copyWorkspace('examples/failing-tests');
      options.prepare?.(folder);
      server = await startCodeServer({
        folder,
        extensions: [vsix],
        settings: {
          'keel.provider': provider,
          'keel.model': provider === 'openai' ? 'gpt-4o' : 'claude-sonnet-5-5',
          'keel.baseUrl': provider === 'openai' ? model.openaiBaseURL : model.anthropicBaseURL,
          'workbench.colorTheme': THEMES[options.theme ?? 'light'],
          ...options.settings,
        },
        // The stand-in takes any key; a key in the environment keeps the "set your key" prompt away.
        env: { ANTHROPIC_API_KEY: 'sk-ant-e2e-stand-in', OPENAI_API_KEY: 'sk-e2e-stand-in' },
      });
      const artifactsDir = join(artifactsRoot, options.name);
      rmSync(artifactsDir, { recursive: true, force: true }); // only this run's screenshots
      const workbench = await openWorkbench(server.url, { artifactsDir, viewport: options.viewport ?? WINDOW_SIZES.laptop });
      const label = provider === 'openai' ? 'OpenAI' : 'Anthropic';
      return new KeelSession(artifactsDir, model, server, workbench, new KeelView(workbench), folder, label, options.look);
    } catch (error) {
      await server?.stop();
      await model.close();
      throw error;
    }
  }

  file(relative: string): string {
    return readFileSync(join(this.folder, relative), 'utf8');
  }

  /**
   * Answers Keel's one-time question before it sends the API key to the stand-in (a host other
   * than the vendor's own API): checks that the modal names the stand-in's whole origin, clicks
   * Send Key (or Cancel), and returns when it clicked (ms since epoch).
   */
  async answerKeyQuestion(allow = true, timeoutMs = 60_000): Promise<number> {
    return this.answerModal('API key to', allow ? 'Send Key' : 'Cancel', {
      timeoutMs,
      screenshot: allow ? 'key-question' : 'key-question-declined',
      check: (text) => {
        if (!text.includes(`Send your ${this.providerLabel} API key to ${this.model.url}?`))
          throw new Error(`the key question should name the stand-in's origin ${this.model.url}: ${text}`);
      },
    });
  }

  /**
   * Answers a VS Code modal (in the workbench's DOM) whose text includes `hasText`: hands its
   * whole text (message and detail) to `check`, takes the screenshot, clicks `button` and waits
   * for the modal to close. Returns when it clicked (ms since epoch).
   */
  async answerModal(
    hasText: string,
    button: string,
    options: { timeoutMs?: number; screenshot?: string; check?: (text: string) => void } = {},
  ): Promise<number> {
    const dialog = this.workbench.page.locator('.monaco-dialog-box').filter({ hasText }).first();
    await dialog.waitFor({ state: 'visible', timeout: options.timeoutMs ?? 60_000 });
    options.check?.(await dialog.innerText());
    if (options.screenshot) await this.screenshot(options.screenshot);
    const at = Date.now();
    await dialog.getByRole('button', { name: button }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
    return at;
  }

  /** Merges `patch` into the user settings file; VS Code applies it as it would a user's edit. */
  setUserSettings(patch: Record<string, unknown>): void {
    const file = join(this.server.userDataDir, 'User', 'settings.json');
    const current = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...current, ...patch }, null, 2));
  }

  /**
   * Switches the colour theme as a person does (Preferences: Color Theme, which writes the user
   * setting) and waits until the workbench and Keel's view wear it.
   */
  async setTheme(theme: ThemeName): Promise<void> {
    const page = this.workbench.page;
    // F1 inside the webview may not reach the workbench: start from the middle of the editor
    // area (its corner is an open editor's breadcrumbs, which open a menu).
    const editor = page.locator('.part.editor').first();
    const box = await editor.boundingBox();
    if (box) await editor.click({ position: { x: box.width / 2, y: box.height / 2 }, force: true }).catch(() => undefined);
    // The palette turns into the theme picker in place (runCommand would wait for it to close).
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill('>Preferences: Color Theme');
    await page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'Preferences: Color Theme' }).first().click();
    await page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: THEME_LABELS[theme] }).first().waitFor();
    await input.fill(THEME_LABELS[theme]);
    const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', {
      has: page.locator('.label-name', { hasText: new RegExp(`^${THEME_LABELS[theme]}$`) }),
    });
    await row.first().click();
    await input.waitFor({ state: 'hidden', timeout: 10_000 });
    const kind = { light: 'vs', dark: 'vs-dark', highContrast: 'hc-black' }[theme];
    const workbench = page.locator('.monaco-workbench').first();
    await waitFor(`the ${theme} theme`, async () => ((await workbench.getAttribute('class')) ?? '').split(' ').includes(kind), {
      timeoutMs: 20_000,
    });
    const frame = await this.view.shown();
    const bodyKind = { light: 'vscode-light', dark: 'vscode-dark', highContrast: 'vscode-high-contrast' }[theme];
    if (frame)
      await waitFor(`the view in the ${theme} theme`, () => frame.evaluate((k) => document.body.classList.contains(k), bodyKind), {
        timeoutMs: 10_000,
      });
  }

  /** Drags the sash right of the side bar so the side bar is `width` px wide. */
  async setSideBarWidth(width: number): Promise<void> {
    const page = this.workbench.page;
    const bar = page.locator('.part.sidebar').first();
    const box = (await bar.boundingBox())!;
    // The sash straddles the side bar's right edge; just right of it is the sash, not the view's frame.
    const x0 = box.x + box.width + 1;
    await page.mouse.move(x0, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + width + 1, box.y + box.height / 2, { steps: 12 });
    await page.mouse.up();
    await waitFor(`a ${width} px side bar`, async () => Math.abs(((await bar.boundingBox())?.width ?? 0) - width) <= 4, {
      timeoutMs: 5000,
    });
  }

  /** Resizes the browser window's page (the workbench lays itself out again). */
  async setWindowSize(size: { width: number; height: number }): Promise<void> {
    await this.workbench.page.setViewportSize(size);
    await this.workbench.page.waitForTimeout(300);
  }

  /**
   * One click on the Chat view's title button shows Memory, Skills and MCP Servers (a panel
   * container of their own, so they never take the chat's height); returns the panel.
   */
  async openLibrary(): Promise<Locator> {
    const page = this.workbench.page;
    const button = page.locator('.part.sidebar .action-label[aria-label^="Show Memory, Skills and MCP Servers"]:visible').first();
    await button.waitFor({ state: 'visible', timeout: 30_000 });
    await button.click();
    const panel = page.locator('.part.panel').first();
    await panel.locator('.pane-header', { hasText: 'MCP Servers' }).first().waitFor({ state: 'visible', timeout: 15_000 });
    return panel;
  }

  /** A picture of the side bar alone (for the README), beside the numbered screenshots. */
  async sidebarShot(name: string): Promise<void> {
    mkdirSync(this.artifactsDir, { recursive: true });
    await this.workbench.page
      .locator('.part.sidebar')
      .first()
      .screenshot({ path: join(this.artifactsDir, `sidebar-${name}.png`) });
  }

  /** A picture of part of the window (for the README), beside the numbered screenshots. */
  async windowShot(name: string, clip: { x: number; y: number; width: number; height: number }): Promise<void> {
    mkdirSync(this.artifactsDir, { recursive: true });
    await this.workbench.page.screenshot({ path: join(this.artifactsDir, `window-${name}.png`), clip });
  }

  /** Model requests only (not e.g. a stray image fetch). */
  modelRequests() {
    return this.model.requests.filter((r) => r.api !== 'unknown');
  }

  /**
   * A numbered screenshot, and a line in steps.log saying when it was taken and what the panel
   * looked like; then the panel is checked as a person sees it (panel-look.ts), and a problem
   * fails the scenario with the screenshot already on disk. `look: false` only records.
   */
  async screenshot(name: string, options: { look?: boolean; rules?: LookRules } = {}): Promise<void> {
    mkdirSync(this.artifactsDir, { recursive: true });
    await this.workbench.screenshot(name);
    const look = await lookAtPanel(this.workbench.page, await this.view.shown()).catch(() => undefined);
    const seen = look ? ` — ${describeLook(look)}` : '';
    appendFileSync(join(this.artifactsDir, 'steps.log'), `+${((Date.now() - this.startedAt) / 1000).toFixed(1)}s ${name}${seen}\n`);
    if (!look || options.look === false) return;
    const problems = panelProblems(look, { ...this.lookRules, ...options.rules });
    if (problems.length) throw new Error(`screenshot ${name}: ${problems.join('; ')}`);
  }

  async close(): Promise<void> {
    await this.workbench.close();
    await this.server.stop();
    await this.model.close();
  }
}
