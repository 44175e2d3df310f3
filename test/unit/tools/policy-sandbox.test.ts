// How the policy's decision says a command runs: unasked commands in the sandbox (read-only, or
// a test run that may write the workspace), approved ones as the user's shell would run them
// unless the user sandboxes everything; no sandbox available: every command asks. And the
// kernel carries the choice from the decision, through the log, to the tool that runs it.
import assert from 'node:assert/strict';
import { z } from 'zod';
import {
  type Grant,
  type PolicyContext,
  type PolicyDecision,
  Registry,
  Runtime,
  type SandboxMode,
  type ToolContext,
  type ToolDefinition,
  type Workspace,
} from '../../../src/kernel/index.js';
import { composePolicy } from '../../../src/compose/index.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { createPolicy } from '../../../src/tools/policy/create-policy.js';
import { drain } from '../kernel/helpers.js';
import { proposedIntent as intent, type TempWorkspace, tempWorkspace, toolNamed as tool } from './helpers.js';

describe('policy: which sandbox a command runs in', () => {
  let t: TempWorkspace;
  let bare: Workspace;
  before(async () => {
    t = await tempWorkspace({ 'README.md': '# hi\n', 'package.json': '{"scripts":{"test":"node --test"}}\n' });
    bare = { ...t.ws, sandbox: { status: () => ({ type: 'unavailable', reason: 'no bwrap in this test' }) } };
  });
  after(() => t.cleanup());

  const decide = (
    command: string,
    o: {
      approve?: ('read' | 'execute' | 'network' | 'write')[];
      all?: boolean;
      mode?: SandboxMode;
      allow?: string[];
      grants?: Grant[];
      ws?: Workspace;
    } = {},
  ): Promise<PolicyDecision> => {
    const policy = createPolicy({
      autoApprove: o.approve ?? ['read', 'execute'],
      approveUnclassified: o.all ?? false,
      commandRules: { allow: o.allow ?? [] },
      ...(o.mode ? { sandbox: o.mode } : {}),
    });
    const ctx: PolicyContext = { tool: tool('run_command'), grants: o.grants ?? [], workspace: o.ws ?? t.ws };
    return Promise.resolve(policy.decide(intent('run_command', { command }), ctx));
  };
  const how = (d: PolicyDecision) => `${d.type}${d.type === 'deny' ? '' : `:${d.sandbox ?? '-'}`}`;

  it('runs read-only commands read-only and test runs writable, in the sandbox, by default', async () => {
    assert.equal(how(await decide('cat README.md')), 'allow:read_only');
    assert.equal(how(await decide('npm test')), 'allow:test_run');
    assert.equal(how(await decide('make build', { approve: ['read'], allow: ['make'] })), 'allow:test_run', 'an allow rule');
  });

  it('runs what the user approves as their shell would, unless they sandbox everything', async () => {
    assert.equal(how(await decide('touch x')), 'ask:none');
    assert.equal(how(await decide('touch x', { mode: 'everything' })), 'ask:test_run');
    const grants: Grant[] = [{ tool: 'run_command', scope: 'task', command: 'touch x' }];
    assert.equal(how(await decide('touch x', { grants })), 'allow:none');
    assert.equal(how(await decide('make build', { all: true, approve: ['read', 'write', 'execute', 'network'] })), 'allow:none');
    assert.equal(how(await decide('make build', { all: true, approve: ['read', 'execute'], mode: 'everything' })), 'allow:test_run');
  });

  it('with no sandbox available, every command that would run unasked asks — unless every kind was approved', async () => {
    const d = await decide('cat README.md', { ws: bare });
    assert.equal(how(d), 'ask:none');
    assert.match(d.type === 'ask' ? d.reason : '', /No sandbox is available \(no bwrap in this test\)/);
    assert.equal(how(await decide('npm test', { ws: bare })), 'ask:none');
    assert.equal(how(await decide('make', { ws: bare, approve: ['read'], allow: ['make'] })), 'ask:none');
    assert.equal(how(await decide('cat README.md', { ws: bare, all: true })), 'allow:none');
    // Headless: nobody can answer, so the host rejects what asks.
    const headless = composePolicy({ autoApprove: ['read', 'execute'], commandsAllow: [], commandsDeny: [] }, false);
    const ctx: PolicyContext = { tool: tool('run_command'), grants: [], workspace: bare };
    assert.equal((await headless.decide(intent('run_command', { command: 'ls' }), ctx)).type, 'ask');
  });

  it('with the sandbox off, the classifier alone decides and nothing is sandboxed', async () => {
    assert.equal(how(await decide('cat README.md', { mode: 'off', ws: bare })), 'allow:none');
    assert.equal(how(await decide('npm test', { mode: 'off' })), 'allow:none');
  });

  it('web_fetch (read-only, risk network) asks in every sandbox mode unless network is approved, and gets no sandbox', async () => {
    const fetch = intent('web_fetch', { url: 'https://example.com/' });
    const ctx = (ws: Workspace): PolicyContext => ({ tool: tool('web_fetch'), grants: [], workspace: ws });
    for (const mode of ['unasked', 'everything', 'off'] as const)
      for (const ws of [t.ws, bare]) {
        const everyCommand = createPolicy({ autoApprove: ['read', 'write', 'execute'], approveUnclassified: true, sandbox: mode });
        assert.equal(how(await everyCommand.decide(fetch, ctx(ws))), 'ask:-', `mode ${mode}`);
        const network = createPolicy({ autoApprove: ['read', 'network'], sandbox: mode });
        assert.equal(how(await network.decide(fetch, ctx(ws))), 'allow:-', `mode ${mode}`);
      }
  });

  it('decides no sandbox for calls that run no command', async () => {
    const policy = createPolicy({ autoApprove: ['read'] });
    const d = await policy.decide(intent('read_file', { path: 'README.md' }), { tool: tool('read_file'), grants: [], workspace: t.ws });
    assert.equal(how(d), 'allow:-');
  });
});

