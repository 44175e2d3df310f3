// RuntimeEvent: the append-only log of facts. State is folded from it; nothing else is the
// source of truth. Every event carries its sequence number, run id and time.
import { z } from 'zod';
import { MODEL_KEPT_REASONS, ModelErrorKindSchema, ModelErrorSchema, ReasoningSchema, StopReasonSchema, UsageSchema } from './model.js';
import { ObservationSchema, RiskSchema, ToolIntentSchema } from './tool.js';
import { CheckpointFileSchema } from './checkpoints.js';
import { AttachmentSchema } from './attachments.js';
import { SandboxModeSchema, SandboxProfileSchema } from './sandbox.js';
import { AgentModeSchema } from './todos.js';
import { AgentProfileSchema } from './agents.js';
import { HookRunSchema } from './hooks.js';

export const LOG_FORMAT_VERSION = 1;

/**
 * The approvals and command rules a run was started with, as its log's header records them:
 * a replay decides under the same settings unless told otherwise.
 */
export const RunPolicySchema = z.object({
  autoApprove: z.array(RiskSchema),
  /** Commands of every class but dangerous run unasked (keel run --approve all). */
  approveUnclassified: z.boolean(),
  /** remember and forget run unasked (--approve memory, or all). */
  autoApproveMemory: z.boolean().optional(),
  commandsAllow: z.array(z.string()),
  commandsDeny: z.array(z.string()),
  /** Which commands ran in the OS sandbox (keel run --sandbox); absent in logs written before it was recorded. */
  sandbox: SandboxModeSchema.optional(),
});
export type RunPolicy = z.infer<typeof RunPolicySchema>;

/** Why a run failed: a model error, or one of the loop's guards. */
const RunErrorSchema = z.object({
  /** storage_failed: the task log could not be written, so the run stopped. */
  kind: z.union([ModelErrorKindSchema, z.enum(['max_turns', 'repeated_failure', 'internal', 'storage_failed'])]),
  message: z.string(),
});
export type RunError = z.infer<typeof RunErrorSchema>;

/** Who wrote an episode note: the model, or Keel's deterministic fallback. */
const FoldSourceSchema = z.enum(['model', 'fallback']);
export type FoldSource = z.infer<typeof FoldSourceSchema>;

const ApprovalScopeSchema = z.enum(['once', 'task', 'workspace']);
export type ApprovalScope = z.infer<typeof ApprovalScopeSchema>;

const ImageSchema = z.object({
  mediaType: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
  data: z.string(),
});

/**
 * `frame`: set on the events of a sub-agent's run (a child frame); absent on the task's own
 * (the root frame). The frame's `frame_started` names its parent intent and parent frame.
 */
const e = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ type: z.literal(type), seq: z.number(), runId: z.string(), time: z.number(), frame: z.string().optional(), ...shape });

