import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Runtime, type Observation, type RuntimeOutput, type VisibilityContext } from '../../../src/kernel/index.js';
import { composeRegistry, secretDetector } from '../../../src/compose/index.js';
import { JsonlMemoryStore } from '../../../src/node/memory-store.js';
import { textTurn, toolTurn, ScriptedProvider } from '../../../src/providers/scripted.js';
import { createPolicy, type PolicyOptions } from '../../../src/tools/policy/create-policy.js';
import { Presenter } from '../../../src/host/presenter/index.js';
import { drain, memoryWorkspace } from '../kernel/helpers.js';

describe('memory tools', () => {
  let dir: string;
  let store: JsonlMemoryStore;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-memtools-'));
    store = JsonlMemoryStore.open({ user: path.join(dir, 'user.jsonl'), workspace: path.join(dir, 'ws.jsonl') });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function run(calls: [string, unknown][], policy: PolicyOptions, files: Record<string, string> = { 'src/a.ts': 'one' }) {
    const workspace = memoryWorkspace(files);
    const script = [...calls.map(([tool, input], i) => toolTurn(tool, input, '', `c${i}`)), textTurn('Done.')];
    let n = 0;
    const runtime = new Runtime({
      provider: new ScriptedProvider(script),
      registry: composeRegistry(workspace),
      workspace,
      policy: createPolicy(policy),
      memory: { store, taskId: 'task-7' },
      secretDetector: secretDetector(),
      newId: () => `id${++n}`,
    });
    return { runtime, workspace };
  }

  const observations = (outs: RuntimeOutput[]): Observation[] =>
    outs.flatMap((o) => (o.kind === 'event' && o.event.type === 'observation' ? [o.event.observation] : []));
  const asked = (outs: RuntimeOutput[]) => outs.filter((o) => o.kind === 'event' && o.event.type === 'approval_requested').length;

  it('remember asks even with writes auto-approved, shows the exact text, and keeps provenance', async () => {
    const { runtime } = run([['remember', { text: 'Tests run with `npm test`.', tags: ['tests'], paths: ['src/a.ts'] }]], {
      autoApprove: ['read', 'write'],
    });
    const outs = await drain(runtime.send('go'), (id) => runtime.approve(id));
    assert.equal(asked(outs), 1);
    const intent = Object.values(runtime.getState().intents)[0]!;
    assert.equal(intent.summary, 'Remember (workspace): "Tests run with `npm test`."');
    const [record] = await store.list();
    assert.equal(record!.text, 'Tests run with `npm test`.');
    assert.deepEqual(record!.source.taskId, 'task-7');
    assert.equal(record!.source.author, 'model');
    assert.equal(record!.confidence, 'inferred');
    const started = runtime.getEvents().find((e) => e.type === 'intent_started')!;
    assert.equal(record!.source.eventSeq, started.seq, 'the source names the event that ran the call');
    assert.equal(record!.paths[0]!.path, 'src/a.ts');
    assert.match(record!.paths[0]!.hash!, /^[0-9a-f]{16}$/);
  });

  it('remember runs unasked when memory writes are auto-approved', async () => {
    const { runtime } = run([['remember', { text: 'Prefers tabs.', scope: 'user' }]], { autoApproveMemory: true });
    const outs = await drain(runtime.send('go'));
    assert.equal(asked(outs), 0);
    assert.equal((await store.list())[0]!.scope, 'user');
  });

  it('a rejected remember keeps nothing', async () => {
    const { runtime } = run([['remember', { text: 'x marks the spot' }]], {});
    await drain(runtime.send('go'), (id) => runtime.reject(id, 'no'));
    assert.deepEqual(await store.list(), []);
  });

  for (const [what, text] of [
    ['a provider key', 'the key is sk-ant-api03-abcdefghijklmnop'],
    ['a private key block', 'deploy key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1r\n-----END OPENSSH PRIVATE KEY-----'],
    ['a password', 'db password=hunter2'],
  ] as const) {
    it(`refuses text holding ${what} with a clear error, keeping nothing`, async () => {
      const { runtime } = run([['remember', { text }]], { autoApproveMemory: true });
      const outs = await drain(runtime.send('go'));
      const [obs] = observations(outs);
      assert.equal(obs!.ok, false);
      assert.equal(obs!.code, 'invalid_input');
      assert.match(obs!.content, /never hold secrets \(nothing was kept\)/);
      assert.deepEqual(await store.list(), []);
    });
  }

  it('refuses oversize text whole instead of cutting it', async () => {
    const { runtime } = run([['remember', { text: 'a'.repeat(1001) }]], { autoApproveMemory: true });
    const [obs] = observations(await drain(runtime.send('go')));
    assert.equal(obs!.code, 'invalid_input');
    assert.match(obs!.content, /1001 characters; a memory holds at most 1000/);
    assert.deepEqual(await store.list(), []);
  });

  it('recall runs unasked, ranks, and marks a memory stale when its file changed', async () => {
    const first = run([['remember', { text: 'The parser lives in src/a.ts and is hand written.', paths: ['src/a.ts'] }]], {
      autoApproveMemory: true,
    });
    await drain(first.runtime.send('go'));
    const second = run([['recall', { query: 'where is the parser' }]], {}, { 'src/a.ts': 'two' });
    const outs = await drain(second.runtime.send('go'));
    assert.equal(asked(outs), 0);
    const [obs] = observations(outs);
    assert.match(obs!.content, /STALE: src\/a\.ts changed since/);
    assert.match(obs!.content, /hand written/);
    const third = run([['recall', { query: 'parser' }]], {}, { 'src/a.ts': 'one' });
    assert.doesNotMatch(observations(await drain(third.runtime.send('go')))[0]!.content, /STALE/);
  });

  it('forget asks, then deletes; an unknown id is a clear not_found', async () => {
    await store.append({
      id: 'm1',
      text: 'old fact',
      scope: 'workspace',
      source: { taskId: '', eventSeq: 0, author: 'user' },
      confidence: 'stated',
      created: 1,
      lastUsed: 1,
      tags: [],
      paths: [],
    });
    const { runtime } = run(
      [
        ['forget', { id: 'm1' }],
        ['forget', { id: 'nope' }],
      ],
      { autoApprove: ['read', 'write'] },
    );
    const outs = await drain(runtime.send('go'), (id) => runtime.approve(id));
    assert.equal(asked(outs), 2);
    const [ok, missing] = observations(outs);
    assert.equal(ok!.ok, true);
    assert.equal(missing!.code, 'not_found');
    assert.deepEqual(await store.list(), []);
  });

  it('offers the memory tools only with a store, and only recall in Restricted Mode', () => {
    const registry = composeRegistry(memoryWorkspace({}));
    const names = (ctx: VisibilityContext) =>
      registry
        .visibleTools(ctx)
        .map((t) => t.name)
        .filter((n) => ['remember', 'recall', 'forget'].includes(n));
    assert.deepEqual(names({ trusted: true, hasDiagnostics: false }), []);
    assert.deepEqual(names({ trusted: true, hasDiagnostics: false, hasMemory: true }), ['remember', 'recall', 'forget']);
    assert.deepEqual(names({ trusted: false, hasDiagnostics: false, hasMemory: true }), ['recall']);
  });

  it("trust granted during a task offers remember at the next turn (the host's trust is read live)", async () => {
    let trusted = false;
    // The user grants trust while the model answers the first request.
    const provider = new ScriptedProvider((_request, turn) => {
      trusted = true;
      return turn === 0 ? toolTurn('recall', { query: 'tests' }) : textTurn('ok');
    });
    const runtime = new Runtime({
      provider,
      registry: composeRegistry(memoryWorkspace({})),
      workspace: memoryWorkspace({}),
      policy: createPolicy({}),
      memory: { store, taskId: 't' },
      visibility: {
        get trusted() {
          return trusted;
        },
        hasDiagnostics: false,
      },
    });
    await drain(runtime.send('go'));
    const offered = provider.requests.map((r) => r.tools.map((t) => t.name).filter((n) => n === 'remember' || n === 'recall'));
    assert.deepEqual(offered, [['recall'], ['remember', 'recall']]);
  });

  it('a call to remember without a store is refused as an unknown tool', async () => {
    const runtime = new Runtime({
      provider: new ScriptedProvider([toolTurn('remember', { text: 'x' }), textTurn('ok')]),
      registry: composeRegistry(memoryWorkspace({})),
      workspace: memoryWorkspace({}),
      policy: createPolicy({ autoApproveMemory: true }),
    });
    const [obs] = observations(await drain(runtime.send('go')));
    assert.match(obs!.content, /no tool named "remember"/);
  });
});

