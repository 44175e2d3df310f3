// The loop's contract: what the runtime (or a sub-agent's frame) hands the loop's plain functions
// (loop.ts, infer.ts, intents.ts, execute.ts). It lives apart from them so they depend on it and
// not on each other, and it reads in four parts: the run's settings, the ports the run acts
// through, the log it writes, and the approvals it waits on.
import type { ConversationState, Grant } from './contracts/state.js';
import type { ModelProvider } from './contracts/model.js';
import type { RunError, RuntimeEventInput } from './contracts/events.js';
import type { ApprovalPolicy, GrantStore, RuntimeOutput } from './contracts/runtime.js';
import type { FrameRunner } from './contracts/frames.js';
import type { EditPreviewSource, VisibilityContext } from './contracts/tool.js';
import type { Workspace } from './contracts/workspace.js';
import type { MemoryAccess } from './contracts/memory.js';
import type { SecretDetector } from './contracts/secrets.js';
import type { Checkpoints } from './contracts/checkpoints.js';
import type { Registry } from './registry.js';
import type { RepoMapBuilder } from './runtime-options.js';
import type { TaskHooks } from './hooks.js';
import type { StreamWatcher } from './stream-watch.js';

/** The run's settings: fixed for the run, read by every step. */
interface LoopConfig {
  readonly system: string;
  readonly budgetTokens: number;
  readonly maxTurns: number;
  /** How many concurrency-safe calls of one turn may run at once (1: one after another). */
  readonly maxParallel: number;
  readonly visibility: VisibilityContext;
  readonly signal: AbortSignal;
  /** A guard beyond max turns (a child's share of the task's child-turn budget). */
  turnGuard?(): RunError | undefined;
}

/** What the run acts through: the model, the tools and the machine's ports. */
interface LoopPorts {
  readonly provider: ModelProvider;
  readonly registry: Registry;
  readonly workspace: Workspace | undefined;
  /** Where each step's prior file content is kept; no checkpoints when absent. */
  readonly checkpoints?: Checkpoints;
  readonly memory?: MemoryAccess;
  /** The previews the host showed for edit calls (see ToolContext.previewed). */
  readonly previews?: EditPreviewSource | undefined;
  /** The host's secret detector, for tools that refuse or check text (remember). */
  readonly secrets?: SecretDetector | undefined;
  /** The frame machinery for this frame's tools (delegate); absent: no sub-agents. */
  readonly frames?: FrameRunner;
  /** Builds the repo map of the stable prefix; absent: none (a child frame, a host without one). */
  readonly repoMap?: RepoMapBuilder | undefined;
  /** The task's hooks (PreToolUse before the policy, PostToolUse on the result); absent: none. */
  readonly hooks?: TaskHooks | undefined;
  /** Watches each model stream for silence (the stall notice, the idle timeout, the user's Retry). */
  readonly streamWatch: StreamWatcher;
}

/** The log the run writes and the state folded from it. */
interface LoopLog {
  state(): ConversationState;
  emit(event: RuntimeEventInput): void;
  output(out: RuntimeOutput): void;
  newId(): string;
  /** Why the task log stopped recording (a full disk), or undefined while it records. */
  logFailure(): Error | undefined;
  /** Makes every event so far durable; rejects when the log cannot record them. */
  durable(): Promise<void>;
  /** True once after the user asked to fold the context (consumed by the next prepare). */
  takeFoldRequest(): boolean;
}

/** The approvals the run decides by and waits on. */
interface LoopApprovals {
  readonly policy: ApprovalPolicy;
  readonly grantStore: GrantStore | undefined;
  /** Standing approvals for this task, whichever frame they were given in. */
  taskGrants(): readonly Grant[];
  /** Resolves when the intent is approved or rejected, or the run is cancelled. */
  decision(intentId: string): Promise<'approved' | 'rejected' | 'cancelled'>;
  /** Why the call was rejected, and whether nobody could answer (a headless run) rather than a person saying no. */
  rejectionReason(intentId: string): { reason: string; unanswered: boolean };
}

/** The whole contract: a sub-agent's frame is its parent's with a few members replaced. */
export interface LoopHost extends LoopConfig, LoopPorts, LoopLog, LoopApprovals {}
