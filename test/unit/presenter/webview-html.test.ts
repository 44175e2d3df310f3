import assert from 'node:assert/strict';
import { dispatchWebviewMessage, makeNonce, renderWebviewHtml } from '../../../src/host/presenter/index.js';

describe('presenter: webview HTML and message dispatch', () => {
  it('sets a strict CSP with the nonce and loads only the given URIs', () => {
    const html = renderWebviewHtml({
      cspSource: 'vscode-webview://abc',
      nonce: 'N0nce',
      scriptUri: 'vscode-webview://abc/dist/webview.js',
      styleUris: ['vscode-webview://abc/codicon.css', 'vscode-webview://abc/dist/webview.css'],
    });
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    assert.equal(
      csp,
      "default-src 'none'; script-src 'nonce-N0nce'; style-src vscode-webview://abc; font-src vscode-webview://abc; img-src vscode-webview://abc data:",
    );
    assert.doesNotMatch(html, /unsafe-(inline|eval)/);
    assert.match(html, /<script nonce="N0nce" src="vscode-webview:\/\/abc\/dist\/webview.js"><\/script>/);
    assert.equal(html.match(/<link rel="stylesheet"/g)?.length, 2);
    assert.equal(html.match(/<script/g)?.length, 1, 'no inline script');
    assert.doesNotMatch(html, /style=/);
  });

  it('escapes what it interpolates', () => {
    const html = renderWebviewHtml({ cspSource: 'x', nonce: 'n', scriptUri: '"><script>alert(1)</script>', styleUris: [] });
    assert.equal(html.match(/<script/g)?.length, 1);
  });

  it('makes a fresh 32-character nonce each time', () => {
    const a = makeNonce();
    assert.match(a, /^[A-Za-z0-9]{32}$/);
    assert.notEqual(a, makeNonce());
  });

  it('routes valid messages to their handler and drops malformed ones', async () => {
    const seen: string[] = [];
    const logs: string[] = [];
    const handlers = {
      'intent/approve': (m: { intentId: string; scope: string }) => void seen.push(`${m.intentId}:${m.scope}`),
      'task/stop': () => {
        throw new Error('boom');
      },
    };
    dispatchWebviewMessage({ type: 'intent/approve', intentId: 'i1', scope: 'task' }, handlers, (l) => logs.push(l));
    dispatchWebviewMessage({ type: 'intent/approve', intentId: 'i1' }, handlers, (l) => logs.push(l));
    dispatchWebviewMessage({ type: 'task/stop' }, handlers, (l) => logs.push(l));
    assert.deepEqual(seen, ['i1:task']);
    assert.equal(logs.length, 2);
    assert.match(logs[1]!, /task\/stop failed: Error: boom/);
  });
});
