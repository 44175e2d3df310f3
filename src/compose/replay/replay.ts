// `keel replay LOG` and Keel: Replay Task: the recorded model output of a task, played through
// the current build over a workspace in the task's starting state (no model is called). The
// runtime is the one composeRuntime gives every task — its tools, skills, memory, rules and
// sub-agent limits — with the recorded provider in place of the model. Each step where the build
// now differs is reported: an edit that applies differently, another observation (timings and
// temp paths normalised), a changed policy decision. Sub-agents are replayed too: each frame
// plays its own recorded turns, and a difference names its frame. The log is data: every command
// runs in the OS sandbox over the copy, whatever was approved (replay-workspace.ts), and none runs
// where there is no sandbox; the policy the log's header records is only what verdicts are compared with.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  DEFAULT_MAX_TURNS,
  type MemoryAccess,
  type Observation,
  type RemoteUpdate,
  type RunPolicy,
  type Runtime,
  type RuntimeEvent,
  type SandboxStatus,
  type ToolIntent,
  type UserInput,
} from '../../kernel/index.js';
import { JsonlMemoryStore, memoryFilesIn } from '../../node/memory-store.js';
import { RecordedProvider, recordedTurns } from '../../providers/recorded.js';
import { composeRuntime } from '../runtime.js';
import { runtimeProcesses } from '../background.js';
import { replayWorkspace } from './replay-workspace.js';
import { normalise, recordedRoot } from './replay-normalise.js';
import { withoutProblemReport } from '../../tools/problems/problems-around.js';
import { eventsByFrame, frameName, matchFrame, ROOT_FRAME } from './replay-frames.js';
import { remoteUpdateOf, replayedRemoteTool } from './replay-remote.js';
import { recordedHooks } from './replay-hooks.js';

interface ReplayDifference {
  /** The model turn of the recorded call. */
  step: number;
  /** Seq of the recorded call's proposal. */
  seq: number;
  tool: string;
  /** The recorded sub-agent frame of the call and how to name it; absent: the task's own. */
  frame?: string;
  frameName?: string;
  kind: 'edit' | 'observation' | 'policy';
  recorded: string;
  replayed: string;
}

/** A recorded call that never finished (a crash, a stop, the end of --until): not compared. */
interface InterruptedCall {
  step: number;
  seq: number;
  tool: string;
  frame?: string;
  frameName?: string;
}

export interface ReplayReport {
  steps: number;
  calls: number;
  differences: ReplayDifference[];
  interrupted: InterruptedCall[];
  /** Whether the replay's commands could run (only ever in the sandbox). */
  sandbox: SandboxStatus;
  /** Recorded commands the replay did not run, for want of a sandbox: not compared. */
  notRun: InterruptedCall[];
}

type Verdict = 'allow' | 'ask' | 'deny';

/** The policy settings the task ran with (keel run's --approve and command rules). */
export type ReplayPolicySettings = RunPolicy;

const DEFAULT_POLICY: ReplayPolicySettings = { autoApprove: [], approveUnclassified: false, commandsAllow: [], commandsDeny: [] };

interface RecordedCall {
  intent: ToolIntent;
  seq: number;
  step: number;
  verdict: Verdict;
  /** An approval event was recorded (a call without one, and without a result, never reached the policy). */
  decided: boolean;
  approved: boolean;
  /** The reason the recording gave when the call was rejected, and whether nobody could answer. */
  rejectReason: string | undefined;
  unanswered?: boolean;
  observation: string | undefined;
  observationCode: string | undefined;
  /** The observation itself, and what a remote agent sent during the call (remote_update). */
  observed: Observation | undefined;
  updates: RemoteUpdate[];
}

