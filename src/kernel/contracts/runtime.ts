// The runtime facade's contract: what the CLI and the extension drive.
import type { ConversationState, Grant } from './state.js';
import type { ApprovalScope, RuntimeEvent } from './events.js';
import type { AgentProfile } from './agents.js';
import type { ModelRequest } from './model.js';
import type { ToolDefinition, ToolIntent } from './tool.js';
import type { Workspace } from './workspace.js';
import type { ImagePart } from './model.js';
import type { Attachment } from './attachments.js';
import type { AgentMode } from './todos.js';
import type { SandboxProfile } from './sandbox.js';

/**
 * What the model stream is doing now, for people (not logged): a tool call's input streaming in,
 * or no byte for a while (`silentMs` when told; the host counts on from there).
 */
export type ModelActivity =
  | { type: 'tool_input'; call: number; tool: string; bytes: number; path?: string }
  | { type: 'stalled'; silentMs: number };

/** What `send` and `resume` yield: every logged event, plus live tool output and model activity (not logged). */
export type RuntimeOutput =
  | { kind: 'event'; event: RuntimeEvent }
  | { kind: 'tool_output'; intentId: string; chunk: string }
  | { kind: 'activity'; activity: ModelActivity };

/** The loop's decision after a model turn. */
export type RuntimeDecision =
  | { type: 'finish' }
  | { type: 'call_tools'; intentIds: string[] }
  | { type: 'repair'; intentIds: string[] }
  | { type: 'fail'; message: string };

/** `sandbox`: for a call that runs a command, the profile it runs in (see sandbox.ts). */
export type PolicyDecision =
  | { type: 'allow'; reason: string; sandbox?: SandboxProfile }
  | {
      type: 'ask';
      reason: string;
      /** How the command runs once the user approves it. */
      sandbox?: SandboxProfile;
      /**
       * May a standing setting answer for the user (auto-approve, --approve all)? False for calls
       * a person must answer every time (protected paths): with nobody to ask they are refused.
       * Absent: true.
       */
      overridable?: boolean;
      /** The command line the call will run when the tool resolves it itself (run_tests without one). */
      command?: string;
    }
  | { type: 'deny'; reason: string };

export interface PolicyContext {
  tool: ToolDefinition;
  /** Standing approvals for this task (from state) and for this workspace (from the host). */
  grants: readonly Grant[];
  workspace: Workspace | undefined;
}

/** Every intent passes this before it runs. */
export interface ApprovalPolicy {
  decide(intent: ToolIntent, ctx: PolicyContext): PolicyDecision | Promise<PolicyDecision>;
}

/** Where "always in this workspace" approvals are kept (per workspace, by the host). */
export interface GrantStore {
  list(): Grant[];
  add(grant: Grant): void | Promise<void>;
}

/** Where a task's events go. Append-only. */
export interface LogStore {
  append(events: readonly RuntimeEvent[]): void;
  /** Resolves when everything appended so far is durable; rejects when it cannot be made so. */
  flush(): Promise<void>;
  /**
   * Why the store stopped taking events (a write failed: a full disk), or undefined while every
   * event appended is recorded. The runtime ends a run rather than act on what is not recorded.
   */
  failure?(): Error | undefined;
}

/** What asking for a fold did: folded now, will fold before the next model turn, or nothing to fold. */
export type FoldOutcome = 'folded' | 'queued' | 'nothing';

export interface RuntimeFacade {
  send(
    input: string | { text: string; images?: ImagePart[]; attachments?: Attachment[]; mode?: AgentMode; agent?: AgentProfile | null },
  ): AsyncIterable<RuntimeOutput>;
  /** Continues a run loaded from a log: pending intents are asked again, never re-run blindly. */
  resume(): AsyncIterable<RuntimeOutput>;
  /** send() for a host that listens through subscribe(): no outputs are queued; resolves when the run ends. */
  run(input: Parameters<RuntimeFacade['send']>[0]): Promise<void>;
  /** resume() for a host that listens through subscribe(); resolves at once when there is nothing to resume. */
  resumeRun(): Promise<void>;
  approve(intentId: string, scope?: ApprovalScope): void;
  /** `unanswered`: nobody could answer the question (a headless run), so the call is refused, not rejected by a person. */
  reject(intentId: string, reason?: string, options?: { unanswered?: boolean }): void;
  cancel(): void;
  /** Abandons the model stream being read now (stalled) and streams the turn again; false when none is read. */
  retryStalledTurn(): boolean;
  /** Folds the finished steps into an episode note: now when idle, before the next turn during a run. */
  fold(): Promise<FoldOutcome>;
  /** The request the next model turn would be sent now. */
  preview(): ModelRequest;
  getState(): ConversationState;
  getEvents(): readonly RuntimeEvent[];
}
