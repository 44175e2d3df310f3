// A webview action that fails (a full disk under the task history, a settings file that cannot be
// written) tells the user in one line naming what failed — never a stack trace, never silence —
// besides the line Keel's log keeps.
import type { WebviewMessageHandlers } from '../presenter/index.js';

export function reportingFailures(handlers: WebviewMessageHandlers, report: (message: string) => void): WebviewMessageHandlers {
  const out: Record<string, unknown> = {};
  for (const [type, handler] of Object.entries(handlers) as [string, (m: unknown) => void | Promise<void>][]) {
    out[type] = async (m: unknown) => {
      try {
        await handler(m);
      } catch (err) {
        report((err as Error)?.message ?? String(err));
        throw err;
      }
    };
  }
  return out as WebviewMessageHandlers;
}
