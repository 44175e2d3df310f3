// Memory never holds a credential: every fake credential of the corpus (real formats, from
// test/support/secret-corpus.ts) is refused by the model's `remember` through the composed
// runtime, by `keel memory add` and by the extension's Remember…, and innocent text is kept.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { runMemoryCommand } from '../../../src/cli/memory-command.js';
import { composeRuntime } from '../../../src/compose/index.js';
import type { Observation } from '../../../src/kernel/index.js';
import { JsonlMemoryStore } from '../../../src/node/memory-store.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { memoryTextProblem } from '../../../src/host/memory/memory-edits.js';
import { drain, memoryWorkspace } from '../kernel/helpers.js';
import { innocentCorpus, secretCorpus } from '../../support/secret-corpus.js';

const corpus = secretCorpus();

describe('remember refuses every credential of the corpus, through the composed runtime', function () {
  this.timeout(30_000);
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-remember-corpus-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('answers each call "never hold secrets", keeps nothing, and logs and resends no secret', async () => {
    const store = JsonlMemoryStore.open({ user: path.join(dir, 'user.jsonl'), workspace: path.join(dir, 'ws.jsonl') });
    for (const sample of corpus) {
      // One task per sample: the runtime ends a task after the same call fails three times.
      const provider = new ScriptedProvider([toolTurn('remember', { text: sample.text }), textTurn('Done.')]);
      const runtime = composeRuntime({
        provider,
        settings: { maxTurns: 5, autoApprove: ['read', 'write'], commandsAllow: [], commandsDeny: [] },
        workspace: memoryWorkspace({}),
        trusted: () => true,
        interactive: false,
        memory: { store, taskId: 'task-corpus' },
      });
      const outs = await drain(runtime.send('remember this'), (id) => runtime.approve(id));
      const [obs] = outs.flatMap((o): Observation[] => (o.kind === 'event' && o.event.type === 'observation' ? [o.event.observation] : []));
      assert.equal(obs?.code, 'invalid_input', sample.name);
      assert.match(obs.content, /never hold secrets \(nothing was kept\)/, sample.name);
      assert.ok(!JSON.stringify(runtime.getEvents()).includes(sample.secret), `${sample.name} reached the log`);
      assert.ok(!JSON.stringify(provider.requests).includes(sample.secret), `${sample.name} went back to the model`);
    }
    assert.deepEqual(await store.list(), []);
  });

  it('keeps ordinary facts (the innocent corpus) when approved', async () => {
    const store = JsonlMemoryStore.open({ user: path.join(dir, 'user.jsonl'), workspace: path.join(dir, 'ws.jsonl') });
    const texts = innocentCorpus().slice(0, 10);
    const provider = new ScriptedProvider([...texts.map((text, i) => toolTurn('remember', { text }, '', `c${i}`)), textTurn('Done.')]);
    const runtime = composeRuntime({
      provider,
      settings: { maxTurns: 20, autoApprove: ['read'], commandsAllow: [], commandsDeny: [] },
      workspace: memoryWorkspace({}),
      trusted: () => true,
      interactive: true,
      memory: { store, taskId: 'task-innocent' },
    });
    await drain(runtime.send('remember these'), (id) => runtime.approve(id));
    assert.deepEqual((await store.list()).map((r) => r.text).sort(), [...texts].sort());
  });
});

describe('keel memory add and Remember… refuse every credential of the corpus', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-memadd-corpus-'));
    fs.mkdirSync(path.join(dir, 'ws'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const keel = async (...argv: string[]) => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (c) => (text += c));
    await runMemoryCommand(argv, { stdout: out, cwd: path.join(dir, 'ws'), env: { XDG_CONFIG_HOME: path.join(dir, 'config') } });
    return text;
  };

  for (const sample of corpus) {
    it(`refuses ${sample.name}`, async () => {
      // `--`: a key block starts with dashes, which would read as an option (see the CLI test for that case).
      const error = await keel('add', '--', sample.text).then(
        () => undefined,
        (e: Error) => e,
      );
      assert.match(error?.message ?? 'kept', /never hold secrets/);
      assert.ok(!error!.message.includes(sample.secret), 'the refusal does not quote it');
      assert.match(memoryTextProblem(sample.text) ?? 'accepted', /never hold secrets/);
    });
  }

  it('lists nothing afterwards', async () => {
    for (const s of corpus.slice(0, 5)) await keel('add', '--', s.text).catch(() => undefined);
    assert.equal(await keel('list'), 'No memories.\n');
  });
});
