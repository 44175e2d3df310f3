// Issue 35 item 6, the request side of the Responses API: what Keel sends, through the real SDK
// to a local server, after a reasoning turn and after a tool turn — the reasoning item back as
// it came (id, summary, encrypted content) before the turn's text and function calls, each tool
// result as a function_call_output under its call_id, nothing stored, the encrypted reasoning
// asked for — and which API a model goes to: the table's choice, or the user's.
import assert from 'node:assert/strict';
import type { ModelMessage, ModelRequest, Reasoning } from '../../../../src/kernel/index.js';
import { resolveModelName } from '../../../../src/providers/model-names.js';
import { createOpenAIProvider } from '../../../../src/providers/openai.js';
import { pickerModels } from '../../../../src/providers/registry.js';
import { wireApiOf } from '../../../../src/providers/responses.js';
import { startModelServer, type ModelServer, type RecordedRequest } from '../../../support/model-server.js';
import { responsesSse } from '../../../support/responses-wire.js';
import { openaiSse } from '../../../support/openai-wire.js';
import { FAST_RETRY } from '../vendors.js';

const ENCRYPTED = 'gAAAAABoxT3v8kN1-Qz_9Xw4mVb2R7yL0aP5sD3fG6hJ8kL1zX4cV7bN0mQ2wE5rT8yU1iO4pA==';

const REASONING: Reasoning = {
  format: 'openai_responses',
  blocks: [{ type: 'encrypted', data: ENCRYPTED, id: 'rs_1', summary: ['Read it first.'] }],
};

function toolTurn(reasoning?: Reasoning, isError = false): ModelMessage[] {
  return [
    { role: 'user', text: 'Read a.ts' },
    {
      role: 'assistant',
      text: 'Reading.',
      toolCalls: [
        { intentId: 'i1', providerRef: 'call_R1', tool: 'read_file', input: { path: 'a.ts' } },
        { intentId: 'i2', providerRef: 'call_R2', tool: 'read_file', input: { path: 'b.ts' } },
      ],
      ...(reasoning ? { reasoning } : {}),
    },
    { role: 'tool_result', intentId: 'i1', providerRef: 'call_R1', tool: 'read_file', content: 'alpha', isError: false },
    { role: 'tool_result', intentId: 'i2', providerRef: 'call_R2', tool: 'read_file', content: 'no such file', isError },
  ];
}

const READ_TOOL = {
  name: 'read_file',
  description: 'Read a file.',
  inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { path: { type: 'string' } } },
};

