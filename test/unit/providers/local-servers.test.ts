// Issue 35 items 2 and 8: Azure OpenAI as a named vendor, and the local servers as named presets
// — each against a stand-in on 127.0.0.1 speaking what that server documents. A preset needs no
// base URL and no key, and asks the server the context window it runs the model with before a
// run (Ollama /api/show and /api/ps, LM Studio /api/v0/models, llama.cpp /props, vLLM
// /v1/models), trusting only a sane whole number; Azure writes its own URL shape, api-version
// and api-key header.
import assert from 'node:assert/strict';
import { lookupApiKey } from '../../../src/host/keys/api-key.js';
import { Registry, Runtime, type ModelEvent, type ModelProvider } from '../../../src/kernel/index.js';
import { createAzureProvider } from '../../../src/providers/azure.js';
import { vendorOf } from '../../../src/providers/registry.js';
import { chatBody } from './conformance/cases.js';
import { startModelServer, type ModelServer, type RecordedRequest, type Reply } from '../../support/model-server.js';
import { FAST_RETRY } from './vendors.js';

const ANSWER = chatBody([
  {
    id: 'c',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: 'stop' }],
  },
]);

/** A stand-in answering the chat endpoint with a short reply and each other path from `probe`. */
function localServer(probe: Record<string, unknown>): (req: RecordedRequest) => Reply {
  return (req) => {
    const path = req.path.split('?')[0]!;
    if (path.endsWith('/chat/completions')) return { type: 'stream', body: ANSWER };
    if (path in probe) return { type: 'json', status: 200, body: probe[path] };
    return { type: 'json', status: 404, body: { error: 'not found' } };
  };
}

async function collect(p: ModelProvider): Promise<ModelEvent[]> {
  const out: ModelEvent[] = [];
  for await (const e of p.stream({ system: '', messages: [{ role: 'user', text: 'hi' }], tools: [] }, new AbortController().signal))
    out.push(e);
  return out;
}

