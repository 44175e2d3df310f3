// The loop: prepare → infer → decide → act → observe → guard → next turn. Plain functions
// over the loop's contract (loop-host.ts); the runtime facade owns the log, the state and the signals.
import type { ModelError } from './contracts/model.js';
import type { PolicyDecision, RuntimeDecision } from './contracts/runtime.js';
import type { Grant } from './contracts/state.js';
import type { PreviewedEdit, ToolDefinition, ToolIntent, ToolResult } from './contracts/tool.js';
import type { SandboxProfile } from './contracts/sandbox.js';
import { infer, type TurnOutcome } from './infer.js';
import type { Proposal } from './intents.js';
import { executeIntent, observe } from './execute.js';
import { messageOf, shortenMiddle } from './text.js';
import { StepCheckpoint } from './checkpointing.js';
import type { LoopHost } from './loop-host.js';

/** How many times the same failing call may be made before the run stops. */
const REPEATED_FAILURE_LIMIT = 3;

export async function runLoop(h: LoopHost, carriedIntentIds: string[] = []): Promise<void> {
  const failures = new Map<string, number>();
  if (carriedIntentIds.length > 0 && (await act(h, carriedIntentIds, failures))) return;
  for (;;) {
    if (h.signal.aborted) return cancelRun(h);
    const lost = h.logFailure();
    if (lost) return stopUnrecorded(h, lost);
    if (h.state().turn >= h.maxTurns) {
      return h.emit({
        type: 'run_failed',
        error: { kind: 'max_turns', message: `Stopped after ${h.maxTurns} model turns (the max turns setting).` },
      });
    }
    const stop = h.turnGuard?.();
    if (stop) return h.emit({ type: 'run_failed', error: stop });
    h.emit({ type: 'turn_started', turn: h.state().turn + 1 });
    const outcome = await infer(h);
    const decision = decide(outcome);
    if (decision.type === 'finish') return h.emit({ type: 'run_finished', reason: 'completed' });
    if (decision.type === 'fail') {
      if (outcome.type === 'cancelled') return cancelRun(h);
      const error = (outcome as { error: ModelError }).error;
      return h.emit({ type: 'run_failed', error: { kind: error.kind, message: error.message } });
    }
    if (await act(h, decision.intentIds, failures, outcome.type === 'final' ? outcome.proposals : [])) return;
  }
}

/** What to do after a model turn. Approval needs are found per intent by the policy in `act`. */
function decide(outcome: TurnOutcome): RuntimeDecision {
  if (outcome.type === 'cancelled') return { type: 'fail', message: 'cancelled' };
  if (outcome.type === 'error') return { type: 'fail', message: outcome.error.message };
  if (outcome.proposals.length === 0) return { type: 'finish' };
  const ids = outcome.proposals.map((p) => p.intent.id);
  return outcome.proposals.some((p) => p.problem) ? { type: 'repair', intentIds: ids } : { type: 'call_tools', intentIds: ids };
}

/** Repairs, asks, runs. Returns true when the run has ended. */
async function act(h: LoopHost, ids: string[], failures: Map<string, number>, proposals: Proposal[] = []): Promise<boolean> {
  const problems = new Map(proposals.filter((p) => p.problem).map((p) => [p.intent.id, p]));
  for (const [id, { problem, refusal }] of problems) observe(h, id, problemResult(problem!, refusal));
  const runnable: string[] = [];
  for (const id of ids) if (!problems.has(id) && (await screen(h, id, runnable.length === 0))) runnable.push(id);
  const checkpoint = new StepCheckpoint(h.checkpoints);
  const ended = await runApproved(h, runnable, checkpoint);
  await recordCheckpoint(h, checkpoint);
  return ended || guardRepeatedFailures(h, ids, failures);
}

/** Logs what the step changed; a store that fails costs the checkpoint, never the run. */
async function recordCheckpoint(h: LoopHost, checkpoint: StepCheckpoint): Promise<void> {
  const event = await checkpoint.finish(h.state().turn).catch(() => undefined);
  if (event) h.emit(event);
}

/**
 * Waits for each decision, in order, and runs what was approved. Calls whose tool is
 * concurrency-safe (for this input) run beside each other, up to `maxParallel`; any other call
 * waits for those in flight and runs alone. Only execution overlaps: approvals stay in order.
 * Returns true when the run has ended.
 */
