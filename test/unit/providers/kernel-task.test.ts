// A whole task through the kernel and each real SDK, against the model stand-in: the model
// says something and proposes a write; the user approves; the tool runs; its result goes back
// under the provider's call id; the model answers. And a turn cut mid-stream, retried, whose
// abandoned text must not end up in the conversation twice.
import assert from 'node:assert/strict';
import { z } from 'zod';
import { Registry, Runtime, type RuntimeOutput, type ToolDefinition, type Workspace } from '../../../src/kernel/index.js';
import { conversation, startModelServer, type ModelServer, type RecordedRequest } from '../../support/model-server.js';
import { VENDORS } from './vendors.js';

/** Just enough of a workspace for one tool that writes files into a map. */
function memoryWorkspace(notes: Map<string, string>): Workspace {
  const unused = () => Promise.reject(new Error('not used here'));
  return {
    root: '/ws',
    resolve: async (p) => p,
    readFile: async (p) => new TextEncoder().encode(notes.get(p) ?? ''),
    writeFile: async (p, data) => void notes.set(p, new TextDecoder().decode(data)),
    stat: async () => undefined,
    readDir: unused,
    search: unused,
    runProcess: unused,
  };
}

const noteTool: ToolDefinition<{ path: string; text: string }> = {
  name: 'write_note',
  kind: 'other',
  description: 'Writes a note.',
  input: z.object({ path: z.string(), text: z.string() }),
  risk: 'write',
  readOnly: false,
  concurrencySafe: false,
  outputBudgetTokens: 500,
  summarize: (i) => i.path,
  async execute(input, ctx) {
    await ctx.workspace.writeFile(input.path, new TextEncoder().encode(input.text));
    return { ok: true, content: `wrote ${input.text.length} characters to ${input.path}` };
  },
};

/** The tool result the model stand-in received, in whichever API's shape. */
function lastToolResult(req: RecordedRequest): { callId: string; content: string } {
  const last = req.body.messages.at(-1);
  if (req.api === 'openai') return { callId: last.tool_call_id, content: last.content };
  const block = last.content.find((b: { type: string }) => b.type === 'tool_result');
  return { callId: block.tool_use_id, content: typeof block.content === 'string' ? block.content : block.content[0].text };
}

async function drain(outputs: AsyncIterable<RuntimeOutput>, runtime: Runtime, approvals: string[]) {
  for await (const out of outputs) {
    if (out.kind === 'event' && out.event.type === 'approval_requested') {
      approvals.push(out.event.intentId);
      runtime.approve(out.event.intentId);
    }
  }
}

