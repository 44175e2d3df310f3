// Folding through each real adapter, against the model stand-in: the model writes the note on
// a request that extends the last turn's (so it reads from the cache), the requests after the
// fold carry goal + notes in the same order, and on Anthropic the cache breakpoint sits at the
// end of that stable prefix.
import assert from 'node:assert/strict';
import { z } from 'zod';
import { NOTE_PROMPT, Registry, Runtime, type ToolDefinition, type Workspace } from '../../../src/kernel/index.js';
import { createAnthropicProvider } from '../../../src/providers/anthropic.js';
import { createOpenAIProvider } from '../../../src/providers/openai.js';
import { conversation, startModelServer, type ModelServer, type RecordedRequest } from '../../support/model-server.js';
import type { WireTurn } from '../../support/model-turn.js';

const PAGE = 'lorem ipsum '.repeat(700);
const unused = () => Promise.reject(new Error('not used here'));
const workspace: Workspace = {
  root: '/ws',
  resolve: async (p) => p,
  readFile: async () => new TextEncoder().encode(PAGE),
  writeFile: unused,
  stat: async () => ({ type: 'file', size: PAGE.length, mtimeMs: 0 }),
  readDir: unused,
  search: unused,
  runProcess: unused,
};
const readPage: ToolDefinition<{ page: number }> = {
  name: 'read_page',
  kind: 'read',
  description: 'Reads a page.',
  input: z.object({ page: z.number() }),
  risk: 'read',
  readOnly: true,
  concurrencySafe: true,
  outputBudgetTokens: 4_000,
  summarize: (i) => `page ${i.page}`,
  async execute(input) {
    return { ok: true, content: `page ${input.page}: ${PAGE}` };
  },
};

const NOTE_MARK = NOTE_PROMPT.slice(0, 30);
const GOAL = 'Read the pages and tell me what they say.';

/** The text of every user-side block, in order, whichever API. */
function texts(req: RecordedRequest): string[] {
  return req.body.messages.flatMap((m: { role: string; content: unknown }) =>
    typeof m.content === 'string'
      ? [m.content]
      : ((m.content ?? []) as { type: string; text?: string }[]).flatMap((b) => (b.type === 'text' ? [b.text!] : [])),
  );
}

const isNote = (req: RecordedRequest) => texts(req).some((t) => t.startsWith(NOTE_MARK));

for (const api of ['anthropic', 'openai'] as const) {
  describe(`${api} provider: folding through the wire`, function () {
    this.timeout(20_000);
    let server: ModelServer | undefined;
    afterEach(async () => server?.close());

    it('asks the model for the note on a request extending the last turn, then sends goal + notes first', async () => {
      let turn = 0;
      server = await startModelServer(
        conversation((req): WireTurn => {
          if (isNote(req)) return { text: ['Pages 0–2 are lorem ipsum.'] };
          const page = turn++;
          return page < 6 ? { toolCalls: [{ name: 'read_page', input: { page } }] } : { text: ['All lorem ipsum.'] };
        }),
      );
      const options = {
        apiKey: 'k',
        model: api === 'anthropic' ? 'claude-haiku-4-5' : 'gpt-4o',
        contextWindow: 16_000,
        maxOutputTokens: 2_000,
      };
      const provider =
        api === 'anthropic'
          ? createAnthropicProvider({ ...options, baseURL: server.anthropicBaseURL })
          : createOpenAIProvider({ ...options, baseURL: server.openaiBaseURL });
      const runtime = new Runtime({ provider, registry: new Registry().addTool(readPage), workspace });
      for await (const _ of runtime.send(GOAL)) {
        // drained
      }
      assert.equal(runtime.getState().status, 'completed', runtime.getState().lastError?.message);
      const folds = runtime.getEvents().filter((e) => e.type === 'context_folded');
      assert.ok(folds.length >= 1);
      assert.ok(folds.every((f) => f.type === 'context_folded' && f.source === 'model' && f.note.startsWith('Pages 0–2 are lorem ipsum.')));

      const requests = server.requests;
      const at = requests.findIndex(isNote);
      const [before, note, after] = [requests[at - 1]!, requests[at]!, requests[at + 1]!];
      const strip = (x: unknown) => JSON.parse(JSON.stringify(x, (k, v) => (k === 'cache_control' ? undefined : v)));
      const prior = strip(before.body.messages);
      const asked = strip(note.body.messages);
      // Tool results and the instruction share the last user message on Anthropic.
      const kept = api === 'anthropic' ? prior.length - 1 : prior.length;
      assert.deepEqual(asked.slice(0, kept), prior.slice(0, kept), 'the note request extends the previous request');
      assert.ok(texts(after).includes(GOAL), 'the goal is sent as is');
      assert.ok(!texts(after).some((t) => t.startsWith(NOTE_MARK)), 'the instruction is not part of the task');
      const notes = texts(after).find((t) => t.includes('Pages 0–2 are lorem ipsum.'));
      assert.ok(notes, 'the note replaces the folded steps');
      if (api === 'anthropic') {
        const first = after.body.messages[0].content;
        assert.equal(first[0].text, GOAL);
        assert.deepEqual(first[1].cache_control, { type: 'ephemeral' }, 'the breakpoint ends the stable prefix');
        assert.ok(
          after.body.tools.every((t: { cache_control?: unknown }) => !t.cache_control),
          'none on the tool list',
        );
      } else {
        assert.equal(after.body.messages[0].role, 'system');
        assert.deepEqual(
          [after.body.messages[1].content, after.body.messages[2].role],
          [GOAL, 'user'],
          'system, goal, notes: the same order',
        );
      }
    });
  });
}