export async function replayLog(
  events: readonly RuntimeEvent[],
  root: string,
  until = Number.POSITIVE_INFINITY,
  settings: ReplayPolicySettings = DEFAULT_POLICY,
): Promise<ReplayReport> {
  const kept = events.filter((e) => e.seq <= until);
  const recordedFrames = eventsByFrame(kept);
  // Replayed commands run only in the sandbox, over the copy, with no credential from this environment.
  const { workspace, sandbox } = await replayWorkspace(root);
  const verdicts = new Map<string, Verdict>();
  let runtime: Runtime | undefined;
  const recordedFrameOf = (frame: string) => matchFrame(recordedFrames, eventsByFrame(runtime!.getEvents()), frame);
  // The recorded call a replayed one stands for: the same place (position) in the matching frame.
  const recordedCallOf = (intentId: string): RecordedCall | undefined => {
    const proposed = runtime!.getEvents().find((e) => e.type === 'intent_proposed' && e.intent.id === intentId);
    const frame = proposed?.frame ?? ROOT_FRAME;
    const position = recordedCalls(eventsByFrame(runtime!.getEvents()).get(frame) ?? []).findIndex((c) => c.intent.id === intentId);
    const recordedFrame = recordedFrameOf(frame);
    return recordedFrame === undefined ? undefined : recordedCalls(recordedFrames.get(recordedFrame) ?? [])[position];
  };
  const remote = replayedRemoteTool(kept, recordedCallOf);
  const hooks = recordedHooks(kept, (id) => recordedCallOf(id)?.intent.id);
  const turnsOf = (frame: string | undefined) => recordedTurns(frame === undefined ? [] : (recordedFrames.get(frame) ?? []));
  const memory = scratchMemory(root);
  try {
    // The runtime every task gets, with the settings the task ran with (default: nothing
    // auto-approved, no command rules); the workspace's skills and custom agents (delegate
    // {agent}), not the user's; a memory of its own; questions answered as recorded.
    const runs = recordedRuns(recordedFrames.get(ROOT_FRAME)!);
    const provider = new RecordedProvider([], 'replay', (frame) => turnsOf(recordedFrameOf(frame)));
    const longest = Math.max(0, ...runs.map((r) => r.turns.length));
    runtime = composeRuntime({
      provider,
      settings: { ...settings, maxTurns: Math.max(DEFAULT_MAX_TURNS, longest) },
      workspace,
      trusted: () => true,
      interactive: true,
      skills: {},
      agents: {},
      memory: memory.access,
      ...(remote ? { tools: [remote] } : {}),
      ...(hooks ? { hookPort: hooks } : {}),
      onPolicyDecision: (intentId, decision) => verdicts.set(intentId, decision.type),
    });
    // Each message the user sent, in order, each run on the turns recorded after it.
    for (const run of runs) {
      provider.startRun(run.turns);
      for await (const out of runtime.send(run.input)) {
        if (out.kind !== 'event' || out.event.type !== 'approval_requested') continue;
        const call = recordedCallOf(out.event.intentId);
        if (call?.approved) runtime.approve(out.event.intentId);
        else
          runtime.reject(out.event.intentId, call?.rejectReason ?? 'Rejected in the recording.', { unanswered: call?.unanswered === true });
      }
    }
    const live = runtime;
    const kinds = { isEdit: (tool: string) => live.tool(tool)?.kind === 'edit', ran: ranHere(sandbox, live) };
    return { ...report(recordedFrames, eventsByFrame(runtime.getEvents()), verdicts, root, recordedFrameOf, kinds), sandbox };
  } finally {
    // What the recording started in the background ends with the replay, as with a task.
    if (runtime) await runtimeProcesses(runtime)?.stopAll();
    memory.remove();
  }
}

/**
 * The task's runs as the user started them: each message as it was sent (in its mode and as its
 * agent, both of which narrow the tools, so the calls) with the model turns recorded after it.
 */
function recordedRuns(own: readonly RuntimeEvent[]): { input: UserInput; turns: ReturnType<typeof recordedTurns> }[] {
  const starts = own.flatMap((e, i) => (e.type === 'user_message' ? [i] : []));
  return starts.map((start, n) => {
    const before = own.slice(0, start);
    const message = own[start] as RuntimeEvent & { type: 'user_message' };
    const mode = before.findLast((e) => e.type === 'mode_set');
    const agent = before.findLast((e) => e.type === 'agent_set');
    const input: UserInput = {
      text: message.text,
      ...(mode?.type === 'mode_set' ? { mode: mode.mode } : {}),
      // An agent_set without an agent is the user going back to no agent.
      ...(agent?.type === 'agent_set' ? { agent: agent.agent ?? null } : {}),
    };
    return { input, turns: recordedTurns(own.slice(start, starts[n + 1] ?? own.length)) };
  });
}

/** Whether a call of this tool ran here: without a sandbox no command did. */
function ranHere(sandbox: SandboxStatus, runtime: Runtime): (tool: string) => boolean {
  return (tool) => sandbox.type === 'ready' || runtime.tool(tool)?.kind !== 'command';
}

/**
 * The memory a replay's remember, recall and forget work on: empty, in a folder of its own that
 * is removed afterwards. The user's memories are never read or written by a replay.
 */