for (const vendor of VENDORS) {
  describe(`${vendor.name} provider: a task through the kernel`, function () {
    this.timeout(15_000);
    let server: ModelServer | undefined;
    afterEach(async () => server?.close());
    const callId = `${vendor.name}_call_1`;

    it('text, tool intent, approval, observation, final answer', async () => {
      server = await startModelServer(
        conversation([
          {
            text: ['I will ', 'write the note.'],
            toolCalls: [{ id: callId, name: 'write_note', input: { path: 'todo.md', text: 'buy milk ✓' } }],
            usage: { input: 300, output: 40 },
          },
          (req) => {
            const result = lastToolResult(req);
            return { text: [`Done (${result.callId}): `, result.content], usage: { input: 420, output: 12 } };
          },
        ]),
      );
      const notes = new Map<string, string>();
      const runtime = new Runtime({
        provider: vendor.provider(server),
        registry: new Registry().addTool(noteTool),
        workspace: memoryWorkspace(notes),
      });
      const approvals: string[] = [];
      await drain(runtime.send('Note that I need milk.'), runtime, approvals);

      const state = runtime.getState();
      assert.equal(state.status, 'completed', JSON.stringify(state.lastError));
      assert.equal(approvals.length, 1, 'the write asked for approval');
      assert.equal(notes.get('todo.md'), 'buy milk ✓', 'the approved call ran with the streamed input');
      const intent = state.intents[approvals[0]!]!;
      assert.equal(intent.providerRef, callId);
      assert.notEqual(intent.id, callId, "the kernel's own id is the intent's id");
      assert.equal(server.requests.length, 2);
      assert.deepEqual(lastToolResult(server.requests[1]!), { callId, content: 'wrote 10 characters to todo.md' });
      const answer = state.messages.at(-1)!;
      assert.equal(answer.type === 'assistant' && answer.text, `Done (${callId}): wrote 10 characters to todo.md`);
      assert.equal(state.usage.inputTokens, 720);
      assert.equal(state.usage.outputTokens, 52);
    });

    it('invalid tool-call JSON in a finished turn is answered as invalid_input, in one request, and the run goes on', async () => {
      server = await startModelServer(
        conversation([
          { toolCalls: [{ id: callId, name: 'write_note', fragments: ['{"path":"todo.md",', '"text":"milk",}'] }] },
          (req) => ({ text: [`Seen: ${lastToolResult(req).content}`] }),
        ]),
      );
      const notes = new Map<string, string>();
      const runtime = new Runtime({
        provider: vendor.provider(server),
        registry: new Registry().addTool(noteTool),
        workspace: memoryWorkspace(notes),
      });
      const approvals: string[] = [];
      await drain(runtime.send('Note that I need milk.'), runtime, approvals);

      const state = runtime.getState();
      assert.equal(state.status, 'completed', JSON.stringify(state.lastError));
      assert.equal(server.requests.length, 2, 'the finished turn was not asked again');
      assert.equal(runtime.getEvents().filter((e) => e.type === 'turn_retry').length, 0);
      assert.deepEqual(approvals, [], 'nothing to approve: the call cannot run');
      assert.equal(notes.size, 0);
      const result = lastToolResult(server.requests[1]!);
      assert.equal(result.callId, callId);
      assert.match(result.content, /\(invalid_input\): The call to write_note did not run: its input is not valid JSON \(.+\)/);
      const observation = runtime.getEvents().find((e) => e.type === 'observation');
      assert.equal(observation?.type === 'observation' && observation.observation.code, 'invalid_input');
    });

    it('a stream cut before its end, with half a tool call, is retried', async () => {
      const half = vendor.truncated({ toolCalls: [{ id: callId, name: 'write_note', fragments: ['{"path":"todo.md",'] }] });
      const rest = conversation([
        { toolCalls: [{ id: callId, name: 'write_note', input: { path: 'todo.md', text: 'milk' } }] },
        { text: ['Noted.'] },
      ]);
      server = await startModelServer((req, i) => (i === 0 ? { type: 'stream', body: half } : rest(req, i - 1)));
      const notes = new Map<string, string>();
      const runtime = new Runtime({
        provider: vendor.provider(server),
        registry: new Registry().addTool(noteTool),
        workspace: memoryWorkspace(notes),
      });
      await drain(runtime.send('Note that I need milk.'), runtime, []);

      assert.equal(runtime.getState().status, 'completed');
      assert.equal(runtime.getEvents().filter((e) => e.type === 'turn_retry').length, 1);
      assert.equal(server.requests.length, 3, 'the cut turn was asked again, then the next turn');
      assert.equal(notes.get('todo.md'), 'milk', 'the retried call ran once, with its whole input');
      assert.equal(runtime.getEvents().filter((e) => e.type === 'intent_proposed').length, 1);
    });

    it('a turn cut mid-stream is retried, and its abandoned text is not kept', async () => {
      const turn = { text: ['The answer ', 'is ', '42.'] };
      const body = vendor.stream(turn);
      server = await startModelServer([
        { type: 'stream', body, cutAt: body.indexOf('42') },
        { type: 'stream', body },
      ]);
      const runtime = new Runtime({ provider: vendor.provider(server), registry: new Registry() });
      await drain(runtime.send('What is the answer?'), runtime, []);
      const events = runtime.getEvents();
      assert.equal(events.filter((e) => e.type === 'turn_retry').length, 1);
      const state = runtime.getState();
      assert.equal(state.status, 'completed');
      const assistant = state.messages.filter((m) => m.type === 'assistant');
      assert.equal(assistant.length, 1);
      assert.equal(assistant[0]!.type === 'assistant' && assistant[0]!.text, 'The answer is 42.');
    });
  });
}
