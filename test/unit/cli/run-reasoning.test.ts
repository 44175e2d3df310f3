// `keel run --reasoning` turns a model's reasoning on as it takes it, and a real task keeps the
// turn's reasoning: Claude's extended thinking on a budget, its thinking block (signature and
// all) sent back before the tool_use it led to. --max-tokens-param names the token field for a
// model Keel cannot know; a value outside the choices is bad usage, named.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseRunArgs, UsageError } from '../../../src/cli/args.js';
import { spawnKeel } from '../../support/keel-cli.js';
import { conversation, startModelServer, type ModelServer } from '../../support/model-server.js';
import { scratchDir } from '../../support/scratch.js';

describe('keel run --reasoning and --max-tokens-param', function () {
  this.timeout(60_000);
  let server: ModelServer | undefined;
  afterEach(async () => server?.close());

  it('parses the choices and names the flag for anything else', () => {
    assert.equal(parseRunArgs(['run', 'go'], '/w').reasoning, 'default');
    assert.equal(parseRunArgs(['run', '--reasoning', 'high', 'go'], '/w').reasoning, 'high');
    assert.equal(parseRunArgs(['run', '--reasoning', '8000', 'go'], '/w').reasoning, 8000);
    assert.equal(
      parseRunArgs(['run', '--max-tokens-param', 'max_completion_tokens', 'go'], '/w').maxTokensParameter,
      'max_completion_tokens',
    );
    for (const [flag, bad] of [
      ['--reasoning', 'extreme'],
      ['--reasoning', '100'],
      ['--max-tokens-param', 'max_output_tokens'],
    ] as const)
      assert.throws(
        () => parseRunArgs(['run', flag, bad, 'go'], '/w'),
        (e) => e instanceof UsageError && e.message.includes(flag) && e.message.includes(bad),
      );
  });

  it('a task with Claude thinking on: the thinking block goes back, signed, before its tool_use', async () => {
    const dir = scratchDir('cli-reasoning');
    const work = path.join(dir, 'project');
    fs.mkdirSync(work);
    fs.writeFileSync(path.join(work, 'notes.txt'), 'the answer is 42\n');
    server = await startModelServer(
      conversation([
        {
          reasoning: ['The notes ', 'hold it.'],
          text: ['Reading.'],
          toolCalls: [{ id: 'toolu_R1', name: 'read_file', input: { path: 'notes.txt' } }],
        },
        { text: ['It is 42.'] },
      ]),
    );
    const env = { XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_CACHE_HOME: path.join(dir, 'cache') };
    const args = [
      'run',
      '--workspace',
      work,
      '--base-url',
      server.anthropicBaseURL,
      '--model',
      'claude-haiku-4-5',
      '--reasoning',
      'high',
      'what do the notes say?',
    ];
    const run = await spawnKeel(args, dir, env);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /It is 42\./);
    assert.equal(server.requests.length, 2);
    const [first, second] = server.requests.map((r) => r.body);
    assert.deepEqual(first.thinking, { type: 'enabled', budget_tokens: 24_000 });
    assert.deepEqual(second.thinking, { type: 'enabled', budget_tokens: 24_000 });
    const assistant = second.messages.find((m: { role: string }) => m.role === 'assistant');
    assert.deepEqual(
      assistant.content.map((b: { type: string }) => b.type),
      ['thinking', 'text', 'tool_use'],
    );
    assert.equal(assistant.content[0].thinking, 'The notes hold it.');
    assert.match(assistant.content[0].signature, /^sig-/);
    assert.match(JSON.stringify(second.messages.at(-1)), /the answer is 42/);
  });
});