describe('local servers as presets, and Azure OpenAI (issue 35 items 2 and 8)', function () {
  this.timeout(10_000);
  let server: ModelServer | undefined;
  afterEach(async () => server?.close());

  const preset = (id: 'ollama' | 'lmstudio' | 'llamacpp' | 'vllm', model: string, extra: { contextWindow?: number } = {}) =>
    vendorOf(id).create({ model, baseURL: server!.openaiBaseURL, ...extra });

  const cases: { id: 'ollama' | 'lmstudio' | 'llamacpp' | 'vllm'; model: string; probe: Record<string, unknown>; window: number }[] = [
    {
      id: 'ollama',
      model: 'qwen3:8b',
      probe: { '/api/show': { parameters: 'temperature 0.6\nnum_ctx 16384', model_info: { 'qwen3.context_length': 40960 } } },
      window: 16_384,
    },
    {
      id: 'ollama',
      model: 'llama3.2',
      probe: {
        '/api/show': { parameters: 'stop "<|eot_id|>"', model_info: { 'llama.context_length': 131072 } },
        '/api/ps': { models: [{ name: 'llama3.2:latest', model: 'llama3.2:latest', context_length: 8192 }] },
      },
      window: 8_192,
    },
    {
      id: 'ollama',
      model: 'phi4',
      probe: { '/api/show': { model_info: { 'phi3.context_length': 16384 } }, '/api/ps': { models: [] } },
      window: 16_384,
    },
    {
      id: 'lmstudio',
      model: 'qwen2.5-coder-7b-instruct',
      probe: {
        '/api/v0/models/qwen2.5-coder-7b-instruct': {
          id: 'qwen2.5-coder-7b-instruct',
          state: 'loaded',
          max_context_length: 32768,
          loaded_context_length: 12000,
        },
      },
      window: 12_000,
    },
    {
      id: 'llamacpp',
      model: 'local',
      probe: { '/props': { default_generation_settings: { n_ctx: 8192, params: {} }, total_slots: 1 } },
      window: 8_192,
    },
    {
      id: 'vllm',
      model: 'Qwen/Qwen3-32B',
      probe: { '/v1/models': { object: 'list', data: [{ id: 'Qwen/Qwen3-32B', object: 'model', max_model_len: 40960 }] } },
      window: 40_960,
    },
  ];

  for (const c of cases) {
    it(`${c.id} (${c.model}): the window the server says is the window a run uses`, async () => {
      server = await startModelServer(localServer(c.probe));
      const provider = preset(c.id, c.model);
      assert.equal(provider.name, c.id);
      const runtime = new Runtime({ provider, registry: new Registry() });
      for await (const _ of runtime.send('hi'));
      assert.equal(runtime.getState().status, 'completed', JSON.stringify(runtime.getState().lastError));
      assert.equal(provider.capabilities.contextWindow, c.window);
      assert.ok(provider.capabilities.maxOutputTokens <= c.window / 4, 'a quarter of a small window is kept for the answer');
      const chat = server.requests.find((r) => r.path.endsWith('/chat/completions'))!;
      assert.ok(server.requests.indexOf(chat) > 0, 'the server was asked before the first turn');
      assert.equal(chat.body.max_tokens, provider.capabilities.maxOutputTokens);
    });
  }

  it('a window the user set is not asked for; an answer that is no sane number is not taken', async () => {
    server = await startModelServer(localServer({ '/props': { default_generation_settings: { n_ctx: '9e9' }, n_ctx: -1 } }));
    const given = preset('llamacpp', 'local', { contextWindow: 4096 });
    await given.prepare?.(new AbortController().signal);
    assert.equal(server.requests.length, 0);
    assert.equal(given.capabilities.contextWindow, 4096);
    const hostile = preset('llamacpp', 'local');
    const before = hostile.capabilities.contextWindow;
    await hostile.prepare?.(new AbortController().signal);
    assert.equal(hostile.capabilities.contextWindow, before);
  });

  it('a preset needs neither a base URL nor a key; a server that cannot be reached leaves the window as it was', async () => {
    const lookup = await lookupApiKey({ provider: 'ollama', baseUrl: '', readSecret: () => undefined, env: {} });
    assert.deepEqual(lookup, { kind: 'not_needed' });
    const down = vendorOf('vllm').create({ model: 'm', baseURL: 'http://127.0.0.1:9/v1' });
    const before = down.capabilities.contextWindow;
    await down.prepare?.(new AbortController().signal);
    assert.equal(down.capabilities.contextWindow, before);
  });

  it('azure: the deployment URL, the api-version from the endpoint, the key in api-key, the token field the user named', async () => {
    server = await startModelServer(() => ({ type: 'stream', body: ANSWER }));
    const provider = createAzureProvider({
      baseURL: `${server.url}/?api-version=2025-04-01-preview`,
      apiKey: 'azure-key-123',
      model: 'my-gpt5',
      maxTokensParam: 'max_completion_tokens',
      retry: FAST_RETRY,
    });
    assert.equal(provider.name, 'azure');
    const events = await collect(provider);
    assert.deepEqual(events.at(-1), { type: 'final', stopReason: 'stop' });
    const req = server.requests[0]!;
    assert.equal(req.path, '/openai/deployments/my-gpt5/chat/completions?api-version=2025-04-01-preview');
    assert.equal(req.headers['api-key'], 'azure-key-123');
    assert.equal(req.headers.authorization, undefined);
    assert.equal(req.body.max_completion_tokens > 0 && req.body.max_tokens === undefined, true);
  });

  it('a deployment that refuses max_tokens by name gets max_completion_tokens from then on; a field the user chose is not changed', async () => {
    const refusal = {
      error: {
        message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        type: 'invalid_request_error',
        param: 'max_tokens',
        code: 'unsupported_parameter',
      },
    };
    server = await startModelServer((req) =>
      req.body.max_tokens !== undefined ? { type: 'json', status: 400, body: refusal } : { type: 'stream', body: ANSWER },
    );
    const provider = createAzureProvider({ baseURL: server.url, apiKey: 'k', model: 'my-reasoning-deployment', retry: FAST_RETRY });
    assert.deepEqual((await collect(provider)).at(-1), { type: 'final', stopReason: 'stop' });
    assert.deepEqual((await collect(provider)).at(-1), { type: 'final', stopReason: 'stop' });
    assert.deepEqual(
      server.requests.map((r) => [r.body.max_tokens !== undefined, r.body.max_completion_tokens !== undefined]),
      [
        [true, false],
        [false, true],
        [false, true],
      ],
    );
    const chosen = createAzureProvider({ baseURL: server.url, apiKey: 'k', model: 'x', maxTokensParam: 'max_tokens', retry: FAST_RETRY });
    const last = (await collect(chosen)).at(-1);
    assert.equal(last?.type === 'error' && last.error.kind, 'bad_request');
    assert.equal(server.requests.length, 4, 'refused once, reported, not re-sent');
  });

  it('azure: without its endpoint it says what to set, sending nothing; the default api-version otherwise', async () => {
    const events = await collect(createAzureProvider({ model: 'gpt-4o', apiKey: 'k' }));
    assert.equal(events.length, 1);
    assert.match(events[0]?.type === 'error' ? events[0].error.message : '', /keel\.baseUrl .*RESOURCE\.openai\.azure\.com/);
    server = await startModelServer(() => ({ type: 'stream', body: ANSWER }));
    await collect(createAzureProvider({ baseURL: server.url, apiKey: 'k', model: 'gpt-4o', retry: FAST_RETRY }));
    assert.match(server.requests[0]!.path, /^\/openai\/deployments\/gpt-4o\/chat\/completions\?api-version=\d{4}-\d{2}-\d{2}/);
  });
});
