// The gate a workspace's own definitions pass (its MCP servers, its remote A2A agents): nothing is
// used in an untrusted workspace or before the user allowed the exact definition in a modal that
// shows it; a changed definition asks again. A fake memento and modal stand in for VS Code.
import assert from 'node:assert/strict';
import { a2aDefinitionKey, parseA2aConfig } from '../../../src/a2a/index.js';
import { a2aApprovalQuestion, offeredA2aAgents, waitingA2aAgents } from '../../../src/host/runtime/a2a-approval.js';
import { WorkspaceApprovals, type ApprovalMemento } from '../../../src/host/settings/workspace-approvals.js';

function memento(): ApprovalMemento & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return { data, get: <T>(k: string) => data.get(k) as T | undefined, update: async (k, v) => void data.set(k, v) };
}

function gate(o: { trusted: boolean; answer: boolean }) {
  const asked: { message: string; detail: string }[] = [];
  const warned: string[] = [];
  const state = memento();
  const env = { trusted: o.trusted, answer: o.answer };
  const approvals = new WorkspaceApprovals(state, 'keel.a2a.approved', () => env.trusted, {
    confirm: async (message, detail, accept) => {
      asked.push({ message, detail });
      return env.answer && accept === 'Allow Agent';
    },
    warn: (m) => void warned.push(m),
  });
  return { approvals, asked, warned, state, env };
}

const USER = JSON.stringify({ agents: { mine: { url: 'https://agents.example.test/mine' } } });
const WORKSPACE = (url: string) => JSON.stringify({ agents: { helper: { url, headers: { 'X-Team': 'a' }, description: 'reviews' } } });
const agentsOf = (workspaceUrl: string) => [
  ...parseA2aConfig(USER, '/home/u/.config/keel/a2a.json', 'user').agents,
  ...parseA2aConfig(WORKSPACE(workspaceUrl), '/w/.keel/a2a.json', 'workspace').agents,
];
const names = (list: { name: string }[]) => list.map((a) => a.name);

describe('host/workspace approvals (the gate for a workspace’s MCP servers and A2A agents)', () => {
  it('offers a workspace agent only after a yes in a modal naming its exact URL, and asks again when it changes', async () => {
    const g = gate({ trusted: true, answer: true });
    const agents = agentsOf('https://collector.example.test/a2a');
    assert.deepEqual(names(offeredA2aAgents(agents, g.approvals)), ['mine'], "the user's agent only, before any approval");
    const [helper] = waitingA2aAgents(agents, g.approvals);
    assert.equal(await g.approvals.ask(a2aDefinitionKey(helper!), a2aApprovalQuestion(helper!)), true);
    assert.equal(g.asked.length, 1);
    assert.match(g.asked[0]!.message, /"helper"/);
    assert.ok(g.asked[0]!.detail.includes('\nhttps://collector.example.test/a2a\n'), g.asked[0]!.detail);
    assert.match(g.asked[0]!.detail, /headers X-Team/);
    assert.deepEqual(names(offeredA2aAgents(agents, g.approvals)), ['mine', 'helper']);
    assert.ok(!JSON.stringify([...g.state.data.values()]).includes('collector'), 'the state holds a hash, not the URL');
    const moved = agentsOf('https://elsewhere.example.test/a2a');
    assert.deepEqual(names(offeredA2aAgents(moved, g.approvals)), ['mine'], 'a new URL is a new definition');
    assert.deepEqual(names(waitingA2aAgents(moved, g.approvals)), ['helper']);
  });

  it('a no keeps it out and remembers nothing', async () => {
    const g = gate({ trusted: true, answer: false });
    const [helper] = waitingA2aAgents(agentsOf('https://a.example.test/'), g.approvals);
    assert.equal(await g.approvals.ask(a2aDefinitionKey(helper!), a2aApprovalQuestion(helper!)), false);
    assert.equal(g.state.data.size, 0);
    assert.deepEqual(names(offeredA2aAgents(agentsOf('https://a.example.test/'), g.approvals)), ['mine']);
  });

  it('in an untrusted workspace: never asks, and an earlier approval does not count', async () => {
    const g = gate({ trusted: true, answer: true });
    const agents = agentsOf('https://a.example.test/');
    const [helper] = waitingA2aAgents(agents, g.approvals);
    await g.approvals.ask(a2aDefinitionKey(helper!), a2aApprovalQuestion(helper!));
    g.env.trusted = false;
    assert.deepEqual(names(offeredA2aAgents(agents, g.approvals)), ['mine']);
    const asked = g.asked.length;
    assert.equal(await g.approvals.ask(a2aDefinitionKey(helper!), a2aApprovalQuestion(helper!)), false);
    assert.equal(g.asked.length, asked, 'no modal');
    assert.match(g.warned[0]!, /trust the workspace/);
  });

  it('a damaged state (not a list of hashes) approves nothing', () => {
    const g = gate({ trusted: true, answer: true });
    g.state.data.set('keel.a2a.approved', { helper: true });
    assert.deepEqual(names(offeredA2aAgents(agentsOf('https://a.example.test/'), g.approvals)), ['mine']);
  });
});
