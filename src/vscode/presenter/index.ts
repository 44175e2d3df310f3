/**
 * Host-side presenter for the Keel webview. No `vscode` import: unit-testable in plain Node.
 *
 * Wiring (in the WebviewViewProvider):
 *
 *   const presenter = new Presenter({
 *     post: (msg) => void view.webview.postMessage(msg),  // HostMessage
 *     contextWindow: provider.capabilities.contextWindow,
 *   });
 *   runtime.subscribe((out) => presenter.handle(out));     // every RuntimeOutput, as it comes
 *   presenter.setHints({ noApiKey: !(await secrets.get(KEY)), restricted: !vscode.workspace.isTrusted });
 *   presenter.setTasks({ tasks, currentTaskId });           // history changed → tasks/list
 *
 *   view.webview.html = renderWebviewHtml({
 *     cspSource: view.webview.cspSource, nonce: makeNonce(),
 *     scriptUri: asUri('dist/webview.js'),
 *     styleUris: [asUri('node_modules/@vscode/codicons/dist/codicon.css'), asUri('dist/webview.css')],
 *   });
 *   view.webview.onDidReceiveMessage((raw) => dispatchWebviewMessage(raw, {
 *     'webview/ready': () => presenter.postSnapshot(),      // on load, and after a seq gap
 *     'task/send': (m) => run(runtime.send(m.text)),
 *     'task/stop': () => runtime.cancel(),
 *     'task/new': () => { presenter.reset(newId); presenter.postSnapshot(); },
 *     'task/open': (m) => { presenter.load(loadLog(m.id).events, m.id); presenter.postSnapshot(); },
 *     'task/resume': () => run(runtime.resume()),
 *     'intent/approve': (m) => runtime.approve(m.intentId, m.scope),
 *     'intent/reject': (m) => runtime.reject(m.intentId, m.reason),
 *     'intent/focus': (m) => focusDiff(m.intentId),
 *     'apiKey/set': …, 'log/show': …, 'task/delete': …,
 *     'link/open': (m) => openExternalIfHttp(m.href),       // validate the scheme yourself
 *     'clipboard/copy': (m) => vscode.env.clipboard.writeText(m.text),
 *   }));
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
