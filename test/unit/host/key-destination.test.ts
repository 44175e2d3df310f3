import assert from 'node:assert/strict';
import { KeyHostApprovals, keyDestination, keyQuestion, type KeyDestination } from '../../../src/host/keys/key-destination.js';

const destination = (baseUrl: string, provider: 'anthropic' | 'openai' = 'anthropic'): KeyDestination => {
  const r = keyDestination(provider, baseUrl);
  assert.ok(r.ok, baseUrl);
  return r.destination;
};

describe('host/key-destination', () => {
  it('counts only the vendor’s own API origin as official', () => {
    assert.equal(destination('').official, true);
    assert.equal(destination('https://api.anthropic.com').official, true);
    assert.equal(destination('https://API.anthropic.com:443/v1').official, true);
    assert.equal(destination('https://api.openai.com/v1', 'openai').official, true);
    for (const url of [
      'http://api.anthropic.com',
      'https://api.anthropic.com:8443',
      'https://api.anthropic.com.evil.example',
      'https://api.openai.com',
      'https://user@evil.example',
    ])
      assert.equal(destination(url).official, false, url);
  });

  it('shows the whole origin, normalised (port, punycode), in the question', () => {
    assert.equal(destination('http://127.0.0.1:8080/v1').origin, 'http://127.0.0.1:8080');
    const homograph = destination('https://аpi.anthropic.com/v1'); // Cyrillic а
    assert.equal(homograph.official, false);
    assert.match(homograph.origin, /^https:\/\/xn--/);
    const q = keyQuestion(homograph);
    assert.ok(q.message.includes(homograph.origin));
    assert.match(q.message, /Anthropic API key/);
  });

  it('asks once per provider and origin, remembers a yes, and never a no', async () => {
    let saved: string[] = [];
    const answers = [false, true];
    const asked: string[] = [];
    const approvals = new KeyHostApprovals({ get: () => saved, set: async (v) => void (saved = v) }, async (d) => {
      asked.push(d.origin);
      return answers.shift() ?? false;
    });
    const proxy = destination('https://proxy.example/v1');
    assert.equal(await approvals.allowed(proxy), false);
    assert.deepEqual(saved, [], 'a refusal is not remembered');
    assert.equal(await approvals.allowed(proxy), true);
    assert.equal(await approvals.allowed(proxy), true);
    assert.deepEqual(asked, ['https://proxy.example', 'https://proxy.example'], 'asked again after a no, not after a yes');
    assert.deepEqual(saved, ['anthropic https://proxy.example']);
    // Another provider's key to the same host is its own question.
    assert.equal(approvals.remembered(destination('https://proxy.example/v1', 'openai')), false);
  });

  it('asks one question for turns that start together', async () => {
    let release: (v: boolean) => void = () => undefined;
    let questions = 0;
    const approvals = new KeyHostApprovals({ get: () => [], set: async () => undefined }, () => {
      questions++;
      return new Promise<boolean>((r) => (release = r));
    });
    const d = destination('http://127.0.0.1:9/v1');
    const both = Promise.all([approvals.allowed(d), approvals.allowed(d)]);
    release(true);
    assert.deepEqual(await both, [true, true]);
    assert.equal(questions, 1);
  });

  it('refuses base URLs that are not http(s) URLs', () => {
    assert.equal(keyDestination('anthropic', 'not a url').ok, false);
    assert.equal(keyDestination('anthropic', 'ftp://x.example').ok, false);
  });
});
