// The view names an endpoint setting Keel cannot send to (the endpoint hint) in a banner and on
// the welcome's key line, in place of "Keel needs an API key" / "No API key is set".
import './dom-env.js';
import assert from 'node:assert/strict';
import { makeApp } from './dom-env.js';
import { snapshot } from './fixtures.js';

const MESSAGE =
  'keel.baseUrl must start with http:// or https:// (it is "localhost:11434/v1"); nothing was sent. Did you mean "http://localhost:11434/v1"?';

describe('webview: the endpoint notice', () => {
  it('says what is wrong with keel.baseUrl, and no key banner or "API key set."', () => {
    const t = makeApp();
    t.receive(snapshot([], { hints: { noApiKey: true, restricted: false, canResume: false, endpoint: MESSAGE } }));
    t.frame();
    const endpoint = t.root.querySelector<HTMLElement>('[data-notice="endpoint"]');
    assert.ok(endpoint && !endpoint.hidden, 'the endpoint banner shows');
    assert.equal(endpoint.textContent?.trim(), MESSAGE);
    assert.equal(t.root.querySelector<HTMLElement>('[data-notice="no-api-key"]')?.hidden, true, 'no key banner');
    const welcome = t.root.querySelector('.welcome')?.textContent ?? '';
    assert.ok(welcome.includes(MESSAGE), welcome);
    assert.ok(!/API key set|No API key/.test(welcome), welcome);
  });

  it('is hidden once the setting is fixed', () => {
    const t = makeApp();
    t.receive(snapshot([], { hints: { noApiKey: false, restricted: false, canResume: false } }));
    t.frame();
    assert.equal(t.root.querySelector<HTMLElement>('[data-notice="endpoint"]')?.hidden, true);
  });
});
