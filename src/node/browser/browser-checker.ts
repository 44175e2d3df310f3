// The browser port on Node: playwright-core driving a Chromium the machine already has
// (find-chromium.ts), one fresh headless browser per check, closed when the check ends however
// it ends. Its requests are routed: loopback and the hosts the user allowed go through, every
// other one is blocked and listed, so a page under test cannot reach the network. A keeper
// (process-keeper.ts) sweeps every browser process by its marker variable if Keel is killed.
import type { Browser, Page } from 'playwright-core';
import {
  BrowserError,
  type BrowserCheckReport,
  type BrowserCheckRequest,
  type BrowserChecker,
  type BrowserStep,
} from '../../kernel/index.js';
import { withoutCredentials } from '../environment-block.js';
import { startKeeper } from '../process-keeper.js';
import { CHROMIUM_MISSING, findChromium } from './find-chromium.js';

export interface BrowserCheckerOptions {
  /** Hosts the user allowed beside loopback (`host` or `host:port`), read at each check. */
  allowHosts: () => readonly string[];
  /** Chromium's path; absent: looked for (find-chromium.ts). A path that does not exist: no browser. */
  chromiumPath?: string;
}

const VIEWPORT = { width: 1280, height: 800 };

/** A page's view of a request's host: loopback by spelling, or allowed by the user. */
function reachable(rawUrl: string, allowed: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return false;
  }
  // data:, blob: and about: never leave the browser.
  if (url.protocol === 'data:' || url.protocol === 'blob:' || url.protocol === 'about:') return true;
  const host = url.hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host)) return true;
  return allowed.includes(url.host) || allowed.includes(url.hostname);
}

export function createBrowserChecker(options: BrowserCheckerOptions): BrowserChecker {
  return {
    allowsHost: (host) => reachable(`http://${host}/`, options.allowHosts()),
    async check(request, signal) {
      const executable = options.chromiumPath ? await findChromium([options.chromiumPath]) : await findChromium();
      if (!executable) throw new BrowserError('unavailable', CHROMIUM_MISSING);
      const playwright = await import('playwright-core').catch(() => undefined);
      if (!playwright) throw new BrowserError('unavailable', 'The browser driver (playwright-core) is not installed with Keel here.');
      const keeper = startKeeper();
      const started = Date.now();
      let browser: Browser | undefined;
      const closing = () => void browser?.close().catch(() => undefined);
      signal.addEventListener('abort', closing, { once: true });
      try {
        if (signal.aborted) throw new BrowserError('cancelled', 'The check was cancelled.');
        browser = await playwright.chromium.launch({
          executablePath: executable,
          headless: true,
          timeout: request.timeoutMs,
          env: { ...stringEnv(withoutCredentials()), [keeper.marker.name]: keeper.marker.value },
        });
        return await onPage(browser, request, options.allowHosts(), started);
      } catch (err) {
        throw asBrowserError(err, signal, request);
      } finally {
        signal.removeEventListener('abort', closing);
        await browser?.close().catch(() => undefined);
        keeper.release();
      }
    },
  };
}

async function onPage(
  browser: Browser,
  request: BrowserCheckRequest,
  allowed: readonly string[],
  started: number,
): Promise<BrowserCheckReport> {
  const context = await browser.newContext({ viewport: VIEWPORT, serviceWorkers: 'block' });
  const seen = { consoleErrors: [] as string[], failedRequests: [] as string[], blockedRequests: [] as string[] };
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (reachable(url, allowed)) return route.continue();
    seen.blockedRequests.push(url);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  watchPage(page, seen);
  const response = await page.goto(request.url, { waitUntil: 'load', timeout: request.timeoutMs });
  const stepError = await runSteps(page, request.steps, request.timeoutMs);
  const { text, cut } = await pageText(page, request);
  const screenshot = await page.screenshot({ type: 'png', timeout: request.timeoutMs }).catch(() => undefined);
  return {
    url: page.url(),
    ...(response ? { status: response.status() } : {}),
    title: await page.title(),
    text,
    textCut: cut,
    ...seen,
    ...(stepError ? { stepError } : {}),
    ...(screenshot ? { screenshot: screenshot.toString('base64') } : {}),
    durationMs: Date.now() - started,
  };
}

function watchPage(page: Page, seen: { consoleErrors: string[]; failedRequests: string[]; blockedRequests: string[] }): void {
  page.on('console', (m) => {
    if (m.type() === 'error') seen.consoleErrors.push(m.text().slice(0, 500));
  });
  page.on('pageerror', (e) => seen.consoleErrors.push(`Uncaught ${e.message}`.slice(0, 500)));
  page.on('requestfailed', (r) => {
    if (!seen.blockedRequests.includes(r.url()))
      seen.failedRequests.push(`${r.method()} ${r.url()} — ${r.failure()?.errorText ?? 'failed'}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) seen.failedRequests.push(`${r.request().method()} ${r.url()} — HTTP ${r.status()}`);
  });
}

/** Runs the steps in order; the first that fails is reported and ends the steps. */
async function runSteps(page: Page, steps: readonly BrowserStep[], timeout: number): Promise<BrowserCheckReport['stepError']> {
  for (const [i, step] of steps.entries()) {
    try {
      if (step.type === 'click') await page.click(step.selector, { timeout });
      else if (step.type === 'fill') await page.fill(step.selector, step.value, { timeout });
      else await page.getByText(step.text).first().waitFor({ state: 'visible', timeout });
    } catch (err) {
      return { step: i, message: firstLine(err) };
    }
  }
  return undefined;
}

async function pageText(page: Page, request: BrowserCheckRequest): Promise<{ text: string; cut: boolean }> {
  const body = page.locator('body');
  const whole =
    request.view === 'text'
      ? await body.innerText({ timeout: request.timeoutMs }).catch(() => '')
      : await body.ariaSnapshot({ timeout: request.timeoutMs }).catch(() => '');
  const text = whole.replace(/\n{3,}/g, '\n\n').trim();
  return text.length > request.maxTextChars ? { text: text.slice(0, request.maxTextChars), cut: true } : { text, cut: false };
}

function asBrowserError(err: unknown, signal: AbortSignal, request: BrowserCheckRequest): BrowserError {
  if (err instanceof BrowserError) return err;
  if (signal.aborted) return new BrowserError('cancelled', 'The check was cancelled; the browser was closed.');
  if ((err as Error)?.name === 'TimeoutError')
    return new BrowserError(
      'timeout',
      `${request.url} did not finish loading within ${Math.round(request.timeoutMs / 1000)}s; the browser was closed.`,
    );
  return new BrowserError('failed', `The page could not be checked: ${firstLine(err)}`);
}

function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0]?.trim().slice(0, 300) ?? 'failed';
}

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
