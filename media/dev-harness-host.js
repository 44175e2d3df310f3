// A fake VS Code host for media/dev-harness.html. Messages the webview posts are kept in
// window.__keelOutbox, passed to window.__keelOnPost if a test defined it, and forwarded to
// window.parent when the harness runs in a frame. Host → webview messages are plain
// window.postMessage(message, '*') calls on this page.
(() => {
  var state;
  window.__keelOutbox = [];
  window.acquireVsCodeApi = () => ({
    postMessage: (message) => {
      window.__keelOutbox.push(message);
      if (typeof window.__keelOnPost === 'function') window.__keelOnPost(message);
      if (window.parent !== window) window.parent.postMessage({ source: 'keel-webview', message: message }, '*');
      if (message && message.type === 'webview/ready' && location.search.indexOf('demo') !== -1) demo();
    },
    getState: () => state,
    setState: (next) => {
      state = next;
    },
  });

  function demo() {
    var md =
      '## Plan\n\nI will **fix the failing test** in `src/math.ts`:\n\n```ts\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n```\n\n![chart](https://example.com/chart.png)\n';
    window.postMessage(
      {
        type: 'session/snapshot',
        seq: 0,
        hostNow: Date.now(),
        taskId: 't1',
        itemsJson: JSON.stringify([
          { kind: 'user', id: 'u1', text: 'Fix the failing tests' },
          { kind: 'reasoning', id: 'r1', text: 'The add function subtracts.', done: true },
          { kind: 'assistant', id: 'a1', text: md, done: true },
          {
            kind: 'intent',
            id: 'i1',
            tool: 'edit_file',
            summary: 'src/math.ts',
            risk: 'write',
            status: 'awaiting_approval',
            approvalReason: 'Edits a file',
          },
          {
            kind: 'intent',
            id: 'i2',
            tool: 'run_tests',
            summary: 'npm test',
            risk: 'execute',
            status: 'running',
            startedAt: Date.now() - 4000,
            progressTail: 'PASS test/a.test.ts\nRUNS test/math.test.ts',
          },
          {
            kind: 'intent',
            id: 'i3',
            tool: 'read_file',
            summary: 'package.json',
            risk: 'read',
            status: 'done',
            elapsedMs: 12,
            result: { ok: true, summary: '42 lines', detail: '{ "name": "demo" }' },
          },
          {
            kind: 'notice',
            id: 'n1',
            level: 'error',
            text: 'The model rejected the API key.',
            action: { label: 'Set API Key', message: 'apiKey/set' },
          },
        ]),
        status: 'waiting_for_approval',
        retry: { attempt: 1, delayMs: 8000, message: 'Overloaded' },
        pendingIntentIds: ['i1'],
        meter: {
          usedTokens: 48200,
          windowTokens: 200000,
          costUsd: 0.0421,
          split: { system: 3000, tools: 4200, conversation: 21000, toolResults: 20000 },
        },
        hints: { noApiKey: true, restricted: true, canResume: false },
        tasks: {
          tasks: [{ id: 't1', title: 'Fix the failing tests', updatedAt: Date.now(), status: 'waiting_for_approval' }],
          currentTaskId: 't1',
        },
      },
      '*',
    );
  }
})();
