// Frames: a sub-agent runs as a child frame of the task — a fresh context holding only its
// brief, under depth and turn guards — and returns one value (its answer and the files it
// changed) to the call that started it. Tools reach the machinery through `FrameRunner`.
import type { AgentProfile } from './agents.js';

/** A frame is at most this deep: the task is 0, its children 1, theirs 2 (no further). */
export const MAX_FRAME_DEPTH = 2;

export interface FrameRequest {
  /** The brief: all the child knows of the task. */
  task: string;
  /** Tools the child may use, by name; default: the read-only ones of its parent. */
  tools?: readonly string[];
  maxTurns?: number;
  /** For a plan's task: its id (the view and the CLI show the plan's state by it). */
  planTaskId?: string;
  /** A custom agent to run as: its instructions join the child's prompt, its tools narrow the child's. */
  agent?: AgentProfile;
}

type FrameOutcome = 'completed' | 'failed' | 'cancelled';

export interface FrameResult {
  frameId: string;
  outcome: FrameOutcome;
  /** The child's last answer (or why it stopped). */
  answer: string;
  /** Workspace paths the child (or its own children) changed. */
  filesChanged: string[];
  turns: number;
}

/** What a tool sees of the frame machinery (the `delegate` and `delegate_plan` tools). */
export interface FrameRunner {
  /** Depth of the frame the calling tool runs in. */
  readonly depth: number;
  /** Plans are offered only to the task itself: a child cannot emit one. */
  readonly canPlan: boolean;
  /** How many read-only children may run at once. */
  readonly maxParallel: number;
  /** Whether a child with these tools would only read (and so may run beside others). */
  readOnly(tools: readonly string[] | undefined): boolean;
  /**
   * Runs a child frame to its end. Refuses (throws an Error naming the reason) a request
   * beyond the depth guard or naming a tool its parent does not have.
   */
  run(request: FrameRequest, parentIntentId: string): Promise<FrameResult>;
}
