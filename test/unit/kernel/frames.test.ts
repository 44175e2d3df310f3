import assert from 'node:assert/strict';
import { replay, type Runtime, type RuntimeEvent } from '../../../src/kernel/index.js';
import { textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { drain } from './helpers.js';
import { calls, framed, hanging, makeFrameRuntime, routed, yielding } from './frame-helpers.js';

const frameStarts = (events: readonly RuntimeEvent[]) =>
  events.filter((e): e is Extract<RuntimeEvent, { type: 'frame_started' }> => e.type === 'frame_started');

describe('sub-agents (delegate)', () => {
  it("gives the parent the child's answer and changed files, never the child's turns", async () => {
    const { runtime, provider } = makeFrameRuntime(
      routed({
        ROOT: [toolTurn('delegate', { task: 'CHILD write b.txt', tools: ['read_note', 'edit_note'] }), textTurn('all done')],
        CHILD: [
          [
            { type: 'usage', usage: { inputTokens: 7, outputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 0 } },
            ...toolTurn('edit_note', { path: 'b.txt', text: 'x' }),
          ],
          textTurn('I wrote b.txt'),
        ],
      }),
    );
    await drain(runtime.send('ROOT task'), (id) => runtime.approve(id));
    const [start] = frameStarts(runtime.getEvents());
    assert.ok(start?.frame, 'the child runs in its own frame');
    const rootIntent = Object.values(runtime.getState().intents).find((i) => i.tool === 'delegate')!;
    assert.equal(start.parentIntentId, rootIntent.id, 'the frame names the call that started it');
    assert.deepEqual(start.tools, ['read_note', 'edit_note']);

    const childRequest = provider.requests.find((r) => r.messages[0]?.role === 'user' && r.messages[0].text.startsWith('CHILD'))!;
    assert.deepEqual(childRequest.messages.length, 1, 'the child starts from its brief alone');
    assert.ok(childRequest.system.includes('sub-agent'));
    assert.deepEqual(childRequest.tools.map((t) => t.name).sort(), ['edit_note', 'read_note']);

    const last = provider.requests.at(-1)!;
    const childCall = last.messages.some(
      (m) =>
        (m.role === 'assistant' && m.toolCalls.some((c) => c.tool === 'edit_note')) || (m.role === 'tool_result' && m.tool === 'edit_note'),
    );
    assert.ok(!childCall, "the parent's context holds no child call");
    const result = last.messages.at(-1)!;
    assert.ok(result.role === 'tool_result' && result.content.includes('I wrote b.txt') && result.content.includes('Files changed: b.txt'));

    const state = runtime.getState();
    const child = state.frames[start.frame]!;
    assert.equal(child.state.status, 'completed');
    assert.equal(child.state.usage.inputTokens, 7, 'usage broken out per frame');
    assert.equal(state.usage.inputTokens, 7, "the child's tokens count in the task's meter");
    assert.equal(state.messages.filter((m) => m.type === 'assistant').length, 2, "the root's own messages only");
    assert.deepEqual(replay(runtime.getEvents()), state, 'replaying the one log rebuilds every frame');
  });

  it('offers a child only read-only tools by default, and refuses a tool its parent lacks', async () => {
    const { runtime, provider } = makeFrameRuntime(
      routed({
        ROOT: [
          calls({ tool: 'delegate', input: { task: 'A look' } }, { tool: 'delegate', input: { task: 'B x', tools: ['run_anything'] } }),
          textTurn('ok'),
        ],
        A: [textTurn('looked')],
      }),
    );
    await drain(runtime.send('ROOT'));
    const childTools = provider.requests.find((r) => r.messages[0]?.role === 'user' && r.messages[0].text.startsWith('A '))!.tools;
    assert.deepEqual(childTools.map((t) => t.name).sort(), ['delegate', 'read_note']);
    const refused = runtime.getState().messages.filter((m) => m.type === 'observation')[1]!;
    assert.ok(refused.type === 'observation' && !refused.observation.ok && refused.observation.content.includes('"run_anything"'));
    assert.equal(frameStarts(runtime.getEvents()).length, 1, 'a refused child never starts');
  });

  it('guards depth: a grandchild has no delegate, and cannot be given it', async () => {
    const { runtime, provider } = makeFrameRuntime(
      routed({
        ROOT: [toolTurn('delegate', { task: 'CHILD go' }), textTurn('root done')],
        CHILD: [
          calls(
            { tool: 'delegate', input: { task: 'GRAND look' } },
            { tool: 'delegate', input: { task: 'GRAND2 x', tools: ['delegate'] } },
          ),
          textTurn('child done'),
        ],
        GRAND: [textTurn('grand done')],
      }),
    );
    await drain(runtime.send('ROOT'));
    const starts = frameStarts(runtime.getEvents());
    assert.deepEqual(
      starts.map((s) => s.depth),
      [1, 2],
    );
    assert.equal(starts[1]!.parentFrame, starts[0]!.frame);
    const grandTools = provider.requests.find((r) => r.messages[0]?.role === 'user' && r.messages[0].text.startsWith('GRAND '))!.tools;
    assert.ok(!grandTools.some((t) => t.name === 'delegate'), 'depth 2 cannot delegate');
    const child = runtime.getState().frames[starts[0]!.frame!]!.state;
    const refused = child.messages.find((m) => m.type === 'observation' && !m.observation.ok);
    assert.ok(refused?.type === 'observation' && refused.observation.content.includes('cannot delegate'));
  });

  it("stops a child at its turn limit, capped by the setting, and the task's child-turn budget", async () => {
    const loop = () => toolTurn('read_note', { path: 'a.txt' });
    const { runtime } = makeFrameRuntime(
      routed({
        ROOT: [toolTurn('delegate', { task: 'CHILD loop', maxTurns: 50 }), toolTurn('delegate', { task: 'SECOND loop' }), textTurn('ok')],
        CHILD: [loop(), loop(), loop(), loop()],
        SECOND: [loop(), loop(), loop(), loop()],
      }),
      { subagents: { maxTurns: 2, turnBudget: 3 } },
    );
    await drain(runtime.send('ROOT'));
    const [first, second] = frameStarts(runtime.getEvents());
    assert.equal(first!.maxTurns, 2, 'the setting caps what the model asked for');
    const frames = runtime.getState().frames;
    assert.equal(frames[first!.frame!]!.state.turn, 2);
    assert.equal(frames[first!.frame!]!.state.lastError?.kind, 'max_turns');
    assert.equal(frames[second!.frame!]!.state.turn, 1, 'the task-wide budget leaves the second child one turn');
    assert.match(frames[second!.frame!]!.state.lastError?.message ?? '', /budget of 3 turns/);
    assert.equal(runtime.getState().childTurns, 3);
    assert.equal(runtime.getState().status, 'completed', 'the parent goes on with the failure as an observation');
  });

  it('asks approval for a child call under the same policy, answered by intent id', async () => {
    const { runtime, workspace } = makeFrameRuntime(
      routed({
        ROOT: [toolTurn('delegate', { task: 'CHILD write', tools: ['write_note'] }), textTurn('ok')],
        CHILD: [toolTurn('write_note', { path: 'c.txt', text: 'y' }), textTurn('wrote')],
      }),
    );
    const asked: RuntimeEvent[] = [];
    await drain(runtime.send('ROOT'), (id) => {
      asked.push(runtime.getEvents().at(-1)!);
      assert.equal(runtime.approve(id), true);
    });
    assert.equal(asked.length, 1);
    assert.ok(asked[0]!.frame, 'the request is logged in the child frame');
    assert.equal(workspace.files['c.txt'], 'y');
    const approved = runtime.getEvents().find((e) => e.type === 'intent_approved' && !e.auto)!;
    assert.equal(approved.frame, asked[0]!.frame);
  });

  it('runs read-only children of one turn in parallel, and one after another at maxParallel 1', async () => {
    const script = () =>
      routed({
        ROOT: [calls(...['A', 'B', 'C'].map((k) => ({ tool: 'delegate', input: { task: `${k} explore` } }))), textTurn('ok')],
        A: [yielding(toolTurn('read_note', { path: 'a.txt' })), yielding(textTurn('a'))],
        B: [yielding(toolTurn('read_note', { path: 'a.txt' })), yielding(textTurn('b'))],
        C: [yielding(toolTurn('read_note', { path: 'a.txt' })), yielding(textTurn('c'))],
      });
    const overlap = async (maxParallel: number) => {
      const { runtime } = makeFrameRuntime(script(), { maxParallel });
      await drain(runtime.send('ROOT'));
      const events = runtime.getEvents();
      const lastStart = events.findLastIndex((e) => e.type === 'run_started' && e.frame);
      const firstEnd = events.findIndex((e) => e.type === 'run_finished' && e.frame);
      return lastStart < firstEnd;
    };
    assert.equal(await overlap(4), true, 'all three children start before any finishes');
    assert.equal(await overlap(1), false, 'the same script one at a time does not overlap');
  });

  it('cancel reaches a grandchild, and every frame ends cancelled', async () => {
    let release!: () => void;
    const until = new Promise<void>((r) => (release = r));
    let runtime!: Runtime;
    ({ runtime } = makeFrameRuntime(
      routed({
        ROOT: [toolTurn('delegate', { task: 'CHILD go' })],
        CHILD: [toolTurn('delegate', { task: 'GRAND go' })],
        GRAND: [
          hanging(() => {
            runtime.cancel();
            release();
          }, until),
        ],
      }),
    ));
    await drain(runtime.send('ROOT'));
    const state = runtime.getState();
    assert.equal(state.status, 'cancelled');
    const frames = Object.values(state.frames);
    assert.equal(frames.length, 2);
    for (const f of frames) assert.equal(f.state.status, 'cancelled', `frame at depth ${f.depth} cancelled`);
    assert.deepEqual(replay(runtime.getEvents()), state);
  });

  it('on resume after a reload with a child mid-run, ends the child and tells the parent, never re-running it', async () => {
    const first = makeFrameRuntime(
      routed({
        ROOT: [toolTurn('delegate', { task: 'CHILD write', tools: ['write_note'] })],
        CHILD: [toolTurn('write_note', { path: 'd.txt', text: 'z' })],
      }),
    );
    // The window "reloads" while the child waits for approval: only the logged events survive.
    let logged: RuntimeEvent[] = [];
    for await (const out of first.runtime.send('ROOT')) {
      if (out.kind === 'event' && out.event.type === 'approval_requested') {
        logged = [...first.runtime.getEvents()];
        break;
      }
    }
    const again = makeFrameRuntime(routed({ ROOT: [null as never, textTurn('I will delegate again later')] }), { events: logged });
    assert.equal(again.runtime.interrupted, true);
    await drain(again.runtime.resume(), () => assert.fail('nothing is asked again'));
    const state = again.runtime.getState();
    const child = Object.values(state.frames)[0]!;
    assert.equal(child.state.status, 'cancelled');
    const answer = state.messages.find((m) => m.type === 'observation')!;
    assert.ok(answer.type === 'observation' && answer.observation.code === 'cancelled' && /reloaded/.test(answer.observation.content));
    assert.equal(state.status, 'completed');
    assert.equal(again.workspace.files['d.txt'], undefined, "the child's pending write never ran");
    assert.deepEqual(replay(again.runtime.getEvents()), state);
  });

  it("keeps a child frame's events in the log with their frame id", async () => {
    const { runtime } = makeFrameRuntime(
      routed({ ROOT: [toolTurn('delegate', { task: 'CHILD hi' }), textTurn('ok')], CHILD: [textTurn('hello')] }),
    );
    await drain(runtime.send('ROOT'));
    const frame = frameStarts(runtime.getEvents())[0]!.frame!;
    const types = framed(runtime.getEvents(), frame).map((e) => e.type);
    assert.deepEqual(types, ['frame_started', 'user_message', 'run_started', 'turn_started', 'text_delta', 'model_final', 'run_finished']);
    const delta = framed(runtime.getEvents(), frame).find((e) => e.type === 'text_delta');
    assert.ok(delta && delta.type === 'text_delta' && delta.text === 'hello');
  });
});
