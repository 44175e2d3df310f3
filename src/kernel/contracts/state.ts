// ConversationState: folded from RuntimeEvents by the reducer, one event at a time.
import type { ImagePart, Usage } from './model.js';
import type { Observation, ToolIntent } from './tool.js';
import type { ApprovalScope, RunError } from './events.js';

/** A run in progress: between its start and its end (finished, failed or cancelled). */
export type LiveRunStatus = 'running' | 'waiting_for_approval' | 'executing';
export type RunStatus = 'idle' | LiveRunStatus | 'completed' | 'failed' | 'cancelled';

// Keyed by the type, so a live status added above must be listed here to compile.
const LIVE: Record<LiveRunStatus, true> = { running: true, waiting_for_approval: true, executing: true };

export function isLiveStatus(status: RunStatus): status is LiveRunStatus {
  return Object.hasOwn(LIVE, status);
}

export type StateMessage =
  | { type: 'user'; text: string; images?: ImagePart[] }
  | { type: 'assistant'; text: string; reasoning: string; intentIds: string[] }
  | { type: 'observation'; observation: Observation };

/** The assistant turn being streamed; committed to `messages` when the turn ends. */
export interface Draft {
  text: string;
  reasoning: string;
  intentIds: string[];
}

export interface Grant {
  tool: string;
  /** For commands: the exact command line granted; absent means any input. */
  command?: string;
  scope: Exclude<ApprovalScope, 'once'>;
}

export interface ConversationState {
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
  provider: { name: string; model: string } | undefined;
  lastSeq: number;
}
