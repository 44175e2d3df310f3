// Issue 35 item 8: a base URL without its scheme ("localhost:11434/v1", which URL parsing reads
// as the scheme "localhost:") is an error naming the setting or flag it came from — not "no API
// key", not a request retried five times — wherever a base URL enters Keel.
import assert from 'node:assert/strict';
import { parseRunArgs, UsageError } from '../../../src/cli/args.js';
import { createModelProvider } from '../../../src/compose/index.js';
import { keyDestination } from '../../../src/host/keys/key-destination.js';
import { HostProvider } from '../../../src/host/runtime/host-provider.js';
import { readSettings } from '../../../src/host/settings/settings.js';
import type { ModelEvent } from '../../../src/kernel/index.js';
import { checkBaseUrl } from '../../../src/providers/base-url.js';

const request = { system: '', messages: [{ role: 'user' as const, text: 'hi' }], tools: [] };

async function collect(it: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const out: ModelEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

describe('a base URL without a scheme (issue 35 item 8)', () => {
  it('the one check names the setting and the URL meant', () => {
    const missing = checkBaseUrl('localhost:11434/v1', 'keel.baseUrl');
    assert.equal(missing.ok, false);
    assert.match(
      !missing.ok ? missing.message : '',
      /^keel\.baseUrl must start with http:\/\/ or https:\/\/ .*Did you mean "http:\/\/localhost:11434\/v1"\?/,
    );
    const flag = checkBaseUrl('127.0.0.1:8080', '--base-url');
    assert.match(!flag.ok ? flag.message : '', /^--base-url must start/);
    const ftp = checkBaseUrl('ftp://example.com/v1', 'keel.baseUrl');
    assert.match(!ftp.ok ? ftp.message : '', /http or https URL \(it is ftp:\)/);
    const ok = checkBaseUrl(' http://127.0.0.1:11434/v1 ', 'keel.baseUrl');
    assert.equal(ok.ok && ok.url.origin, 'http://127.0.0.1:11434');
  });

  it('keel run --base-url says so before anything runs', () => {
    assert.throws(
      () => parseRunArgs(['run', '--base-url', 'localhost:11434/v1', 'go'], '/w'),
      (e) => e instanceof UsageError && /--base-url must start with http:\/\//.test(e.message),
    );
  });

  it('in the editor the task answers with the setting’s error, not a missing key', async () => {
    const settings = readSettings((k) => ({ globalValue: { provider: 'openai', baseUrl: 'localhost:11434/v1' }[k] }));
    const provider = new HostProvider({
      settings,
      lookupKey: async () => ({ kind: 'missing', provider: 'openai', message: 'No OpenAI API key is set.' }),
      allowKeyDestination: async () => true,
    });
    const events = await collect(provider.stream(request, new AbortController().signal));
    assert.equal(events.length, 1);
    const error = events[0]?.type === 'error' ? events[0].error : undefined;
    assert.equal(error?.kind, 'bad_request');
    assert.match(error?.message ?? '', /keel\.baseUrl must start with http:\/\//);
    const where = keyDestination('openai', 'localhost:11434/v1');
    assert.match(!where.ok ? where.message : '', /keel\.baseUrl must start with http:\/\//);
  });

  it('a composed provider with such a URL answers once with the error, sending nothing', async () => {
    const provider = createModelProvider({ provider: 'openai', baseUrl: 'localhost:1/v1', model: 'llama3.2' });
    const events = await collect(provider.stream(request, new AbortController().signal));
    assert.deepEqual(
      events.map((e) => e.type === 'error' && [e.error.kind, e.error.retryable]),
      [['bad_request', false]],
    );
  });
});