export const RuntimeEventSchema = z.discriminatedUnion('type', [
  /** `hookContext`: what the task's hooks added for the model when it was sent (shown to the model after the text). */
  e('user_message', {
    text: z.string(),
    images: z.array(ImageSchema).optional(),
    attachments: z.array(AttachmentSchema).optional(),
    hookContext: z.string().optional(),
  }),
  /**
   * `modelKept`: the custom agent named a model the task's provider cannot serve (`requested`, as
   * written), so `model` — the task's — ran instead.
   */
  e('run_started', {
    provider: z.string(),
    model: z.string(),
    modelKept: z.object({ requested: z.string(), reason: z.enum(MODEL_KEPT_REASONS) }).optional(),
  }),
  /** The user chose a mode (between runs): it narrows the tools of every run until the next one. */
  e('mode_set', { mode: AgentModeSchema }),
  /**
   * The user picked a custom agent for the task (absent: none): its whole profile is logged, so a
   * replay or reload sees what the model was told. Its tools narrow the task's as the mode's do.
   */
  e('agent_set', { agent: AgentProfileSchema.optional() }),
  /** A run picked up again from a log (after a reload or a crash). */
  e('run_resumed', {}),
  e('turn_started', { turn: z.number() }),
  e('text_delta', { text: z.string() }),
  e('reasoning_delta', { text: z.string() }),
  /** The turn's reasoning as its API must get it back (signatures, encrypted blocks): kept with the turn. */
  e('model_reasoning', { reasoning: ReasoningSchema }),
  e('usage', { usage: UsageSchema }),
  e('model_final', { stopReason: StopReasonSchema }),
  e('model_error', { error: ModelErrorSchema }),
  /** The partial turn since the last turn_started is abandoned; the turn will stream again. */
  e('turn_retry', { attempt: z.number(), delayMs: z.number(), error: ModelErrorSchema }),
  e('intent_proposed', { intent: ToolIntentSchema }),
  /**
   * `command`: the command line the call will run, when only the policy knew it (a detected test
   * command). `sandbox`: how a command runs once approved (absent: no sandbox, or not a command).
   */
  e('approval_requested', {
    intentId: z.string(),
    reason: z.string(),
    command: z.string().optional(),
    sandbox: SandboxProfileSchema.optional(),
  }),
  e('intent_approved', { intentId: z.string(), scope: ApprovalScopeSchema, auto: z.boolean(), sandbox: SandboxProfileSchema.optional() }),
  /** `unanswered`: nobody could answer (a run without a terminal): refused, not rejected by a person. */
  e('intent_rejected', { intentId: z.string(), reason: z.string(), unanswered: z.boolean().optional() }),
  e('intent_started', { intentId: z.string() }),
  e('observation', { observation: ObservationSchema }),
  /**
   * Finished steps folded into an episode note: every message committed by events fromSeq..toSeq
   * (the goal excepted) is replaced, in every later request, by the note. `steps` are the model
   * steps folded; tokens are the projected request before and after; `usage` is what writing
   * the note cost (counted in the task's usage).
   */
  e('context_folded', {
    fromSeq: z.number(),
    toSeq: z.number(),
    steps: z.object({ first: z.number(), last: z.number() }),
    note: z.string(),
    source: FoldSourceSchema,
    reason: z.enum(['high_water', 'requested']),
    tokensBefore: z.number(),
    tokensAfter: z.number(),
    usage: UsageSchema.optional(),
  }),
  /**
   * The repo map the stable prefix shows from now on (built when the task first runs and again
   * at each fold; '' when the workspace has nothing to map). `files` of `totalFiles` are shown.
   * A map that was not ready within the host's wait is logged pending, then again when it is.
   */
  e('repo_map_built', {
    text: z.string(),
    files: z.number(),
    totalFiles: z.number(),
    /** 'late': the map a start or fold could not wait for, arrived at a later turn. */
    reason: z.enum(['start', 'fold', 'late']),
    /** The map was not ready in time: no text yet, and the prefix says it comes later. */
    pending: z.boolean().optional(),
  }),
  /** Prior content of the files a step changed was kept (kind 'restore': what a restore overwrote). */
  e('checkpoint_recorded', {
    step: z.number(),
    kind: z.enum(['step', 'restore']),
    intentIds: z.array(z.string()),
    files: z.array(CheckpointFileSchema),
  }),
  /** The rules files whose text the task's system prompt carries (workspace-relative, prompt order). */
  e('rules_used', { paths: z.array(z.string()) }),
  /**
   * A sub-agent's run begins (logged in its own frame): the call that started it, the frame
   * that call belongs to (absent: the root), its depth (1 = a child of the task), its brief,
   * the tools it may use, its turn limit, and for a plan's task the task's id.
   */
  e('frame_started', {
    parentIntentId: z.string(),
    parentFrame: z.string().optional(),
    depth: z.number(),
    task: z.string(),
    tools: z.array(z.string()),
    maxTurns: z.number(),
    planTaskId: z.string().optional(),
    /** The custom agent it runs as (its name and file; its instructions are in the child's prompt). */
    agent: z.object({ name: z.string(), file: z.string(), model: z.string().optional() }).optional(),
  }),
  /**
   * What a remote agent (A2A) sent while a call to it ran — a status change, a message or an
   * artifact — logged as data for the view and the log; it never approves or runs anything here.
   */
  e('remote_update', {
    intentId: z.string(),
    agent: z.string(),
    kind: z.enum(['status', 'message', 'artifact']),
    state: z.string().optional(),
    text: z.string(),
    name: z.string().optional(),
    mediaType: z.string().optional(),
  }),
  /** A hook ran at one of the task's points (see contracts/hooks.ts); a block or context it gave is acted on beside it. */
  e('hook_ran', HookRunSchema.shape),
  e('run_finished', { reason: z.enum(['completed']) }),
  e('run_failed', { error: z.lazy(() => RunErrorSchema) }),
  e('run_cancelled', {}),
]);
export type RuntimeEvent = z.infer<typeof RuntimeEventSchema>;

/** Every way a run ends: what waits for a run to be over (the view, the diffs, Retry) reads this list. */
export const RUN_END_TYPES = ['run_finished', 'run_failed', 'run_cancelled'] as const satisfies readonly RuntimeEvent['type'][];

/** Whether an event of this type ends its run. */
export function endsRun(type: RuntimeEvent['type']): boolean {
  return (RUN_END_TYPES as readonly string[]).includes(type);
}

/** An event before the log stamps it. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type RuntimeEventInput = DistributiveOmit<RuntimeEvent, 'seq' | 'runId' | 'time'>;