async function runApproved(h: LoopHost, runnable: string[], checkpoint: StepCheckpoint): Promise<boolean> {
  let inFlight: Promise<void>[] = [];
  const settle = async () => {
    await Promise.all(inFlight);
    inFlight = [];
  };
  for (const id of runnable) {
    const verdict = await h.decision(id);
    if (verdict === 'cancelled' || h.signal.aborted) break;
    if (verdict === 'rejected') {
      observe(h, id, rejection(h.rejectionReason(id)));
      continue;
    }
    const intent = h.state().intents[id]!;
    const tool = h.registry.tool(intent.tool)!;
    const beside = runsBeside(h, tool, intent.input);
    if (!beside || inFlight.length >= h.maxParallel) await settle();
    // Nothing changes the world before its approval is on disk: a log that cannot record stops the run.
    const lost = tool.readOnly
      ? undefined
      : await h.durable().then(
          () => undefined,
          (err: unknown) => err as Error,
        );
    if (lost) {
      await settle();
      observe(h, id, { ok: false, code: 'cancelled', content: 'Not run: the task log could not be written.' });
      stopUnrecorded(h, lost);
      return true;
    }
    const unkept = await checkpoint.beforeRun(intent, tool).then(
      () => undefined,
      (err: unknown) => messageOf(err),
    );
    if (unkept !== undefined) {
      const asked = await askWithoutCheckpoint(h, id, unkept);
      if (asked === 'cancelled') break;
      if (asked === 'rejected') continue;
    }
    const running = executeIntent(h, id);
    if (beside) inFlight.push(running);
    else await running;
    if (h.signal.aborted) break;
  }
  // Calls in flight answer for themselves (cancelled or not) before the run ends.
  await settle();
  if (!h.signal.aborted) return false;
  cancelRun(h);
  return true;
}

/**
 * The step's checkpoint could not be stored (a full disk): the change could not be undone, so a
 * person decides whether it runs — whatever the standing approvals say; with nobody to ask it is
 * refused. (A host that keeps no checkpoints never gets here.)
 */
async function askWithoutCheckpoint(h: LoopHost, id: string, why: string): Promise<'approved' | 'rejected' | 'cancelled'> {
  h.emit({
    type: 'approval_requested',
    intentId: id,
    reason: `No checkpoint could be kept before this change (${why}); if it runs, it cannot be restored. Run it without a checkpoint?`,
  });
  const verdict = await h.decision(id);
  if (verdict === 'cancelled' || h.signal.aborted) return 'cancelled';
  if (verdict === 'rejected') observe(h, id, rejection(h.rejectionReason(id)));
  return verdict;
}

/** A call that cannot run as proposed: a repair for the model, or the gate's refusal (a choice, not a mistake). */
function problemResult(problem: string, refusal: Proposal['refusal']): ToolResult {
  if (refusal) return { ok: false, code: refusal.code, summary: refusal.summary, content: problem, retryable: false };
  return { ok: false, code: 'invalid_input', content: problem, retryable: true };
}

/** What the model is told about a call that did not run for want of an approval. */
function rejection({ reason, unanswered }: { reason: string; unanswered: boolean }): ToolResult {
  if (unanswered)
    return {
      ok: false,
      code: 'permission_denied',
      summary: 'not run: nobody to approve it',
      content: `Not run: this call needs the user's approval and nobody can answer here (Keel runs without a terminal and the call is not pre-approved); no person rejected it.${reason ? ` Why it asks: ${reason}` : ''}`,
    };
  return { ok: false, code: 'rejected_by_user', content: `The user rejected this call.${reason ? ` Their reason: ${reason}` : ''}` };
}

function runsBeside(h: LoopHost, tool: ToolDefinition, input: unknown): boolean {
  if (!tool.concurrencySafe) return false;
  try {
    return tool.isConcurrencySafe?.(input, (name) => h.registry.tool(name)) ?? true;
  } catch {
    return false;
  }
}

/**
 * Runs the policy on an intent, then, before asking, the tool's own checks. Returns false when
 * it was denied or failed a check (and answered). `checkable`: no earlier call of this step will
 * run first (a read or a command could change what the check sees, whatever path it names).
 */
