// `keel replay LOG`: the recorded model output of a task, played through the current build's
// tools and policy over a workspace in the task's starting state (no model is called). Each step
// where the build now differs is reported: an edit that applies differently, another
// observation (timings and temp paths normalised), a changed policy decision. Sub-agents are
// replayed too: each frame plays its own recorded turns, and a difference names its frame.
import {
  Runtime,
  type ApprovalPolicy,
  type Observation,
  type RemoteUpdate,
  type RunPolicy,
  type RuntimeEvent,
  type ToolIntent,
  type Workspace,
} from '../kernel/index.js';
import { RecordedProvider, recordedTurns } from '../providers/recorded.js';
import { composePolicy, composeRegistry, createSkillLibrary, secretDetector, workspaceSkillSource } from '../compose/index.js';
import { COMMAND_SANDBOX_RULES } from '../tools/index.js';
import { headlessWorkspace } from './headless-workspace.js';
import { normalise, recordedRoot } from './replay-normalise.js';
import { eventsByFrame, frameName, matchFrame, ROOT_FRAME } from './replay-frames.js';
import { remoteUpdateOf, replayedRemoteTool } from './replay-remote.js';

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
  // Replayed commands run as they would now: sandboxed where the policy says so, and with what a
  // run's commands get (no credential from this environment).
  const credentials = { detector: secretDetector(), passEnv: () => [] };
  const workspace = await headlessWorkspace(root, { web: false, credentials, sandbox: { rules: COMMAND_SANDBOX_RULES } });
  const verdicts = new Map<string, Verdict>();
  // The current build's policy as a host composes it, with the settings the task ran with
  // (default: nothing auto-approved, no command rules); questions are answered as recorded.
  const inner = composePolicy(settings, true);
  const policy: ApprovalPolicy = {
    async decide(intent, ctx) {
      const verdict = await inner.decide(intent, ctx);
      verdicts.set(intent.id, verdict.type);
      return verdict;
    },
  };
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
  const registry = await replayRegistry(workspace);
  const remote = replayedRemoteTool(kept, recordedCallOf);
  if (remote) registry.addTool(remote);
  const turnsOf = (frame: string | undefined) => recordedTurns(frame === undefined ? [] : (recordedFrames.get(frame) ?? []));
  runtime = new Runtime({
    provider: new RecordedProvider(turnsOf(ROOT_FRAME), 'replay', (frame) => turnsOf(recordedFrameOf(frame))),
    registry,
    workspace,
    policy,
    secretDetector: secretDetector(),
  });
  const first = recordedFrames.get(ROOT_FRAME)!.find((e) => e.type === 'user_message');
  for await (const out of runtime.send(first?.type === 'user_message' ? first.text : '')) {
    if (out.kind !== 'event' || out.event.type !== 'approval_requested') continue;
    const call = recordedCallOf(out.event.intentId);
    if (call?.approved) runtime.approve(out.event.intentId);
    else runtime.reject(out.event.intentId, call?.rejectReason ?? 'Rejected in the recording.', { unanswered: call?.unanswered === true });
  }
  const isEdit = (tool: string) => registry.tool(tool)?.kind === 'edit';
  return report(recordedFrames, eventsByFrame(runtime.getEvents()), verdicts, root, recordedFrameOf, isEdit);
}

/** Every frame's calls, recorded against replayed, the task's own frame first. */
function report(
  recordedFrames: Map<string, RuntimeEvent[]>,
  replayedFrames: Map<string, RuntimeEvent[]>,
  verdicts: Map<string, Verdict>,
  root: string,
  recordedFrameOf: (frame: string) => string | undefined,
  isEdit: (tool: string) => boolean,
): ReplayReport {
  const replayedOf = new Map<string, string>();
  for (const frame of replayedFrames.keys()) {
    const match = recordedFrameOf(frame);
    if (match !== undefined && !replayedOf.has(match)) replayedOf.set(match, frame);
  }
  const allRecorded = [...recordedFrames.values()].flatMap((list) => recordedCalls(list));
  const oldRoot = recordedRoot(allRecorded, root);
  const out: ReplayReport = { steps: 0, calls: allRecorded.length, differences: [], interrupted: [] };
  for (const [frame, list] of recordedFrames) {
    out.steps += recordedTurns(list).length;
    const replayed = replayedOf.get(frame);
    const now = replayedCalls(replayed === undefined ? [] : (replayedFrames.get(replayed) ?? []), verdicts);
    const named = frame === ROOT_FRAME ? {} : { frame, frameName: frameName(recordedFrames, frame) };
    const recorded = recordedCalls(list);
    for (const r of recorded.filter(interrupted)) out.interrupted.push({ step: r.step, seq: r.seq, tool: r.intent.tool, ...named });
    for (const d of compare(recorded, now, root, oldRoot, isEdit)) out.differences.push({ ...d, ...named });
  }
  return out;
}

/** The recording holds no finished result for the call: the run stopped (or the log ends) first. */
function interrupted(call: RecordedCall): boolean {
  return call.observation === undefined || call.observationCode === 'cancelled';
}

/** The tools of a run, with use_skill over the copy's `.keel/skills` (the user's skills are not part of a replay). */
async function replayRegistry(workspace: Workspace) {
  const skills = createSkillLibrary({
    sources: () => [workspaceSkillSource(workspace)],
    knownTools: () => registry.tools().map((t) => t.name),
  });
  const registry = composeRegistry(workspace, skills);
  await skills.load();
  return registry;
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
  isEdit: (tool: string) => boolean,
): ReplayDifference[] {
  const out: ReplayDifference[] = [];
  for (const [i, r] of recorded.entries()) {
    const now = replayed[i];
    const base = { step: r.step, seq: r.seq, tool: r.intent.tool };
    const cut = interrupted(r);
    // A call the run stopped before it reached the policy has no recorded verdict to compare.
    if ((r.decided || !cut) && r.verdict !== now?.verdict)
      out.push({ ...base, kind: 'policy', recorded: r.verdict, replayed: now?.verdict ?? 'not reached' });
    if (cut) continue;
    const before = normalise(r.observation ?? '', oldRoot ?? root);
    const after = normalise(now?.observation ?? 'not reached', root);
    if (before !== after) out.push({ ...base, kind: isEdit(r.intent.tool) ? 'edit' : 'observation', recorded: before, replayed: after });
  }
  return out;
}
