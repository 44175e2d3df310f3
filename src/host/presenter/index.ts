/**
 * Host-side presenter for the Keel webview. No `vscode` import: unit-testable in plain Node.
 *
 * Wiring: src/host/session/session.ts owns the presenter (one per view): it feeds it the shown task's
 * RuntimeOutputs (`handle`), loads or resets it when another task is opened (`load`, `reset`),
 * and keeps the task list and hints current (`setTasks`, `setHints`); `post` goes to the view.
 * src/vscode/views/chat-view.ts renders the page with `renderWebviewHtml` (dist/webview.js, then
 * dist/codicons/codicon.css and dist/webview.css, the style sheet esbuild emits from
 * media/styles/*.css); src/vscode/extension.ts validates each page message with
 * `dispatchWebviewMessage` and hands it to src/vscode/views/webview-handlers.ts. On `webview/ready`
 * the session answers with `postSnapshot()`. For the context meter the session also tells it the
 * task's model (`setModel`: window and price) and the request as it would go now (`setRequest`,
 * from `runtime.preview()`); the page's Fold now (`context/fold`) goes to `runtime.fold()`.
 *
 * Guarantees: deltas carry seq = previous + 1 (a snapshot carries the last seq it folds in);
 * at most one ordinary delta per `frameMs` (16 ms); the first text of a turn, approval
 * requests, retries, errors and the end of a run are posted at once; appends to one item merge;
 * live tool output is bounded to the last `maxTailChars` (4 KB) per intent per delta. A delta's
 * size depends on what changed, never on the transcript's length.
 *
 * The webview posts `webview/ready` when it (re)loads (the view is not retained when hidden)
 * and again after a seq gap: answer with `postSnapshot()`. Snapshot items travel as one JSON
 * string (`itemsJson`: a 10,000-item task opens without a 10,000-object structured clone);
 * `snapshot()` also returns them decoded as `items` for host-side checks, and `items()` alone.
 * Links and copy buttons arrive as messages; the webview never navigates or touches the
 * clipboard itself. Errors reach the view as `notice` items (level error, optional action).
 *
 * Selectors for end-to-end tests: `TestIds` in src/protocol/test-ids.ts. Outside VS Code the
 * built webview runs in media/dev-harness.html (fake acquireVsCodeApi; ?demo shows samples).
 */
export { Presenter } from './presenter.js';
export { OpScheduler } from './op-scheduler.js';
export type { SchedulerClock } from './clock.js';
export { renderWebviewHtml, makeNonce } from './webview-html.js';
export { dispatchWebviewMessage, type WebviewMessageHandlers } from './dispatch.js';