describe('kernel: the sandbox profile travels from the decision to the tool', () => {
  const seen: (string | undefined)[] = [];
  const probe: ToolDefinition<{ n: number }> = {
    name: 'probe',
    kind: 'other',
    description: 'Records how it was asked to run.',
    input: z.object({ n: z.number() }),
    risk: 'execute',
    readOnly: false,
    concurrencySafe: false,
    outputBudgetTokens: 100,
    summarize: (i) => String(i.n),
    async execute(_input, ctx: ToolContext) {
      seen.push(ctx.sandbox);
      return { ok: true, content: 'ok' };
    },
  };
  const call = (n: number) => toolTurn('probe', { n });

  it('records it on the approval events and hands it to the tool, for auto and user approvals alike', async () => {
    seen.length = 0;
    const policy = {
      decide: (i: { input: unknown }): PolicyDecision =>
        (i.input as { n: number }).n === 1
          ? { type: 'allow', reason: 'auto', sandbox: 'read_only' }
          : { type: 'ask', reason: 'asks', sandbox: 'none' },
    };
    const runtime = new Runtime({
      provider: new ScriptedProvider([call(1), call(2), textTurn('done')]),
      registry: new Registry().addTool(probe),
      workspace: { root: '/ws' } as Workspace,
      policy,
    });
    await drain(runtime.send('go'), (id) => runtime.approve(id));
    assert.deepEqual(seen, ['read_only', 'none']);
    const approvals = runtime.getEvents().filter((e) => e.type === 'intent_approved');
    assert.deepEqual(
      approvals.map((e) => e.type === 'intent_approved' && [e.auto, e.sandbox]),
      [
        [true, 'read_only'],
        [false, 'none'],
      ],
    );
    const asked = runtime.getEvents().find((e) => e.type === 'approval_requested');
    assert.equal(asked?.type === 'approval_requested' && asked.sandbox, 'none');
  });
});
