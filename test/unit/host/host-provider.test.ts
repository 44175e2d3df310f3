import assert from 'node:assert/strict';
import type { ModelEvent, ModelProvider, ModelRequest } from '../../../src/kernel/index.js';
import type { KeyLookup } from '../../../src/host/keys/api-key.js';
import { DEFAULT_MODELS } from '../../../src/providers/index.js';
import { HostProvider, type HostProviderOptions } from '../../../src/host/runtime/host-provider.js';
import type { KeyDestination } from '../../../src/host/keys/key-destination.js';
import { readSettings, type SettingLevels } from '../../../src/host/settings/settings.js';

const request: ModelRequest = { system: 's', messages: [{ role: 'user', text: 'hi' }], tools: [] };
const user =
  (values: Record<string, unknown>) =>
  (k: string): SettingLevels => ({ globalValue: values[k] });

async function collect(it: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const out: ModelEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

function fake(apiKey: string | undefined, built: (string | undefined)[] = []): ModelProvider {
  built.push(apiKey);
  return {
    name: 'fake',
    model: 'm',
    capabilities: { tools: true, vision: false, promptCaching: false, contextWindow: 1, maxOutputTokens: 1 },
    async *stream() {
      yield { type: 'text_delta', text: `sent with ${apiKey ?? 'no key'}` };
    },
  };
}

/** A provider with the settings given, a found key, and a record of every host question. */
function withKey(settings: Record<string, unknown>, key: string, answer: boolean) {
  const asked: KeyDestination[] = [];
  const built: (string | undefined)[] = [];
  const options: HostProviderOptions = {
    settings: readSettings(user(settings)),
    lookupKey: async () => ({ kind: 'found', key, source: 'secret' }),
    allowKeyDestination: async (d) => {
      asked.push(d);
      return answer;
    },
    create: (_s, apiKey) => fake(apiKey, built),
  };
  return { provider: new HostProvider(options), asked, built };
}

describe('host/host-provider', () => {
  it('answers a missing key with a clear auth error, not an exception', async () => {
    const p = new HostProvider({
      settings: readSettings(() => undefined),
      lookupKey: async () => ({ kind: 'missing', provider: 'anthropic', message: 'No key. Keel: Set API Key' }),
      allowKeyDestination: async () => true,
    });
    assert.equal(p.model, DEFAULT_MODELS.anthropic);
    const events = await collect(p.stream(request, new AbortController().signal));
    assert.deepEqual(events, [{ type: 'error', error: { kind: 'auth', message: 'No key. Keel: Set API Key', retryable: false } }]);
  });

  it('takes the context window from the setting, for a local model Keel cannot know', () => {
    const settings = readSettings(user({ provider: 'openai', model: 'qwen2.5-coder:7b', contextWindow: 16_384 }));
    const found = async () => ({ kind: 'found', key: 'k', source: 'env' }) as const;
    const p = new HostProvider({ settings, lookupKey: found, allowKeyDestination: async () => true });
    assert.equal(p.capabilities.contextWindow, 16_384);
    assert.equal(p.capabilities.maxOutputTokens, 4_096, 'a quarter of a small window is kept for the answer');
    const unset = new HostProvider({
      settings: readSettings(user({ provider: 'openai', model: 'qwen2.5-coder:7b' })),
      lookupKey: found,
      allowKeyDestination: async () => true,
    });
    assert.equal(unset.capabilities.contextWindow, 32_768, 'an unknown model gets the conservative default');
  });

  it('looks the key up on every turn and rebuilds the vendor provider when it changes', async () => {
    let key: KeyLookup = { kind: 'found', key: 'k1', source: 'env' };
    const built: (string | undefined)[] = [];
    const seen: ModelRequest[] = [];
    const p = new HostProvider({
      settings: readSettings(user({ provider: 'openai', model: 'gpt-x' })),
      lookupKey: async () => key,
      allowKeyDestination: async () => true,
      onRequest: (r) => seen.push(r),
      create: (s, apiKey) => {
        assert.equal(s.model, 'gpt-x');
        return fake(apiKey, built);
      },
    });
    assert.equal(p.name, 'openai');
    await collect(p.stream(request, new AbortController().signal));
    await collect(p.stream(request, new AbortController().signal));
    key = { kind: 'found', key: 'k2', source: 'secret' };
    const events = await collect(p.stream(request, new AbortController().signal));
    assert.deepEqual(built, ['k1', 'k2']);
    assert.deepEqual(events, [{ type: 'text_delta', text: 'sent with k2' }]);
    assert.equal(seen.length, 3);
  });

  it('sends the key to the vendor’s own API without asking', async () => {
    const { provider, asked } = withKey({ provider: 'anthropic' }, 'sk-ant-k', false);
    const events = await collect(provider.stream(request, new AbortController().signal));
    assert.deepEqual(events, [{ type: 'text_delta', text: 'sent with sk-ant-k' }]);
    assert.deepEqual(asked, []);
  });

  it('asks before the key goes to any other host, and a refusal fails the turn with nothing sent', async () => {
    const { provider, asked, built } = withKey({ provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1' }, 'sk-k', false);
    const events = await collect(provider.stream(request, new AbortController().signal));
    assert.deepEqual(asked, [{ provider: 'openai', origin: 'http://127.0.0.1:8080', official: false }]);
    assert.deepEqual(built, [], 'no vendor provider was even built');
    assert.equal(events.length, 1);
    const error = events[0]!.type === 'error' ? events[0]!.error : undefined;
    assert.equal(error?.kind, 'bad_request');
    assert.equal(error?.retryable, false);
    assert.match(error?.message ?? '', /did not send your OpenAI API key to http:\/\/127\.0\.0\.1:8080/);
  });

  it('sends the key once the user agrees to the host', async () => {
    const { provider, built } = withKey({ provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1' }, 'sk-k', true);
    const events = await collect(provider.stream(request, new AbortController().signal));
    assert.deepEqual(events, [{ type: 'text_delta', text: 'sent with sk-k' }]);
    assert.deepEqual(built, ['sk-k']);
  });

  it('refuses a key an HTTP header cannot carry, naming neither the key nor its characters', async () => {
    for (const key of ['sk-ant-abc\ndef-secret-tail', 'sk-ant-abcé', 'sk ant', 'sk-ant-\u202eevil']) {
      const { provider, asked, built } = withKey({ provider: 'anthropic' }, key, true);
      const events = await collect(provider.stream(request, new AbortController().signal));
      assert.equal(events.length, 1);
      const error = events[0]!.type === 'error' ? events[0]!.error : undefined;
      assert.equal(error?.kind, 'auth');
      assert.match(error?.message ?? '', /printable ASCII/);
      for (const piece of ['abc', 'def-secret-tail', 'é', 'evil', '\u202e']) assert.ok(!error?.message.includes(piece), piece);
      assert.deepEqual(asked, []);
      assert.deepEqual(built, []);
    }
  });

  it('refuses a base URL that is not an http(s) URL before anything is sent', async () => {
    for (const baseUrl of ['not a url', 'file:///tmp/socket', 'javascript:alert(1)']) {
      const { provider, asked, built } = withKey({ provider: 'openai', baseUrl }, 'sk-k', true);
      const events = await collect(provider.stream(request, new AbortController().signal));
      assert.equal(events[0]?.type, 'error', baseUrl);
      assert.deepEqual(asked, []);
      assert.deepEqual(built, []);
    }
  });

  it('asks nothing when no key is sent (a local server that needs none)', async () => {
    const asked: KeyDestination[] = [];
    const p = new HostProvider({
      settings: readSettings(user({ provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1' })),
      lookupKey: async () => ({ kind: 'not_needed' }),
      allowKeyDestination: async (d) => {
        asked.push(d);
        return false;
      },
      create: (_s, apiKey) => fake(apiKey),
    });
    const events = await collect(p.stream(request, new AbortController().signal));
    assert.deepEqual(events, [{ type: 'text_delta', text: 'sent with no key' }]);
    assert.deepEqual(asked, []);
  });

  it('an agent’s model: the same settings (endpoint, key checks) with that model; another vendor’s keeps the task’s', async () => {
    const built: string[] = [];
    const asked: KeyDestination[] = [];
    const provider = new HostProvider({
      settings: readSettings(user({ provider: 'openai', baseUrl: 'https://llm.example.test/v1' })),
      lookupKey: async () => ({ kind: 'found', key: 'sk-abc', source: 'secret' }),
      allowKeyDestination: async (d) => {
        asked.push(d);
        return true;
      },
      create: (s, apiKey) => {
        built.push(`${s.model}@${s.baseUrl}`);
        return fake(apiKey);
      },
    });
    const choice = provider.withModel('GPT-4.1');
    assert.equal(choice.type, 'switched');
    const switched = choice.type === 'switched' ? choice.provider : provider;
    assert.equal(switched.model, 'gpt-4.1');
    await collect(switched.stream(request, new AbortController().signal));
    assert.deepEqual(built, ['gpt-4.1@https://llm.example.test/v1']);
    assert.equal(asked.length, 1, 'the key destination is still asked about');
    assert.deepEqual(provider.withModel('opus'), { type: 'kept', reason: 'other_vendor' });
  });
});