function scratchMemory(root: string): { access: MemoryAccess; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-replay-memory-'));
  return {
    access: { store: JsonlMemoryStore.open(memoryFilesIn(dir, root)), taskId: 'replay' },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** Every frame's calls, recorded against replayed, the task's own frame first. */
function report(
  recordedFrames: Map<string, RuntimeEvent[]>,
  replayedFrames: Map<string, RuntimeEvent[]>,
  verdicts: Map<string, Verdict>,
  root: string,
  recordedFrameOf: (frame: string) => string | undefined,
  kinds: { isEdit: (tool: string) => boolean; ran: (tool: string) => boolean },
): Omit<ReplayReport, 'sandbox'> {
  const replayedOf = new Map<string, string>();
  for (const frame of replayedFrames.keys()) {
    const match = recordedFrameOf(frame);
    if (match !== undefined && !replayedOf.has(match)) replayedOf.set(match, frame);
  }
  const allRecorded = [...recordedFrames.values()].flatMap((list) => recordedCalls(list));
  const oldRoot = recordedRoot(allRecorded, root);
  const out: Omit<ReplayReport, 'sandbox'> = { steps: 0, calls: allRecorded.length, differences: [], interrupted: [], notRun: [] };
  for (const [frame, list] of recordedFrames) {
    out.steps += recordedTurns(list).length;
    const replayed = replayedOf.get(frame);
    const now = replayedCalls(replayed === undefined ? [] : (replayedFrames.get(replayed) ?? []), verdicts);
    const named = frame === ROOT_FRAME ? {} : { frame, frameName: frameName(recordedFrames, frame) };
    const recorded = recordedCalls(list);
    const call = (r: RecordedCall) => ({ step: r.step, seq: r.seq, tool: r.intent.tool, ...named });
    for (const r of recorded.filter(interrupted)) out.interrupted.push(call(r));
    for (const r of recorded.filter((c) => !interrupted(c) && !kinds.ran(c.intent.tool))) out.notRun.push(call(r));
    for (const d of compare(recorded, now, root, oldRoot, kinds)) out.differences.push({ ...d, ...named });
  }
  return out;
}

/** The recording holds no finished result for the call: the run stopped (or the log ends) first. */
function interrupted(call: RecordedCall): boolean {
  return call.observation === undefined || call.observationCode === 'cancelled';
}

function recordedCalls(events: readonly RuntimeEvent[]): RecordedCall[] {
  const calls = new Map<string, RecordedCall>();
  let step = 0;
  for (const e of events) {
    if (e.type === 'turn_started') step = e.turn;
    if (e.type === 'intent_proposed')
      calls.set(e.intent.id, {
        intent: e.intent,
        seq: e.seq,
        step,
        verdict: 'deny',
        decided: false,
        approved: false,
        rejectReason: undefined,
        observation: undefined,
        observationCode: undefined,
        observed: undefined,
        updates: [],
      });
    const id = 'intentId' in e ? e.intentId : e.type === 'observation' ? e.observation.intentId : undefined;
    const call = id === undefined ? undefined : calls.get(id);
    if (!call) continue;
    if (e.type === 'approval_requested') [call.verdict, call.decided] = ['ask', true];
    if (e.type === 'intent_approved') {
      [call.approved, call.decided] = [true, true];
      if (e.auto && call.verdict !== 'ask') call.verdict = 'allow';
    }
    if (e.type === 'intent_rejected') [call.rejectReason, call.unanswered] = [e.reason, e.unanswered === true];
    if (e.type === 'observation') {
      [call.observation, call.observationCode] = [observationText(e.observation), e.observation.code];
      call.observed = e.observation;
    }
    if (e.type === 'remote_update') call.updates.push(remoteUpdateOf(e));
  }
  return [...calls.values()];
}

function replayedCalls(events: readonly RuntimeEvent[], verdicts: Map<string, Verdict>) {
  const calls = recordedCalls(events);
  // The policy's own answer for each call that reached it.
  for (const c of calls) c.verdict = verdicts.get(c.intent.id) ?? c.verdict;
  return calls;
}

function observationText(o: { ok: boolean; code?: string; content: string }): string {
  return `${o.ok ? 'ok' : (o.code ?? 'failed')}: ${o.content}`;
}

function compare(
  recorded: RecordedCall[],
  replayed: RecordedCall[],
  root: string,
  oldRoot: string | undefined,
  kinds: { isEdit: (tool: string) => boolean; ran: (tool: string) => boolean },
): ReplayDifference[] {
  const out: ReplayDifference[] = [];
  for (const [i, r] of recorded.entries()) {
    const now = replayed[i];
    const base = { step: r.step, seq: r.seq, tool: r.intent.tool };
    // A command not run for want of a sandbox has nothing to compare, not even the policy's
    // verdict (without a sandbox a command that ran unasked asks).
    if (!kinds.ran(r.intent.tool)) continue;
    const cut = interrupted(r);
    // A call the run stopped before it reached the policy has no recorded verdict to compare.
    if ((r.decided || !cut) && r.verdict !== now?.verdict)
      out.push({ ...base, kind: 'policy', recorded: r.verdict, replayed: now?.verdict ?? 'not reached' });
    if (cut) continue;
    // An edit's problems are the host's (the editor's language services, or headless checkers), not the step's.
    const before = normalise(withoutProblemReport(r.observation ?? ''), oldRoot ?? root);
    const after = normalise(withoutProblemReport(now?.observation ?? 'not reached'), root);
    if (before !== after)
      out.push({ ...base, kind: kinds.isEdit(r.intent.tool) ? 'edit' : 'observation', recorded: before, replayed: after });
  }
  return out;
}
