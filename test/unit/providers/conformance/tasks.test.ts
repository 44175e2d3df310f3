// Issue 35 "done when": a task with a tool call runs end to end through the kernel and the real
// SDK against a local stand-in, on each vendor path — Anthropic with thinking on, OpenAI chat,
// DeepSeek-style reasoning_content, Mistral's content parts, an Ollama-style server — and the
// request after the tool turn is what that API documents (the turn's reasoning sent back where
// it must be, in the form it must take). A fold is checked the same way: the note request and
// the request after it.
import assert from 'node:assert/strict';
import { z } from 'zod';
import {
  Registry,
  Runtime,
  type ModelProvider,
  type RuntimeOutput,
  type ToolDefinition,
  type Workspace,
} from '../../../../src/kernel/index.js';
import { createAnthropicProvider } from '../../../../src/providers/anthropic.js';
import { createOpenAIProvider } from '../../../../src/providers/openai.js';
import { startModelServer, type ModelServer, type RecordedRequest } from '../../../support/model-server.js';
import { FAST_RETRY } from '../vendors.js';
import { ANTHROPIC_CASES } from './anthropic-cases.js';
import { anthropicBody, chatBody, type StreamCase } from './cases.js';
import { CHAT_CASES } from './chat-cases.js';
import { LOCAL_CASES } from './local-cases.js';

const files: Record<string, string> = { 'src/main.ts': 'export {}', 'a.ts': 'alpha', '.': '' };

function workspace(): Workspace {
  const unused = () => Promise.reject(new Error('not used here'));
  return {
    root: '/ws',
    resolve: async (p) => p,
    readFile: async (p) => new TextEncoder().encode(files[p] ?? ''),
    writeFile: unused,
    stat: async () => undefined,
    readDir: unused,
    search: unused,
    runProcess: unused,
  };
}

/** One read-only tool under every name the cases call, so each runs unasked. */
function readTool(name: string): ToolDefinition<Record<string, unknown>> {
  return {
    name,
    kind: 'read',
    description: `${name} (test)`,
    input: z.record(z.string(), z.unknown()),
    risk: 'read',
    readOnly: true,
    concurrencySafe: true,
    outputBudgetTokens: 500,
    summarize: () => name,
    execute: async (input) => ({ ok: true, content: `${name} ran with ${JSON.stringify(input)}` }),
  };
}

const byName = (cases: StreamCase[], prefix: string) => cases.find((c) => c.name.startsWith(prefix))!;

interface PathSpec {
  name: string;
  turn: StreamCase;
  provider(server: ModelServer): ModelProvider;
  answer: string;
  /** What the request after the tool turn must hold. */
  checkSecond(body: any): void;
}

const chatAnswer = chatBody([
  {
    id: 'c2',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: { role: 'assistant', content: 'All done.' }, finish_reason: 'stop' }],
  },
]);
const anthropicAnswer = anthropicBody([
  {
    type: 'message_start',
    message: {
      id: 'msg_2',
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 5, output_tokens: 1 },
    },
  },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'All done.' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } },
  { type: 'message_stop' },
]);

const chat = (model: string, server: ModelServer) =>
  createOpenAIProvider({ baseURL: server.openaiBaseURL, apiKey: 'k', model, retry: FAST_RETRY });

const PATHS: PathSpec[] = [
  {
    name: 'Anthropic with extended thinking on',
    turn: byName(ANTHROPIC_CASES, 'anthropic: extended thinking'),
    provider: (server) =>
      createAnthropicProvider({
        baseURL: server.anthropicBaseURL,
        apiKey: 'k',
        model: 'claude-haiku-4-5',
        reasoning: 'high',
        retry: FAST_RETRY,
      }),
    answer: anthropicAnswer,
    checkSecond(body) {
      assert.deepEqual(body.thinking, { type: 'enabled', budget_tokens: 24_000 });
      const assistant = body.messages[1];
      assert.deepEqual(
        assistant.content.map((b: { type: string }) => b.type),
        ['thinking', 'text', 'tool_use'],
        'the thinking block comes first, before the tool_use it led to',
      );
      assert.equal(assistant.content[0].thinking, 'The user wants the file. I will read it.');
      assert.match(assistant.content[0].signature, /^EqQBCgIYAhIM/);
      assert.equal(body.messages[2].content[0].type, 'tool_result');
    },
  },
  {
    name: 'OpenAI chat',
    turn: byName(CHAT_CASES, 'openai: two parallel calls'),
    provider: (server) => chat('gpt-4o', server),
    answer: chatAnswer,
    checkSecond(body) {
      const assistant = body.messages.find((m: { role: string }) => m.role === 'assistant');
      assert.equal(assistant.tool_calls.length, 2);
      assert.equal(assistant.reasoning_content, undefined);
      assert.deepEqual(
        body.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { tool_call_id: string }) => m.tool_call_id),
        ['call_DdmO9pD3xa9XTPNJ32zg2hcA', 'call_ABHdoCTeDp3sUp1eVpXjYNpV'],
      );
    },
  },
  {
    name: 'DeepSeek-style reasoning_content',
    turn: byName(CHAT_CASES, 'deepseek: reasoning_content, then a tool call'),
    provider: (server) => chat('deepseek-reasoner', server),
    answer: chatAnswer,
    checkSecond(body) {
      const assistant = body.messages.find((m: { role: string }) => m.role === 'assistant');
      assert.equal(assistant.reasoning_content, 'I need the weather first.', 'DeepSeek answers 400 without it');
      assert.equal(body.max_tokens !== undefined && body.max_completion_tokens === undefined, true);
    },
  },
  {
    name: "Mistral's content parts",
    turn: byName(CHAT_CASES, 'mistral: content as thinking'),
    provider: (server) => chat('magistral-medium-2509', server),
    answer: chatAnswer,
    checkSecond(body) {
      const assistant = body.messages.find((m: { role: string }) => m.role === 'assistant');
      assert.equal(assistant.content, 'Let me read it.', 'the text parts, as text; never the array');
      assert.equal(assistant.reasoning_content, undefined);
      assert.equal(assistant.tool_calls[0].id, 'D681PevKs');
    },
  },
  {
    name: 'an Ollama-style server',
    turn: byName(LOCAL_CASES, 'ollama: reasoning, then a call whole'),
    provider: (server) => chat('qwen3:8b', server),
    answer: chatAnswer,
    checkSecond(body) {
      const assistant = body.messages.find((m: { role: string }) => m.role === 'assistant');
      assert.equal(assistant.reasoning, 'Okay, the user wants the file list.', 'sent back in the field it came in');
      assert.equal(body.messages.at(-1).role, 'tool');
      assert.match(body.messages.at(-1).content, /list_files ran with \{"dir":"\."\}/);
    },
  },
];

