// browser_check: looks at a page of a server running on this machine (one start_process
// started, typically) the way a person checking it would: load it, click, type, wait for a text,
// then report its title, its visible text or accessibility tree, its console errors, its failed
// requests and a screenshot (sent as an image to models that read images; others get the text).
// Only loopback pages, or hosts the user allowed; a page of a process running in the sandbox is
// refused with why, since the sandbox's private network is out of the browser's reach.
import { z } from 'zod';
import type {
  BackgroundProcesses,
  BrowserCheckReport,
  BrowserChecker,
  BrowserStep,
  ToolDefinition,
  ToolResult,
} from '../../kernel/index.js';
import { failure } from '../tool-result.js';
import { pageAddress } from './page-address.js';

const BUDGET_TOKENS = 4000;
const TEXT_CHARS = 6000;
const DEFAULT_TIMEOUT_MS = 15_000;
const LIST_MAX = 20;

const StepSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('click'), selector: z.string().min(1).max(500) }),
  z.object({ type: z.literal('fill'), selector: z.string().min(1).max(500), value: z.string().max(10_000) }),
  z.object({ type: z.literal('wait_for_text'), text: z.string().min(1).max(500) }),
]);

const BrowserCheckInputSchema = z.object({
  url: z.string().min(1).max(2048).describe('A page on this machine, e.g. http://localhost:5173/.'),
  actions: z
    .array(StepSchema)
    .max(20)
    .optional()
    .describe('Steps after the page loads, in order: click a CSS selector, fill a field, wait for a text.'),
  view: z.enum(['text', 'accessibility']).default('text').describe('Report the visible text (default) or the accessibility tree.'),
  timeoutMs: z.number().int().min(1000).max(60_000).optional().describe('For the load and each step; default 15000.'),
});
type BrowserCheckInput = z.infer<typeof BrowserCheckInputSchema>;

/** A list for the model, cut at LIST_MAX with the count of the rest. */
function listed(title: string, items: readonly string[]): string {
  if (items.length === 0) return `${title}: none`;
  const shown = items.slice(0, LIST_MAX).map((i) => `- ${i}`);
  const more = items.length > LIST_MAX ? [`- … ${items.length - LIST_MAX} more`] : [];
  return [`${title} (${items.length}):`, ...shown, ...more].join('\n');
}

function renderReport(r: BrowserCheckReport, view: BrowserCheckInput['view']): string {
  const step = r.stepError ? `\n[Step ${r.stepError.step + 1} failed: ${r.stepError.message}]` : '';
  return [
    `${r.url} — ${r.status === undefined ? 'no answer' : `HTTP ${r.status}`}, ${(r.durationMs / 1000).toFixed(1)}s${step}`,
    `Title: ${r.title || '(none)'}`,
    listed('Console errors', r.consoleErrors),
    listed('Failed requests', r.failedRequests),
    ...(r.blockedRequests.length ? [listed('Blocked (not loopback, not allowed)', r.blockedRequests)] : []),
    `${view === 'text' ? 'Visible text' : 'Accessibility tree'}:\n${r.text || '(empty)'}${r.textCut ? '\n[… cut]' : ''}`,
  ].join('\n');
}

/** Why a loopback port is out of the browser's reach: a process of this task listening on it inside the sandbox. */
function sandboxedListener(processes: BackgroundProcesses | undefined, url: URL): string | undefined {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const owner = processes?.list().find((p) => p.state === 'running' && p.sandbox !== 'none' && p.ports.includes(port));
  if (!owner) return undefined;
  return (
    `Port ${port} is ${owner.name}'s, which runs in the sandbox: its network is a private loopback the browser cannot reach. ` +
    'Start it again outside the sandbox (the user approves it) to check its pages.'
  );
}

async function check(browser: BrowserChecker, input: BrowserCheckInput, url: URL, signal: AbortSignal): Promise<ToolResult> {
  const steps: BrowserStep[] = input.actions ?? [];
  try {
    const report = await browser.check(
      { url: url.href, steps, timeoutMs: input.timeoutMs ?? DEFAULT_TIMEOUT_MS, view: input.view, maxTextChars: TEXT_CHARS },
      signal,
    );
    const data = {
      url: report.url,
      status: report.status,
      title: report.title,
      consoleErrors: report.consoleErrors.length,
      failedRequests: report.failedRequests.length,
    };
    const images = report.screenshot ? [{ mediaType: 'image/png' as const, data: report.screenshot }] : undefined;
    const summary = `${report.title || url.host}: ${report.consoleErrors.length} console error(s), ${report.failedRequests.length} failed request(s)`;
    return {
      ok: report.stepError === undefined,
      content: renderReport(report, input.view),
      summary,
      data,
      ...(images ? { images } : {}),
      ...(report.stepError ? { code: 'execution_failed' as const, retryable: true } : {}),
    };
  } catch (err) {
    const code = (err as { code?: string }).code;
    const message = err instanceof Error ? err.message : String(err);
    if (code === 'timeout') return failure('timeout', message);
    if (code === 'cancelled') return failure('cancelled', message, { retryable: false });
    if (code === 'unavailable') return failure('execution_failed', message, { retryable: false });
    return failure('execution_failed', message);
  }
}

/** browser_check, knowing this task's background processes (to name one the browser cannot reach). */
export function createBrowserCheckTool(processes?: BackgroundProcesses): ToolDefinition<BrowserCheckInput> {
  return {
    name: 'browser_check',
    kind: 'read',
    description:
      'Open a page of a server running on this machine (localhost) in a headless browser, optionally click, fill and wait for text, ' +
      'and get its title, visible text or accessibility tree, console errors, failed requests and a screenshot.',
    input: BrowserCheckInputSchema,
    // It opens only loopback pages (or hosts the user allowed), and changes no file.
    risk: 'read',
    readOnly: true,
    concurrencySafe: false,
    outputBudgetTokens: BUDGET_TOKENS,
    isVisible: (c) => c.hasBrowser === true,
    summarize: (i) => (i.actions?.length ? `${i.url} (${i.actions.length} step(s))` : i.url),
    paths: () => [],
    async execute(input, ctx) {
      const browser = ctx.workspace.browser;
      if (!browser) return failure('execution_failed', 'This host has no browser to check pages with.', { retryable: false });
      const address = pageAddress(input.url, (host) => browser.allowsHost(host));
      if (!address.ok) return failure('permission_denied', address.reason);
      const unreachable = sandboxedListener(processes, address.url);
      if (unreachable) return failure('permission_denied', unreachable);
      return check(browser, input, address.url, ctx.signal);
    },
  };
}
