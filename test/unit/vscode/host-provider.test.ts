import assert from 'node:assert/strict';
import type { ModelEvent, ModelProvider, ModelRequest } from '../../../src/kernel/index.js';
import type { KeyLookup } from '../../../src/vscode/api-key.js';
import { DEFAULT_MODEL, HostProvider } from '../../../src/vscode/host-provider.js';
import { readSettings } from '../../../src/vscode/settings.js';

const request: ModelRequest = { system: 's', messages: [{ role: 'user', text: 'hi' }], tools: [] };

async function collect(it: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const out: ModelEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

describe('vscode/host-provider', () => {
  it('answers a missing key with a clear auth error, not an exception', async () => {
    const p = new HostProvider({
      settings: readSettings(() => undefined),
      lookupKey: async () => ({ kind: 'missing', provider: 'anthropic', message: 'No key. Keel: Set API Key' }),
    });
    assert.equal(p.model, DEFAULT_MODEL.anthropic);
    const events = await collect(p.stream(request, new AbortController().signal));
    assert.deepEqual(events, [{ type: 'error', error: { kind: 'auth', message: 'No key. Keel: Set API Key', retryable: false } }]);
  });

  it('takes the context window from the setting, for a local model Keel cannot know', () => {
    const settings = readSettings((k) => ({ provider: 'openai', model: 'qwen2.5-coder:7b', contextWindow: 16_384 })[k]);
    const p = new HostProvider({ settings, lookupKey: async () => ({ kind: 'found', key: 'k', source: 'env' }) });
    assert.equal(p.capabilities.contextWindow, 16_384);
    assert.equal(p.capabilities.maxOutputTokens, 4_096, 'a quarter of a small window is kept for the answer');
    const unset = new HostProvider({
      settings: readSettings((k) => ({ provider: 'openai', model: 'qwen2.5-coder:7b' })[k]),
      lookupKey: async () => ({ kind: 'found', key: 'k', source: 'env' }),
    });
    assert.equal(unset.capabilities.contextWindow, 32_768, 'an unknown model gets the conservative default');
  });

  it('looks the key up on every turn and rebuilds the vendor provider when it changes', async () => {
    let key: KeyLookup = { kind: 'found', key: 'k1', source: 'env' };
    const built: (string | undefined)[] = [];
    const seen: ModelRequest[] = [];
    const fake = (apiKey: string | undefined): ModelProvider => ({
      name: 'fake',
      model: 'm',
      capabilities: { tools: true, vision: false, promptCaching: false, contextWindow: 1, maxOutputTokens: 1 },
      async *stream() {
        yield { type: 'text_delta', text: apiKey ?? '' };
      },
    });
    const p = new HostProvider({
      settings: readSettings((k) => ({ provider: 'openai', model: 'gpt-x' })[k]),
      lookupKey: async () => key,
      onRequest: (r) => seen.push(r),
      create: (s, apiKey) => {
        built.push(apiKey);
        assert.equal(s.model, 'gpt-x');
        return fake(apiKey);
      },
    });
    assert.equal(p.name, 'openai');
    await collect(p.stream(request, new AbortController().signal));
    await collect(p.stream(request, new AbortController().signal));
    key = { kind: 'found', key: 'k2', source: 'secret' };
    const events = await collect(p.stream(request, new AbortController().signal));
    assert.deepEqual(built, ['k1', 'k2']);
    assert.deepEqual(events, [{ type: 'text_delta', text: 'k2' }]);
    assert.equal(seen.length, 3);
  });
});