async function screen(h: LoopHost, id: string, checkable: boolean): Promise<boolean> {
  const intent = h.state().intents[id]!;
  if (intent.status === 'approved' || intent.status === 'running' || intent.status === 'awaiting_approval') {
    // Carried over from an interrupted run: ask again, never re-run blindly (how it would run
    // is the policy's answer now).
    const now = await askPolicy(h, intent);
    if (now.type === 'deny') {
      observe(h, id, { ok: false, code: 'permission_denied', content: `Not allowed: ${now.reason}` });
      return false;
    }
    const reason = 'Keel was interrupted before this ran; approve it again to run it.';
    h.emit({ type: 'approval_requested', intentId: id, reason, ...sandboxOf(now) });
    return true;
  }
  if (intent.status === 'rejected') return true;
  // The team's hooks speak first: a block means no card is shown; their allow approves nothing.
  const hooked = h.hooks ? await h.hooks.beforeTool(h, intent) : { type: 'go' as const };
  if (hooked.type === 'block') {
    observe(h, id, { ok: false, code: 'permission_denied', content: hooked.reason, retryable: false });
    return false;
  }
  const verdict = await askPolicy(h, intent);
  if (verdict.type === 'deny') {
    observe(h, id, { ok: false, code: 'permission_denied', content: `Not allowed: ${verdict.reason}` });
    return false;
  }
  if (verdict.type === 'allow' && hooked.type === 'ask')
    h.emit({ type: 'approval_requested', intentId: id, reason: hooked.reason, ...sandboxOf(verdict) });
  else if (verdict.type === 'allow') h.emit({ type: 'intent_approved', intentId: id, scope: 'once', auto: true, ...sandboxOf(verdict) });
  else {
    const early = checkable ? await precheck(h, intent) : undefined;
    if (early) {
      observe(h, id, early);
      return false;
    }
    h.emit({
      type: 'approval_requested',
      intentId: id,
      reason: verdict.reason,
      ...(verdict.command ? { command: verdict.command } : {}),
      ...sandboxOf(verdict),
    });
  }
  return true;
}

/** The decision's sandbox profile as an event field (absent when it has none, so old logs compare equal). */
export function sandboxOf(d: PolicyDecision): { sandbox?: SandboxProfile } {
  return d.type !== 'deny' && d.sandbox !== undefined ? { sandbox: d.sandbox } : {};
}

/** The tool's checks that need no user; a check that throws asks as usual (execute reports it). */
async function precheck(h: LoopHost, intent: ToolIntent): Promise<ToolResult | undefined> {
  const tool = h.registry.tool(intent.tool);
  if (!tool?.precheck || !h.workspace) return undefined;
  const offer = h.previews?.offer;
  const ctx = {
    workspace: h.workspace,
    fileVersions: h.state().fileVersions,
    ...(h.secrets ? { secrets: h.secrets } : {}),
    ...(offer ? { offerPreview: (previewed: PreviewedEdit) => offer.call(h.previews, intent.id, previewed) } : {}),
  };
  const result = await tool.precheck(intent.input, ctx).catch(() => undefined);
  return result && !result.ok ? { ...result, content: shortenMiddle(result.content, tool.outputBudgetTokens * 4) } : undefined;
}

/** The policy's verdict on a call, given this task's and this workspace's standing approvals (and `extra`). */
export async function askPolicy(
  h: Pick<LoopHost, 'registry' | 'taskGrants' | 'grantStore' | 'policy' | 'workspace'>,
  intent: ToolIntent,
  extra: readonly Grant[] = [],
): Promise<PolicyDecision> {
  const tool = h.registry.tool(intent.tool)!;
  const grants = [...h.taskGrants(), ...extra, ...(h.grantStore?.list() ?? [])];
  return h.policy.decide(intent, { tool, grants, workspace: h.workspace });
}

function guardRepeatedFailures(h: LoopHost, ids: string[], failures: Map<string, number>): boolean {
  const state = h.state();
  for (const id of ids) {
    const intent: ToolIntent | undefined = state.intents[id];
    if (!intent) continue;
    // A call that worked is progress (an edit between two failing builds): counting restarts.
    if (intent.status === 'done') {
      failures.clear();
      continue;
    }
    const key = `${intent.tool}\u0000${JSON.stringify(intent.input)}`;
    const count = (failures.get(key) ?? 0) + 1;
    failures.set(key, count);
    if (count >= REPEATED_FAILURE_LIMIT) {
      const message = `Stopped: the same ${intent.tool} call failed ${count} times.`;
      h.emit({ type: 'run_failed', error: { kind: 'repeated_failure', message } });
      return true;
    }
  }
  return false;
}

/** The task log failed: the run ends, its open calls answered, and says which file and why. */
function stopUnrecorded(h: LoopHost, error: Error): void {
  closeOpenIntents(h, 'Not run: the task log could not be written.');
  h.emit({
    type: 'run_failed',
    error: { kind: 'storage_failed', message: `${error.message} Keel stopped the run: it does not act on what it cannot record.` },
  });
}

/** Every call still open gets a "cancelled" answer, so the log stays consistent. */
function cancelRun(h: LoopHost): void {
  closeOpenIntents(h, 'Cancelled before it finished.');
  h.emit({ type: 'run_cancelled' });
}

export function closeOpenIntents(h: Pick<LoopHost, 'state' | 'emit'>, message: string): void {
  const state = h.state();
  const answered = new Set<string>();
  for (const m of state.messages) if (m.type === 'observation') answered.add(m.observation.intentId);
  for (const m of state.messages) {
    if (m.type !== 'assistant') continue;
    for (const id of m.intentIds) if (!answered.has(id)) observe(h, id, { ok: false, code: 'cancelled', content: message });
  }
}
