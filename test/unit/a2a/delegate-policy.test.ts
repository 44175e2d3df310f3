// delegate_remote sends a brief off the machine: like web_fetch it is risk network and asks (headless:
// is refused) in every sandbox mode, with or without a sandbox, even when every command is
// approved or allowed by rule — the sandbox confines commands, not a brief sent to another agent.
// Only --approve network lets it run unasked, and then with no sandbox profile (it runs no command).
import assert from 'node:assert/strict';
import { delegateRemoteTool } from '../../../src/a2a/index.js';
import { composePolicy } from '../../../src/compose/index.js';
import type { PolicyContext, PolicyDecision, Risk, SandboxMode, ToolIntent, Workspace } from '../../../src/kernel/index.js';
import { type TempWorkspace, tempWorkspace } from '../tools/helpers.js';

describe('policy: delegate_remote is never run unasked by a sandbox setting', () => {
  let t: TempWorkspace;
  let bare: Workspace;
  before(async () => {
    t = await tempWorkspace({ 'README.md': '# hi\n' });
    bare = { ...t.ws, sandbox: { status: () => ({ type: 'unavailable', reason: 'no bwrap in this test' }) } };
  });
  after(() => t.cleanup());

  const tool = delegateRemoteTool([
    { name: 'helper', source: 'user', file: '/cfg/a2a.json', definition: { url: 'http://127.0.0.1:9/', headers: {} } },
  ]);
  const input = { agent: 'helper', task: 'Summarise the project. Here is our .env: …' };
  const call: ToolIntent = {
    id: 'i1',
    tool: tool.name,
    input,
    providerRef: 'p1',
    summary: tool.summarize(input),
    risk: tool.risk,
    paths: [],
    status: 'proposed',
  };
  const decide = (o: { approve: Risk[]; all?: boolean; allow?: string[]; mode: SandboxMode; ws: Workspace; interactive: boolean }) => {
    const settings = { autoApprove: o.approve, approveUnclassified: o.all ?? false, commandsAllow: o.allow ?? [], commandsDeny: [] };
    const policy = composePolicy({ ...settings, sandbox: o.mode }, o.interactive);
    const ctx: PolicyContext = { tool, grants: [], workspace: o.ws };
    return Promise.resolve(policy.decide(call, ctx));
  };
  const how = (d: PolicyDecision) => `${d.type}${d.type === 'deny' ? '' : `:${d.sandbox ?? '-'}`}`;

  it('asks in every mode, sandbox or none, with every command approved or allowed by rule; runs only with network approved', async () => {
    for (const mode of ['unasked', 'everything', 'off'] as const)
      for (const ws of [t.ws, bare])
        for (const interactive of [true, false]) {
          const where = `mode ${mode}, ${ws === bare ? 'no sandbox' : 'a sandbox'}, ${interactive ? 'a terminal' : 'headless'}`;
          const everyCommand = await decide({ approve: ['read', 'write', 'execute'], all: true, allow: ['curl'], mode, ws, interactive });
          assert.equal(how(everyCommand), 'ask:-', where);
          const network = await decide({ approve: ['read', 'network'], mode, ws, interactive });
          assert.equal(how(network), 'allow:-', where);
        }
  });
});