describe('provider conformance: what Keel sends to the Responses API', function () {
  this.timeout(20_000);
  let server: ModelServer | undefined;
  afterEach(async () => server?.close());

  async function sent(
    opts: { model: string; wireApi?: 'chat' | 'responses'; reasoning?: 'low' | 'high' },
    req: ModelRequest,
  ): Promise<RecordedRequest> {
    server = await startModelServer((r) => ({
      type: 'stream',
      body: r.api === 'responses' ? responsesSse({ text: ['ok'] }) : openaiSse({ text: ['ok'] }),
    }));
    const provider = createOpenAIProvider({ apiKey: 'sk-test', baseURL: server.openaiBaseURL, retry: FAST_RETRY, ...opts });
    for await (const _ of provider.stream(req, new AbortController().signal));
    assert.equal(server.requests.length, 1);
    return server.requests[0]!;
  }

  it('after a reasoning tool turn: the reasoning item as it came, then text, calls, and their outputs', async () => {
    const r = await sent(
      { model: 'gpt-5-codex', reasoning: 'high' },
      { system: 'sys', messages: toolTurn(REASONING, true), tools: [READ_TOOL] },
    );
    assert.equal(r.path, '/v1/responses');
    const body = r.body;
    assert.equal(body.store, false);
    assert.equal(body.stream, true);
    assert.deepEqual(body.include, ['reasoning.encrypted_content']);
    assert.deepEqual(body.reasoning, { summary: 'auto', effort: 'high' });
    assert.equal(body.instructions, 'sys');
    assert.equal(typeof body.max_output_tokens, 'number');
    assert.equal(body.max_tokens, undefined);
    assert.deepEqual(body.tools, [
      {
        type: 'function',
        name: 'read_file',
        description: 'Read a file.',
        parameters: { type: 'object', properties: { path: { type: 'string' } } },
        strict: false,
      },
    ]);
    assert.deepEqual(body.input, [
      { role: 'user', content: 'Read a.ts' },
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Read it first.' }], encrypted_content: ENCRYPTED },
      { role: 'assistant', content: 'Reading.' },
      { type: 'function_call', call_id: 'call_R1', name: 'read_file', arguments: '{"path":"a.ts"}' },
      { type: 'function_call', call_id: 'call_R2', name: 'read_file', arguments: '{"path":"b.ts"}' },
      { type: 'function_call_output', call_id: 'call_R1', output: 'alpha' },
      { type: 'function_call_output', call_id: 'call_R2', output: 'Error: no such file' },
    ]);
  });

  it("another wire's reasoning (a Claude signature) is never sent to it", async () => {
    const claude: Reasoning = { format: 'anthropic', blocks: [{ type: 'text', text: 'x', signature: 'c2ln' }] };
    const r = await sent({ model: 'gpt-5-codex' }, { system: '', messages: toolTurn(claude), tools: [] });
    assert.deepEqual(
      r.body.input.map((i: { type?: string; role?: string }) => i.type ?? i.role),
      ['user', 'assistant', 'function_call', 'function_call', 'function_call_output', 'function_call_output'],
    );
    assert.deepEqual(r.body.reasoning, { summary: 'auto' });
    assert.equal(r.body.instructions, undefined);
  });

  it('a reasoning item with nothing after it (a turn of reasoning only) is not sent: the API refuses it alone', async () => {
    const turn: ModelMessage[] = [
      { role: 'user', text: 'hi' },
      { role: 'assistant', text: '', toolCalls: [], reasoning: REASONING },
      { role: 'user', text: 'again' },
    ];
    const r = await sent({ model: 'gpt-5-codex' }, { system: '', messages: turn, tools: [] });
    assert.deepEqual(r.body.input, [
      { role: 'user', content: 'hi' },
      { role: 'user', content: 'again' },
    ]);
  });

  it('gpt-5-pro reasons at high only: the level asked for is sent as high', async () => {
    const r = await sent({ model: 'gpt-5-pro', reasoning: 'low' }, { system: '', messages: [{ role: 'user', text: 'hi' }], tools: [] });
    assert.deepEqual(r.body.reasoning, { summary: 'auto', effort: 'high' });
  });

  it('the model table sends gpt-5-pro and the Codex family there, and other models to chat completions', async () => {
    for (const model of ['gpt-5-pro', 'gpt-5.1-codex', 'gpt-5.1-codex-mini', 'openai/gpt-5-codex']) {
      assert.equal(
        (await sent({ model }, { system: '', messages: [{ role: 'user', text: 'hi' }], tools: [] })).path,
        '/v1/responses',
        model,
      );
      await server?.close();
    }
    assert.equal(
      (await sent({ model: 'gpt-5' }, { system: '', messages: [{ role: 'user', text: 'hi' }], tools: [] })).path,
      '/v1/chat/completions',
    );
  });

  it('the picker offers them, and an agent naming one by its display name gets it on this path', () => {
    const offered = pickerModels('openai').map((m) => m.id);
    for (const id of ['gpt-5-codex', 'gpt-5.1-codex', 'gpt-5.1-codex-mini', 'gpt-5-pro']) {
      assert.ok(offered.includes(id), id);
      assert.equal(wireApiOf(id, undefined), 'responses', id);
    }
    assert.deepEqual(resolveModelName('GPT-5.1-Codex'), { type: 'model', vendor: 'openai', id: 'gpt-5.1-codex' });
  });

  it("the user's choice wins: a model the table cannot know goes there, a Codex model can go to chat", async () => {
    const alias = await sent({ model: 'my-gateway-alias', wireApi: 'responses' }, { system: '', messages: toolTurn(), tools: [] });
    assert.equal(alias.path, '/v1/responses');
    // A model Keel does not know to reason gets no reasoning fields it might refuse.
    assert.equal(alias.body.include, undefined);
    assert.equal(alias.body.reasoning, undefined);
    assert.equal(alias.body.store, false);
    await server?.close();
    const chat = await sent({ model: 'gpt-5-codex', wireApi: 'chat' }, { system: '', messages: [{ role: 'user', text: 'hi' }], tools: [] });
    assert.equal(chat.path, '/v1/chat/completions');
  });
});
