import assert from 'node:assert/strict';
import { grantCovers, replay, type ApprovalPolicy, type ModelEvent } from '../../../src/kernel/index.js';
import { textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { drain, executions, makeRuntime, types } from './helpers.js';

describe('kernel runtime', () => {
  it('streams text deltas into the log and the output', async () => {
    const { runtime } = makeRuntime([
      [
        { type: 'text_delta', text: 'Hel' },
        { type: 'text_delta', text: 'lo' },
        { type: 'final', stopReason: 'stop' },
      ],
    ]);
    const out = await drain(runtime.send('hi'));
    assert.deepEqual(types(out), [
      'user_message',
      'run_started',
      'turn_started',
      'text_delta',
      'text_delta',
      'model_final',
      'run_finished',
    ]);
    const deltas = runtime.getEvents().filter((e) => e.type === 'text_delta');
    assert.deepEqual(
      deltas.map((e) => (e as { text: string }).text),
      ['Hel', 'lo'],
      'the log keeps each delta exactly',
    );
    const last = runtime.getState().messages.at(-1)!;
    assert.equal(last.type === 'assistant' && last.text, 'Hello', 'state coalesces adjacent deltas');
    assert.equal(runtime.getState().status, 'completed');
  });

  it('records a write intent as pending and does not execute it', async () => {
    const { runtime } = makeRuntime([toolTurn('write_note', { path: 'b.txt', text: 'x' })]);
    let pending = runtime.getState();
    for await (const out of runtime.send('write it')) {
      if (out.kind === 'event' && out.event.type === 'approval_requested') {
        pending = runtime.getState();
        break;
      }
    }
    const [id] = pending.pendingIntentIds;
    assert.ok(id);
    assert.equal(pending.intents[id]!.status, 'awaiting_approval');
    assert.equal(pending.status, 'waiting_for_approval');
    await runtime.idle();
    assert.equal(runtime.getState().status, 'cancelled', 'leaving the iteration early stops the run');
    assert.deepEqual(executions, []);
  });

  it('executes an approved intent exactly once and logs its observation', async () => {
    const { runtime, workspace } = makeRuntime([toolTurn('write_note', { path: 'b.txt', text: 'x' }), textTurn('done')]);
    await drain(runtime.send('write it'), (id) => runtime.approve(id));
    assert.deepEqual(executions, ['write_note b.txt']);
    assert.equal(workspace.files['b.txt'], 'x');
    const observations = runtime.getEvents().filter((e) => e.type === 'observation');
    assert.equal(observations.length, 1);
    assert.equal(runtime.getState().status, 'completed');
    assert.equal(runtime.getState().fileVersions['b.txt'], 'v1');
  });

  it('runs read-only tools without asking', async () => {
    const { runtime, provider } = makeRuntime([toolTurn('read_note', { path: 'a.txt' }), textTurn('ok')]);
    const out = await drain(runtime.send('read'));
    assert.ok(!types(out).includes('approval_requested'));
    assert.deepEqual(executions, ['read_note a.txt']);
    const result = provider.requests[1]!.messages.at(-1)!;
    assert.equal(result.role === 'tool_result' && result.content, 'alpha');
  });

  it('sends a rejection reason to the model in the next request', async () => {
    const { runtime, provider } = makeRuntime([toolTurn('write_note', { path: 'b.txt', text: 'x' }), textTurn('understood')]);
    await drain(runtime.send('write it'), (id) => runtime.reject(id, 'use c.txt instead'));
    assert.deepEqual(executions, []);
    const result = provider.requests[1]!.messages.at(-1)!;
    assert.equal(result.role, 'tool_result');
    assert.ok(result.role === 'tool_result' && result.isError && result.content.includes('use c.txt instead'));
    assert.equal(runtime.getState().status, 'completed');
  });

  it('shows the model only the visible tools', async () => {
    const { runtime, provider } = makeRuntime([textTurn('hi')], { visibility: { trusted: false, hasDiagnostics: false } });
    await drain(runtime.send('hello'));
    assert.deepEqual(
      provider.requests[0]!.tools.map((t) => t.name),
      ['read_note'],
    );
    assert.equal(provider.requests[0]!.tools[0]!.inputSchema.type, 'object');
  });

  it('turns a provider error into an event and a failed, clean state', async () => {
    const error = { kind: 'overloaded' as const, message: 'Overloaded', retryable: true };
    const { runtime } = makeRuntime([
      [
        { type: 'text_delta', text: 'part' },
        { type: 'error', error },
      ],
    ]);
    const out = await drain(runtime.send('go'));
    assert.deepEqual(types(out).slice(-2), ['model_error', 'run_failed']);
    const state = runtime.getState();
    assert.equal(state.status, 'failed');
    assert.equal(state.lastError?.kind, 'overloaded');
    assert.equal(state.draft, undefined);
    assert.deepEqual(state.pendingIntentIds, []);
  });

  it('survives a provider that throws', async () => {
    async function* breaks(): AsyncIterable<ModelEvent> {
      yield { type: 'text_delta', text: 'so far' };
      throw new Error('boom');
    }
    const { runtime } = makeRuntime([breaks()]);
    await drain(runtime.send('go'));
    assert.equal(runtime.getState().status, 'failed');
    assert.match(runtime.getState().lastError!.message, /boom/);
  });

  it('cancels mid-stream leaving the run cancelled and the log consistent', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* slow(): AsyncIterable<ModelEvent> {
      yield { type: 'text_delta', text: 'thinking…' };
      await gate;
      yield { type: 'tool_intent', providerRef: 'c1', tool: 'write_note', input: { path: 'x', text: 'y' } };
      yield { type: 'final', stopReason: 'tool_intent' };
    }
    const { runtime } = makeRuntime([slow()]);
    const out: string[] = [];
    for await (const o of runtime.send('go')) {
      if (o.kind !== 'event') continue;
      out.push(o.event.type);
      if (o.event.type === 'text_delta') {
        runtime.cancel();
        release();
      }
    }
    assert.equal(out.at(-1), 'run_cancelled');
    assert.ok(!out.includes('intent_proposed'), 'an unfinished turn proposes nothing');
    assert.equal(runtime.getState().status, 'cancelled');
    assert.deepEqual(replay(runtime.getEvents()), runtime.getState());
    const again = makeRuntime([textTurn('x')]).runtime;
    assert.equal(again.getState().status, 'idle');
  });

  it('cancels while waiting for approval and answers the open call', async () => {
    const { runtime } = makeRuntime([toolTurn('write_note', { path: 'b.txt', text: 'x' })]);
    await drain(runtime.send('go'), () => runtime.cancel());
    const state = runtime.getState();
    assert.equal(state.status, 'cancelled');
    const obs = state.messages.at(-1)!;
    assert.equal(obs.type === 'observation' && obs.observation.code, 'cancelled');
    assert.deepEqual(executions, []);
  });

  it('repairs invalid input and unknown tools instead of failing', async () => {
    const { runtime, provider } = makeRuntime([
      [
        { type: 'tool_intent', providerRef: 'c1', tool: 'write_note', input: { path: 3 } },
        { type: 'tool_intent', providerRef: 'c2', tool: 'delete_everything', input: {} },
        { type: 'final', stopReason: 'tool_intent' },
      ],
      textTurn('sorry, fixed'),
    ]);
    await drain(runtime.send('go'));
    assert.equal(runtime.getState().status, 'completed');
    const results = provider.requests[1]!.messages.filter((m) => m.role === 'tool_result');
    assert.equal(results.length, 2);
    assert.match(results[0]!.role === 'tool_result' ? results[0]!.content : '', /invalid_input.*path/s);
    assert.match(results[1]!.role === 'tool_result' ? results[1]!.content : '', /no tool named "delete_everything".*read_note/s);
    assert.deepEqual(executions, []);
  });

  it('stops after max turns', async () => {
    const { runtime } = makeRuntime(() => toolTurn('read_note', { path: 'a.txt' }), { maxTurns: 3 });
    await drain(runtime.send('loop forever'));
    const state = runtime.getState();
    assert.equal(state.status, 'failed');
    assert.equal(state.lastError?.kind, 'max_turns');
    assert.equal(executions.length, 3);
  });

  it('stops when the same failing call repeats three times', async () => {
    const { runtime } = makeRuntime(() => toolTurn('read_note', { path: 'missing.txt' }), {
      workspace: { ...makeRuntime([]).workspace, readFile: () => Promise.reject(new Error('ENOENT')) },
    });
    await drain(runtime.send('go'));
    assert.equal(runtime.getState().lastError?.kind, 'repeated_failure');
    assert.equal(executions.length, 3);
  });

  it('a failing call repeated with progress in between is not stopped', async () => {
    const build = toolTurn('read_note', { path: 'missing.txt' });
    const edit = (n: number) => toolTurn('write_note', { path: `b${n}.txt`, text: String(n) });
    const { runtime } = makeRuntime([build, edit(1), build, edit(2), build, edit(3), build, textTurn('fixed')], {
      workspace: { ...makeRuntime([]).workspace, readFile: () => Promise.reject(new Error('ENOENT')) },
    });
    await drain(runtime.send('go'), (id) => runtime.approve(id));
    assert.equal(runtime.getState().status, 'completed', runtime.getState().lastError?.message);
    assert.equal(executions.filter((e) => e.startsWith('read_note')).length, 4);
  });

  it('approving "for this task" covers later calls of the same tool', async () => {
    const { runtime } = makeRuntime([
      toolTurn('write_note', { path: 'b.txt', text: '1' }),
      toolTurn('write_note', { path: 'c.txt', text: '2' }),
      textTurn('done'),
    ]);
    let asked = 0;
    await drain(runtime.send('go'), (id) => {
      asked++;
      runtime.approve(id, 'task');
    });
    assert.equal(asked, 1);
    assert.deepEqual(executions, ['write_note b.txt', 'write_note c.txt']);
  });

  it('a standing approval does not answer a waiting call the policy would still ask about', async () => {
    // Two writes in one turn; the policy always asks for anything under .vscode/.
    const turn: ModelEvent[] = [
      { type: 'tool_intent', providerRef: 'c1', tool: 'write_note', input: { path: 'b.txt', text: '1' } },
      { type: 'tool_intent', providerRef: 'c2', tool: 'write_note', input: { path: '.vscode/tasks.json', text: '2' } },
      { type: 'final', stopReason: 'tool_intent' },
    ];
    const policy: ApprovalPolicy = {
      async decide(intent, ctx) {
        const path = (intent.input as { path: string }).path;
        if (path.startsWith('.vscode/')) return { type: 'ask', reason: 'protected' };
        return ctx.grants.some((g) => grantCovers(g, intent)) ? { type: 'allow', reason: 'granted' } : { type: 'ask', reason: 'a write' };
      },
    };
    const { runtime } = makeRuntime([turn, textTurn('done')], { policy });
    const asked: string[] = [];
    await drain(runtime.send('go'), (id) => {
      const path = (runtime.getState().intents[id]!.input as { path: string }).path;
      asked.push(path);
      if (path === 'b.txt') runtime.approve(id, 'task');
      else setTimeout(() => runtime.reject(id, 'not that one'), 20);
    });
    assert.deepEqual(asked, ['b.txt', '.vscode/tasks.json']);
    assert.deepEqual(executions, ['write_note b.txt']);
    const second = Object.values(runtime.getState().intents).find((i) => (i.input as { path: string }).path === '.vscode/tasks.json');
    assert.equal(second?.status, 'rejected');
  });

  it('resumes an interrupted run by asking for the pending intent again', async () => {
    const first = makeRuntime([toolTurn('write_note', { path: 'b.txt', text: 'x' })]);
    const outputs = first.runtime.send('go');
    for await (const o of outputs) if (o.kind === 'event' && o.event.type === 'approval_requested') break;
    await first.runtime.idle();
    // Simulate a reload: keep the log up to the approval request, drop the runtime.
    const cut = first.runtime.getEvents().findIndex((e) => e.type === 'approval_requested');
    const events = first.runtime.getEvents().slice(0, cut + 1);
    const second = makeRuntime([textTurn('finished')], { events });
    assert.ok(second.runtime.interrupted);
    assert.equal(second.runtime.getState().status, 'waiting_for_approval');
    const seen = await drain(second.runtime.resume(), (id) => second.runtime.approve(id));
    assert.ok(types(seen).includes('approval_requested'), 'the pending intent is asked again');
    assert.deepEqual(executions, ['write_note b.txt']);
    assert.equal(second.runtime.getState().status, 'completed');
  });

  it('never re-runs an approved-but-unfinished intent without asking', async () => {
    const first = makeRuntime([toolTurn('write_note', { path: 'b.txt', text: 'x' })]);
    const it = first.runtime.send('go')[Symbol.asyncIterator]();
    for (;;) {
      const { value } = await it.next();
      if (value.kind === 'event' && value.event.type === 'approval_requested') {
        first.runtime.approve(value.event.intentId);
        break;
      }
    }
    await first.runtime.idle();
    // Simulate a crash after the approval, before the tool finished.
    const cut = first.runtime.getEvents().findIndex((e) => e.type === 'intent_approved');
    const events = first.runtime.getEvents().slice(0, cut + 1);
    const second = makeRuntime([textTurn('ok')], { events });
    let asked = 0;
    await drain(second.runtime.resume(), (id) => {
      asked++;
      second.runtime.reject(id, 'not any more');
    });
    assert.equal(asked, 1);
    assert.deepEqual(executions, []);
  });
});