async function drain(outputs: AsyncIterable<RuntimeOutput>): Promise<void> {
  for await (const _ of outputs);
}

function runtimeOn(provider: ModelProvider): Runtime {
  const registry = new Registry();
  for (const name of ['read_file', 'search', 'list_files', 'get_weather']) registry.addTool(readTool(name));
  return new Runtime({ provider, registry, workspace: workspace() });
}

describe('provider conformance: a task with a tool call, end to end on each vendor path', function () {
  this.timeout(20_000);
  let server: ModelServer | undefined;
  afterEach(async () => server?.close());

  for (const path of PATHS) {
    it(`${path.name}: the tool runs, its result goes back, and the turn's reasoning goes back as the API requires`, async () => {
      const bodies = [path.turn.body, path.answer];
      server = await startModelServer((_req: RecordedRequest, i: number) => ({ type: 'stream', body: bodies[i] ?? path.answer }));
      const runtime = runtimeOn(path.provider(server));
      await drain(runtime.send('Go.'));
      const state = runtime.getState();
      assert.equal(state.status, 'completed', JSON.stringify(state.lastError));
      assert.equal(server.requests.length, 2);
      assert.ok(state.messages.some((m) => m.type === 'observation' && m.observation.ok));
      path.checkSecond(server.requests[1]!.body);
      const answer = state.messages.at(-1);
      assert.equal(answer?.type === 'assistant' && answer.text, 'All done.');
    });
  }

  it('DeepSeek after a fold: the note request carries the tool turns’ reasoning and no reasoning setting; later requests show the note', async () => {
    const deepseek = byName(CHAT_CASES, 'deepseek: reasoning_content, then a tool call');
    const note = chatBody([
      {
        id: 'n',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [{ index: 0, delta: { content: 'Checked the weather in Hangzhou.' }, finish_reason: 'stop' }],
      },
    ]);
    const bodies = [deepseek.body, chatAnswer, note, chatAnswer];
    server = await startModelServer((_req, i) => ({ type: 'stream', body: bodies[i] ?? chatAnswer }));
    const provider = createOpenAIProvider({
      baseURL: server.openaiBaseURL,
      apiKey: 'k',
      model: 'deepseek-reasoner',
      reasoning: 'high',
      retry: FAST_RETRY,
    });
    const runtime = runtimeOn(provider);
    await drain(runtime.send('Weather?'));
    assert.equal(server.requests[0]!.body.reasoning_effort, 'high');
    assert.deepEqual(server.requests[0]!.body.thinking, { type: 'enabled' });
    await runtime.fold();
    await drain(runtime.send('Thanks.'));
    assert.equal(runtime.getState().status, 'completed', JSON.stringify(runtime.getState().lastError));
    const noteRequest = server.requests[2]!.body;
    assert.equal(noteRequest.reasoning_effort, undefined, 'a note goes at the model’s default');
    const toolTurn = noteRequest.messages.find((m: { tool_calls?: unknown }) => m.tool_calls);
    assert.equal(toolTurn.reasoning_content, 'I need the weather first.', 'the note request still shows the tool turn whole');
    const after = server.requests[3]!.body;
    assert.ok(!after.messages.some((m: { tool_calls?: unknown }) => m.tool_calls), 'the folded tool turn is gone');
    assert.ok(after.messages.some((m: { content?: string }) => m.content?.includes('Checked the weather in Hangzhou.')));
  });
});