describe('remember: a refused secret never reaches the log, the card or the model', () => {
  const SECRETS = ['db password=hunter2-very-secret', 'token: sk-ant-api03-abcdefghijklmnopqrstu'];
  for (const secret of SECRETS) {
    it(`"${secret.slice(0, 12)}…" is refused before the intent is recorded`, async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-memsecret-'));
      try {
        const store = JsonlMemoryStore.open({ user: path.join(dir, 'user.jsonl'), workspace: path.join(dir, 'ws.jsonl') });
        const provider = new ScriptedProvider([toolTurn('remember', { text: secret, tags: ['db'] }), textTurn('Understood.')]);
        const runtime = new Runtime({
          provider,
          registry: composeRegistry(memoryWorkspace({})),
          workspace: memoryWorkspace({}),
          policy: createPolicy({}),
          memory: { store, taskId: 't' },
          secretDetector: secretDetector(),
        });
        const outs = await drain(runtime.send('go'), (id) => runtime.approve(id));
        assert.equal(outs.filter((o) => o.kind === 'event' && o.event.type === 'approval_requested').length, 0, 'nothing to approve');
        const obs = outs.flatMap((o) => (o.kind === 'event' && o.event.type === 'observation' ? [o.event.observation] : []));
        assert.equal(obs[0]!.code, 'invalid_input');
        assert.match(obs[0]!.content, /never hold secrets \(nothing was kept\)/);
        const secretPart = secret.split(/[=:] ?/)[1]!;
        assert.ok(!JSON.stringify(runtime.getEvents()).includes(secretPart), 'the log holds no part of the secret');
        const intent = Object.values(runtime.getState().intents)[0]!;
        assert.equal(intent.input, null);
        assert.equal(intent.summary, 'remember (refused)');
        const posted: unknown[] = [];
        const shown = new Presenter({ post: (m) => posted.push(m), kernel: () => runtime.getState() });
        shown.load(runtime.getEvents(), 'task-1');
        shown.postSnapshot();
        shown.dispose();
        assert.ok(posted.length > 0 && !JSON.stringify(posted).includes(secretPart), 'the card shows no part of it');
        assert.ok(!JSON.stringify(provider.requests[1]).includes(secretPart), 'the next request does not echo it back');
        assert.deepEqual(await store.list(), []);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
