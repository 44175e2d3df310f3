// `keel run` on a model served by OpenAI's Responses API (gpt-5-codex), end to end through the
// real CLI against a local Responses stand-in on 127.0.0.1: the task's tool call runs, and the
// next request carries the turn's reasoning item back (encrypted content as it came), the call
// and its output under its call_id. --wire-api takes auto, chat or responses; anything else is
// bad usage, named.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseRunArgs, UsageError } from '../../../src/cli/args.js';
import { spawnKeel } from '../../support/keel-cli.js';
import { conversation, startModelServer, type ModelServer } from '../../support/model-server.js';
import { scratchDir } from '../../support/scratch.js';

describe('keel run on the Responses API', function () {
  this.timeout(60_000);
  let server: ModelServer | undefined;
  afterEach(async () => server?.close());

  it('--wire-api takes auto, chat or responses, and names itself for anything else', () => {
    assert.equal(parseRunArgs(['run', 'go'], '/w').wireApi, 'auto');
    assert.equal(parseRunArgs(['run', '--wire-api', 'responses', 'go'], '/w').wireApi, 'responses');
    assert.throws(
      () => parseRunArgs(['run', '--wire-api', 'completions', 'go'], '/w'),
      (e) => e instanceof UsageError && e.message.includes('--wire-api') && e.message.includes('completions'),
    );
  });

  it('a gpt-5-codex task with a tool call: the reasoning item and the call output go back', async () => {
    const dir = scratchDir('cli-responses');
    const work = path.join(dir, 'project');
    fs.mkdirSync(work);
    fs.writeFileSync(path.join(work, 'notes.txt'), 'the answer is 42\n');
    server = await startModelServer(
      conversation([
        {
          reasoning: ['The notes ', 'hold it.'],
          text: ['Reading.'],
          toolCalls: [{ id: 'call_N1', name: 'read_file', input: { path: 'notes.txt' } }],
        },
        { text: ['It is 42.'] },
      ]),
    );
    const env = { XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_CACHE_HOME: path.join(dir, 'cache') };
    const args = ['run', '--workspace', work, '--provider', 'openai', '--base-url', server.openaiBaseURL, '--model', 'gpt-5-codex'];
    const run = await spawnKeel([...args, '--reasoning', 'low', 'what do the notes say?'], dir, env);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /It is 42\./);
    assert.deepEqual(
      server.requests.map((r) => r.path),
      ['/v1/responses', '/v1/responses'],
    );
    const [first, second] = server.requests.map((r) => r.body);
    for (const body of [first, second]) {
      assert.equal(body.store, false);
      assert.deepEqual(body.include, ['reasoning.encrypted_content']);
      assert.deepEqual(body.reasoning, { summary: 'auto', effort: 'low' });
    }
    const items = second.input.slice(1);
    // The item's id is the one the stand-in gave it in the first reply.
    assert.match(items[0].id, /^rs_resp_test_\d+$/);
    assert.deepEqual(items.slice(0, 3), [
      {
        type: 'reasoning',
        id: items[0].id,
        summary: [{ type: 'summary_text', text: 'The notes hold it.' }],
        encrypted_content: `enc:${Buffer.from('The notes hold it.').toString('base64')}`,
      },
      { role: 'assistant', content: 'Reading.' },
      { type: 'function_call', call_id: 'call_N1', name: 'read_file', arguments: '{"path":"notes.txt"}' },
    ]);
    assert.equal(items[3].type, 'function_call_output');
    assert.equal(items[3].call_id, 'call_N1');
    assert.match(items[3].output, /the answer is 42/);
  });
});
