// Credentials never reach a task's log or an error message: a failing command that prints every
// credential of the corpus, a provider whose error quotes one, and the CLI's own error output.
// The composed runtime (the one path both hosts use), real bash, the real JSONL log file.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { composeRuntime } from '../../../src/compose/index.js';
import { REDACTED, type ModelProvider } from '../../../src/kernel/index.js';
import { JsonlLogStore } from '../../../src/node/jsonl-store.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { spawnKeel } from '../../support/keel-cli.js';
import { scratchDir } from '../../support/scratch.js';
import { secretCorpus } from '../../support/secret-corpus.js';
import { COMMAND_SANDBOX_RULES } from '../../../src/tools/index.js';
import { drain } from '../kernel/helpers.js';

const corpus = secretCorpus();
const settings = { maxTurns: 20, autoApprove: ['read' as const], commandsAllow: ['sh fail.sh'], commandsDeny: [] };
const BATCH = 10;

describe('secrets out of task logs and error messages (the corpus)', function () {
  this.timeout(60_000);

  it('a failing command that prints them: the log file and the next request hold none of them', async () => {
    const dir = scratchDir('redact-commands');
    const root = path.join(dir, 'ws');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'fail.sh'), 'cat "batch-$1.txt"; exit 3\n');
    const batches = Math.ceil(corpus.length / BATCH);
    for (let b = 0; b < batches; b++)
      fs.writeFileSync(
        path.join(root, `batch-${b}.txt`),
        corpus
          .slice(b * BATCH, (b + 1) * BATCH)
          .map((s) => s.text)
          .join('\n'),
      );
    const logPath = path.join(dir, 'task.jsonl');
    const store = JsonlLogStore.open(logPath);
    const calls = Array.from({ length: batches }, (_, b) => toolTurn('run_command', { command: `sh fail.sh ${b}` }, '', `c${b}`));
    const provider = new ScriptedProvider([...calls, textTurn('Done.')]);
    const runtime = composeRuntime({
      provider,
      settings,
      // As in both hosts, the allowed command runs unasked in the OS sandbox (without one it would ask).
      workspace: await createNodeWorkspace(root, { sandbox: { rules: COMMAND_SANDBOX_RULES } }),
      trusted: () => true,
      interactive: false,
      store,
    });
    await drain(runtime.send('run the checks'));
    await store.close();
    const log = fs.readFileSync(logPath, 'utf8');
    assert.equal((log.match(/"type":"observation"/g) ?? []).length, batches, 'every command ran and failed');
    // Markers replace the credentials, the text around them stays (two samples share a span at most).
    assert.ok(log.split(REDACTED).length - 1 >= corpus.length - 2, `${log.split(REDACTED).length - 1} markers`);
    assert.match(log, /AccountName=demostore;AccountKey=\[redacted\];EndpointSuffix/);
    const sent = JSON.stringify(provider.requests);
    for (const s of corpus) {
      assert.ok(!log.includes(s.secret), `${s.name} is in the task log`);
      assert.ok(!sent.includes(s.secret), `${s.name} reached the model`);
    }
  });

  it('a provider error that quotes one: the log, the state and the failure hold none of them', async () => {
    const dir = scratchDir('redact-errors');
    for (const [i, sample] of corpus.entries()) {
      const logPath = path.join(dir, `task-${i}.jsonl`);
      const store = JsonlLogStore.open(logPath);
      const leaky: ModelProvider = {
        name: 'leaky',
        model: 'x',
        capabilities: { tools: true, vision: false, promptCaching: false, contextWindow: 100_000, maxOutputTokens: 1000 },
        async *stream() {
          yield* [];
          throw new Error(`upstream rejected the request: ${sample.text}`);
        },
      };
      const runtime = composeRuntime({ provider: leaky, settings, workspace: undefined, trusted: () => true, interactive: false, store });
      await drain(runtime.send('hi'));
      await store.close();
      const log = fs.readFileSync(logPath, 'utf8');
      assert.match(log, /upstream rejected the request/, sample.name);
      assert.ok(!log.includes(sample.secret), `${sample.name} is in the task log`);
      assert.ok(!(runtime.getState().lastError?.message ?? '').includes(sample.secret), sample.name);
    }
  });

  it("the CLI's error output: a pasted key read as an unknown option, an id that is a token", async () => {
    const cwd = scratchDir('redact-cli');
    const env = { XDG_CONFIG_HOME: path.join(cwd, 'config') };
    fs.mkdirSync(path.join(cwd, 'ws'));
    const key = corpus.find((s) => s.name === 'RSA private key')!;
    const added = await spawnKeel(['memory', 'add', '--workspace', path.join(cwd, 'ws'), key.text], cwd, env);
    assert.equal(added.code, 2, added.stderr);
    assert.match(added.stderr, /Unknown option/);
    assert.ok(!added.stderr.includes(key.secret.slice(0, 64)), 'no line of the key is echoed');
    const slack = corpus.find((s) => s.name === 'Slack bot token')!.secret;
    const forgot = await spawnKeel(['memory', 'forget', '--workspace', path.join(cwd, 'ws'), slack], cwd, env);
    assert.equal(forgot.code, 1);
    assert.match(forgot.stderr, /No memory has the id \[redacted\]/);
  });
});
