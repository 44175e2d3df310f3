// ConversationState: folded from RuntimeEvents by the reducer, one event at a time.
import type { AgentProfile } from './agents.js';
import type { ImagePart, Reasoning, Usage } from './model.js';
import type { Observation, ToolIntent } from './tool.js';
import type { ApprovalScope, FoldSource, RunError } from './events.js';
import type { CheckpointFile } from './checkpoints.js';
import type { Attachment } from './attachments.js';
import type { AgentMode, TodoItem } from './todos.js';

/** A child frame's state, kept apart from its parent's: the same reducer folds it. */
export interface FrameRecord {
  id: string;
  parentIntentId: string;
  /** Absent: the task's root frame is the parent. */
  parentFrame: string | undefined;
  depth: number;
  task: string;
  tools: string[];
  maxTurns: number;
  planTaskId: string | undefined;
  state: ConversationState;
}

/** A run in progress: between its start and its end (finished, failed or cancelled). */
export type LiveRunStatus = 'running' | 'waiting_for_approval' | 'executing';
export type RunStatus = 'idle' | LiveRunStatus | 'completed' | 'failed' | 'cancelled';

// Keyed by the type, so a live status added above must be listed here to compile.
const LIVE: Record<LiveRunStatus, true> = { running: true, waiting_for_approval: true, executing: true };

export function isLiveStatus(status: RunStatus): status is LiveRunStatus {
  return Object.hasOwn(LIVE, status);
}

/** Each message keeps the seq of the event that committed it (what a fold's range refers to). */
export type StateMessage =
  /** `mode`: the mode the message was sent in, when not agent (the model is told it with the message). */
  | {
      type: 'user';
      seq: number;
      text: string;
      images?: ImagePart[];
      attachments?: Attachment[];
      mode?: Exclude<AgentMode, 'agent'>;
      /** What hooks added for the model when it was sent. */
      hookContext?: string;
    }
  /**
   * `step`: the model step it was, counted across the task (1, 2, …). `reasoning`: the reasoning
   * text as streamed; `reasoningBlocks`: the turn's reasoning as its API must get it back.
   */
  | {
      type: 'assistant';
      seq: number;
      step: number;
      text: string;
      reasoning: string;
      intentIds: string[];
      reasoningBlocks?: Reasoning;
    }
  | { type: 'observation'; seq: number; observation: Observation };

/** The assistant turn being streamed; committed to `messages` when the turn ends. */
export interface Draft {
  text: string;
  reasoning: string;
  intentIds: string[];
  reasoningBlocks: Reasoning | undefined;
}

export interface Grant {
  tool: string;
  /** For commands: the exact command line granted; absent means any input. */
  command?: string;
  /** For calls naming a `url` (web_fetch): the origin granted (scheme://host:port); no other. */
  origin?: string;
  scope: Exclude<ApprovalScope, 'once'>;
}

/** A file as the task ledger knows it. Ranges are 1-based, inclusive, merged, at `hash`. */
export interface LedgerRead {
  hash: string;
  total: number;
  ranges: [number, number][];
  /** The step of the last read. */
  step: number;
  /** The seq of the first read at this hash. */
  since: number;
  /** The last read that (with earlier reads at the same hash) covered the whole file. */
  whole?: { step: number; seq: number };
  /** The newest content hash Keel has seen (its own edits included); differs from `hash` after a change. */
  current: string;
  /** The step at which a call saw content this ledger did not expect (a change made outside Keel). */
  changedOutsideAt?: number;
}

interface LedgerEdit {
  edits: number;
  added: number;
  removed: number;
  created: boolean;
  step: number;
}

interface LedgerTest {
  passed: number;
  failed: number;
  ok: boolean;
  step: number;
}

interface LedgerCommand {
  command: string;
  exitCode: number | null;
  step: number;
}

/** What the task has established, folded from observations' facts: exact, and kept across folds. */
export interface Ledger {
  /** Model steps so far in the task. */
  step: number;
  reads: Readonly<Record<string, LedgerRead>>;
  edits: Readonly<Record<string, LedgerEdit>>;
  /** The last result per test command. */
  tests: Readonly<Record<string, LedgerTest>>;
  /** The most recent commands, oldest first. */
  commands: readonly LedgerCommand[];
  /** The to-do list as the last todo_write left it: a fold keeps it in the stable prefix. */
  todos: readonly TodoItem[];
}

export interface Fold {
  fromSeq: number;
  toSeq: number;
  steps: { first: number; last: number };
  note: string;
  source: FoldSource;
}

/** What later requests show instead of folded steps. */
interface ContextState {
  folds: readonly Fold[];
  /** Messages committed at or before this seq (the goal excepted) are folded; 0: none. */
  foldedThrough: number;
  /** The ledger as it stood at the last fold: the stable prefix shows this snapshot. */
  ledgerAtFold: Ledger | undefined;
  /** The repo map in the stable prefix (rebuilt only at a fold); undefined until one was built, '' for none. */
  repoMap?: string;
  /** True while the map is still being built: the prefix says so, and each turn asks again until it is there. */
  repoMapPending?: boolean;
}

/** A checkpoint as logged: the event's seq names it. */
export interface CheckpointRecord {
  seq: number;
  step: number;
  kind: 'step' | 'restore';
  files: CheckpointFile[];
}

/** The skills the model activated in the current run, and the tools they leave it (undefined: no gate). */
export interface ActiveSkills {
  names: readonly string[];
  tools: readonly string[] | undefined;
}

export interface ConversationState {
  /** The mode the user chose (a mode_set event); it lasts until the next one. */
  mode: AgentMode;
  /** The custom agent the user picked (an agent_set event); it narrows tools as the mode does. */
  agent: AgentProfile | undefined;
  /** Skills active in the current run; a new user message ends them. */
  skills: ActiveSkills;
  /** The rules files the task's system prompt carries (workspace-relative, prompt order). */
  rules: string[];
  status: RunStatus;
  runId: string | undefined;
  /** Model turns taken in the current run. */
  turn: number;
  messages: StateMessage[];
  draft: Draft | undefined;
  intents: Readonly<Record<string, ToolIntent>>;
  /** Intents waiting for the user, in proposal order. */
  pendingIntentIds: string[];
  /** Standing approvals granted "for this task". */
  grants: Grant[];
  usage: Usage;
  /** Usage of the last completed model turn: its input is the context in use. */
  lastTurnUsage: Usage | undefined;
  lastError: RunError | undefined;
  /** The latest retry notice, cleared when the turn goes on. */
  retrying: { attempt: number; delayMs: number; message: string; at: number } | undefined;
  fileVersions: Readonly<Record<string, string>>;
  ledger: Ledger;
  context: ContextState;
  provider: { name: string; model: string } | undefined;
  /** Every checkpoint of the task, oldest first. */
  checkpoints: readonly CheckpointRecord[];
  /** Sub-agent runs by frame id (every depth), each folded apart; `usage` above includes theirs. */
  frames: Readonly<Record<string, FrameRecord>>;
  /** Model turns taken by sub-agents across the task (the task-wide child budget counts these). */
  childTurns: number;
  lastSeq: number;
}
