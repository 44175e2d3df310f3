// One end-to-end scenario's world: the model stand-in, a fresh copy of examples/failing-tests,
// code-server with Keel installed and pointed at the stand-in, and Chromium on the workbench.
// close() ends all of it (process groups), whatever state the scenario left it in.
import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openWorkbench, type Workbench } from '../../support/browser.js';
import { copyWorkspace, packageVsix, repoRoot, startCodeServer, type CodeServer } from '../../support/code-server.js';
import { startModelServer, type ModelServer, type Responder } from '../../support/model-server.js';
import { KeelView } from './keel-view.js';

export type Provider = 'anthropic' | 'openai';

export interface SessionOptions {
  name: string; // artifacts go to test/e2e/artifacts/<name>/
  provider?: Provider;
  model: Responder;
  settings?: Record<string, unknown>;
  /** Writes files into the workspace copy before VS Code opens it (e.g. a .vscode/mcp.json). */
  prepare?: (folder: string) => void;
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
          ...options.settings,
        },
        // The stand-in takes any key; a key in the environment keeps the "set your key" prompt away.
        env: { ANTHROPIC_API_KEY: 'sk-ant-e2e-stand-in', OPENAI_API_KEY: 'sk-e2e-stand-in' },
      });
      const artifactsDir = join(artifactsRoot, options.name);
      rmSync(artifactsDir, { recursive: true, force: true }); // only this run's screenshots
      const workbench = await openWorkbench(server.url, { artifactsDir });
      const label = provider === 'openai' ? 'OpenAI' : 'Anthropic';
      return new KeelSession(artifactsDir, model, server, workbench, new KeelView(workbench), folder, label);
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

  /** Model requests only (not e.g. a stray image fetch). */
  modelRequests() {
    return this.model.requests.filter((r) => r.api !== 'unknown');
  }

  /** A numbered screenshot, and a line in steps.log saying when it was taken. */
  async screenshot(name: string): Promise<void> {
    mkdirSync(this.artifactsDir, { recursive: true });
    appendFileSync(join(this.artifactsDir, 'steps.log'), `+${((Date.now() - this.startedAt) / 1000).toFixed(1)}s ${name}\n`);
    await this.workbench.screenshot(name);
  }

  async close(): Promise<void> {
    await this.workbench.close();
    await this.server.stop();
    await this.model.close();
  }
}
