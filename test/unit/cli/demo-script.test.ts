// Issue 34, problem 3: the scripted demo says it is a scripted demo of one task, and follows the
// mode or agent it is given: a request that does not offer its tool gets "cannot", not a call to
// a tool it was not given; it reports only what the last result says.
import assert from 'node:assert/strict';
import { demoScript } from '../../../src/cli/demo-script.js';
import type { ModelEvent, ModelRequest, ToolSchema } from '../../../src/kernel/index.js';

const tool = (name: string): ToolSchema => ({ name, description: name, inputSchema: { type: 'object' } });
const request = (tools: string[], messages: ModelRequest['messages'] = [{ role: 'user', text: 'look around' }]): ModelRequest => ({
  system: '',
  messages,
  tools: tools.map(tool),
});
const play = demoScript;
const text = (events: ModelEvent[]) => events.flatMap((e) => (e.type === 'text_delta' ? [e.text] : [])).join('');
const calls = (events: ModelEvent[]) => events.filter((e) => e.type === 'tool_intent');

describe('the scripted demo (keel run --provider scripted)', () => {
  it('says it is a scripted demo of one task, then lists the files when it may', () => {
    const first = play(request(['list_files', 'read_file']), 0);
    assert.match(text(first), /scripted demo: it plays one task .* and calls no model/);
    assert.equal(calls(first).length, 1);
  });

  it('says it cannot when the mode or agent does not offer its tool, and calls nothing', () => {
    const first = play(request(['read_file']), 0);
    assert.deepEqual(calls(first), [], 'no call to a tool it was not given');
    assert.match(text(first), /does not offer list_files, so the demo cannot do its one task here/);
    assert.equal(first.at(-1)?.type, 'final');
  });

  it('reports only what the last result says', () => {
    const failed = play(
      request(
        ['list_files'],
        [
          { role: 'user', text: 'look around' },
          { role: 'assistant', text: '', toolCalls: [{ intentId: 'i1', providerRef: 'demo_1', tool: 'list_files', input: {} }] },
          {
            role: 'tool_result',
            intentId: 'i1',
            providerRef: 'demo_1',
            tool: 'list_files',
            content: 'Error (not_found): x',
            isError: true,
          },
        ],
      ),
      1,
    );
    assert.doesNotMatch(text(failed), /came back with/);
    assert.match(text(failed), /did not come back/);
  });
});
