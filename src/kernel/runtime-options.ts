// What a Runtime is built from (the provider, the registry, the ports, the guards) and what a
// user sends it: the facade's inputs, kept apart from the facade so runtime.ts stays its behaviour.
import type { AgentProfile } from './contracts/agents.js';
import type { ConversationState } from './contracts/state.js';
import type { ImagePart, ModelProvider } from './contracts/model.js';
import type { RuntimeEvent } from './contracts/events.js';
import type { ApprovalPolicy, GrantStore, LogStore } from './contracts/runtime.js';
import type { EditPreviewSource, VisibilityContext } from './contracts/tool.js';
import type { Workspace } from './contracts/workspace.js';
import type { Checkpoints } from './contracts/checkpoints.js';
import type { Attachment } from './contracts/attachments.js';
import type { AgentMode } from './contracts/todos.js';
import type { MemoryAccess } from './contracts/memory.js';
import type { RepoMap } from './contracts/code-intel.js';
import type { SecretDetector } from './contracts/secrets.js';
import type { Registry } from './registry.js';
import type { HookPort } from './contracts/hooks.js';
import type { Timers } from './contracts/timers.js';

export interface RuntimeOptions {
  provider: ModelProvider;
  registry: Registry;
  workspace?: Workspace;
  policy?: ApprovalPolicy;
  grantStore?: GrantStore;
  /** Keeps each step's prior file content (outside the workspace); no checkpoints when absent. */
  checkpoints?: Checkpoints;
  store?: LogStore;
  /**
   * The system prompt, or how to build it: a builder runs once, when this runtime first runs
   * (given the state with the task's first message), and its text is kept for every later run,
   * so the prompt prefix stays byte-stable. The rules files it names are logged (`rules_used`).
   */
  system?: string | ((state: ConversationState) => Promise<BuiltSystemPrompt>);
  maxTurns?: number;
  contextBudgetTokens?: number;
  visibility?: VisibilityContext;
  /** A loaded log to continue from. */
  events?: readonly RuntimeEvent[];
  now?: () => number;
  newId?: () => string;
  /** API keys the host holds: removed from every error event logged. */
  secrets?: () => readonly string[];
  /**
   * Where text holds a credential: what the detector finds is removed from every error event
   * logged, and tools (remember) refuse text it flags. Without it only held keys are removed.
   */
  secretDetector?: SecretDetector;
  /** Memory for the memory tools; without it they are not offered. */
  memory?: MemoryAccess;
  /** Sub-agent guards: the cap on one child's turns and the child turns allowed across the task. */
  subagents?: { maxTurns: number; turnBudget: number };
  /** How many concurrency-safe calls of one turn run at once (default 4; 1 runs them one after another). */
  maxParallel?: number;
  /**
   * Builds the repo map of the stable prefix (the task's state gives its focus): asked when the
   * task first runs and at each fold, never between, so the prefix stays byte-stable.
   */
  repoMap?: RepoMapBuilder;
  /** The previews the host showed for edit calls (their diffs): a call that runs is handed its own. */
  previews?: EditPreviewSource;
  /** Runs the task's hooks (the kernel logs and acts on what they answer); absent: no hooks. */
  hooks?: HookPort;
  /** Silence on a model stream before the stall notice and before the turn is given up (stream-watch.ts). */
  streamWatch?: { stallMs?: number; idleTimeoutMs?: number };
  /** The clock the stream watch waits on (tests move it by hand); real timers when absent. */
  timers?: Timers;
}

/**
 * Builds the repo map for the task's prefix: at the start, at a fold, or (`late`) at a later turn
 * while the one asked for before is still pending. The host bounds how long it waits (a map not
 * ready in time comes back `pending`); for `late` it does not wait at all.
 */
export type RepoMapBuilder = (
  state: ConversationState,
  budgetTokens: number,
  signal: AbortSignal,
  reason: 'start' | 'fold' | 'late',
) => Promise<RepoMap | undefined>;

export interface BuiltSystemPrompt {
  text: string;
  /** The rules files whose text it carries, in prompt order. */
  rules: string[];
  /** The system prompt of a sub-agent (with the same rules); the kernel's default when absent. */
  childText?: string;
}

/**
 * `mode`: the mode to send it in (a mode_set event first when it differs); absent: the task's mode.
 * `agent`: the custom agent to send it as (an agent_set first when it differs); null: no agent any
 * more; absent: the task's.
 */
export type UserInput =
  | string
  | { text: string; images?: ImagePart[]; attachments?: Attachment[]; mode?: AgentMode; agent?: AgentProfile | null };
