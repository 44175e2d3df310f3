// Tools: declared once (zod schema → JSON Schema), proposed as intents, answered by observations.
import { z } from 'zod';
import type { MemoryAccess } from './memory.js';
import type { Workspace } from './workspace.js';
import type { FrameRunner } from './frames.js';
import { type SandboxProfile, SandboxProfileSchema } from './sandbox.js';
import type { SecretDetector } from './secrets.js';
import { type TodoItem, TodoItemSchema } from './todos.js';

export const RiskSchema = z.enum(['read', 'write', 'execute', 'network']);
export type Risk = z.infer<typeof RiskSchema>;

const ObservationErrorCodeSchema = z.enum([
  'not_found',
  'permission_denied',
  'rejected_by_user',
  'stale',
  'invalid_input',
  'timeout',
  'execution_failed',
  'cancelled',
  // The call did not run because the mode, the picked agent or an active skill does not allow
  // the tool (skill-gate.ts): a choice the user made, not a failure.
  'blocked_by_mode',
  'blocked_by_agent',
  'blocked_by_skill',
]);
export type ObservationErrorCode = z.infer<typeof ObservationErrorCodeSchema>;

/**
 * What a call established, in a form the kernel folds into the task ledger without knowing the
 * tool: a file read (which lines of how many, at which content hash), a file changed (its new
 * hash and diff stat), a test run's counts, a command's exit code.
 */
const ToolFactsSchema = z.object({
  /** `cut`: some line was shown shortened, so this read never counts as having seen the file whole. */
  read: z
    .object({ path: z.string(), hash: z.string(), from: z.number(), to: z.number(), total: z.number(), cut: z.boolean().optional() })
    .optional(),
  edit: z
    .object({ path: z.string(), hash: z.string(), added: z.number(), removed: z.number(), created: z.boolean().optional() })
    .optional(),
  /** `failing`: the first failing tests' names (an episode note keeps them when the run is folded). */
  test: z
    .object({ command: z.string(), passed: z.number(), failed: z.number(), ok: z.boolean(), failing: z.array(z.string()).optional() })
    .optional(),
  /** A search: the files it found hits in (the first few) and how many hits. */
  search: z.object({ query: z.string(), paths: z.array(z.string()), matches: z.number() }).optional(),
  /**
   * The answer stands for an earlier read's text (read_file's "unchanged since step N"): it may be
   * shown only beside that text, so projection puts the text in its place where it is not shown.
   */
  unchanged: z.object({ path: z.string(), hash: z.string() }).optional(),
  command: z.object({ command: z.string(), exitCode: z.number().nullable() }).optional(),
  /**
   * A skill became active: `tools` (when set) are the only tools the model may use from now on
   * in this run; a skill already active narrows it further (see skill-gate.ts).
   */
  skill: z.object({ name: z.string(), tools: z.array(z.string()).optional() }).optional(),
  /** The task's to-do list as this call left it, whole (todo_write replaces the list; see ledger.ts). */
  todos: z.array(TodoItemSchema).optional(),
});
type ToolFacts = z.infer<typeof ToolFactsSchema>;

/**
 * The result written back for an intent. `content` is what the model sees (untrusted data,
 * never instructions); `summary` is a short line for people ("41 passed, 3 failed");
 * `data` is structured detail for the UI (a diff, a test report).
 */
export const ObservationSchema = z.object({
  intentId: z.string(),
  ok: z.boolean(),
  content: z.string(),
  summary: z.string().optional(),
  code: ObservationErrorCodeSchema.optional(),
  retryable: z.boolean().optional(),
  data: z.unknown().optional(),
  /** Content hashes of files this call read or wrote, for stale-edit detection. */
  fileVersions: z.record(z.string(), z.string()).optional(),
  facts: ToolFactsSchema.optional(),
  /** Images the tool returned (an MCP tool), passed to models that accept images. */
  images: z.array(z.object({ mediaType: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']), data: z.string() })).optional(),
});
export type Observation = z.infer<typeof ObservationSchema>;

const IntentStatusSchema = z.enum(['proposed', 'awaiting_approval', 'approved', 'rejected', 'running', 'done', 'failed']);
export type IntentStatus = z.infer<typeof IntentStatusSchema>;

/** A proposed call. An intent is not an execution. */
export const ToolIntentSchema = z.object({
  id: z.string(),
  tool: z.string(),
  input: z.unknown(),
  providerRef: z.string(),
  /** One line for people: a path, a command, a test command. */
  summary: z.string(),
  risk: RiskSchema,
  /** Workspace paths the call would touch (for policy and display). */
  paths: z.array(z.string()),
  status: IntentStatusSchema,
  /** How a command runs, from its approval (set by the reducer, never by a provider). */
  sandbox: SandboxProfileSchema.optional(),
});
export type ToolIntent = z.infer<typeof ToolIntentSchema>;

export interface VisibilityContext {
  /** False in VS Code's Restricted Mode: no tool that writes or executes is offered. */
  trusted: boolean;
  hasDiagnostics: boolean;
  /** True when the workspace answers code-intelligence questions (the symbol tools). */
  hasCodeIntel?: boolean;
  /** True when the workspace can fetch web pages (web_fetch). */
  hasWeb?: boolean;
  /** True when the workspace can open pages in a headless browser (browser_check). */
  hasBrowser?: boolean;
  /** True when the host gave the runtime a memory store: the memory tools are offered only then. */
  hasMemory?: boolean;
  /** While a skill that names its tools is active: only these are offered and run (skill-gate.ts). */
  allowedTools?: ReadonlySet<string> | undefined;
}

/** The agent's last whole read of a file, as the task ledger knows it. */
interface PriorRead {
  hash: string;
  /** The model step that read it. */
  step: number;
  /** True while that read's result is still in the model's context, whole (not folded away). */
  inContext: boolean;
}

export interface ToolContext {
  workspace: Workspace;
  signal: AbortSignal;
  /** Content hash of each file as the agent last saw it in this task. */
  fileVersions: Readonly<Record<string, string>>;
  /** The last whole read of a file (canonical path) in this task, if any. */
  priorRead?(path: string): PriorRead | undefined;
  /** Live output for the UI (command and test output tails). Not logged. */
  onProgress(chunk: string): void;
  /** The memory store and the task it serves; absent when the host configured none. */
  memory?: MemoryAccess;
  /** Sequence number of this call's `intent_started` event: where a memory it writes came from. */
  eventSeq?: number;
  /** The call's intent id (a child frame names it as its parent). */
  intentId?: string;
  /** Sub-agents (the delegate tools); absent where the host offers none. */
  frames?: FrameRunner;
  /** The sandbox profile the call's approval chose; a tool that runs a command passes it on. */
  sandbox?: SandboxProfile;
  /** Where text holds a credential (the host's rule set); absent when the host gave none. */
  secrets?: SecretDetector;
  /** The task's to-do list as the ledger holds it when the call runs (todo_read). */
  todos?(): readonly TodoItem[];
  /** Logs what a remote agent sent during this call (a `remote_update` event in the call's frame). */
  report?(update: RemoteUpdate): void;
  /** The preview shown for this call before it was approved (an edit's diff), if the host kept one. */
  previewed?: PreviewedEdit;
}

/** A remote agent's status, message or artifact, as a tool reports it (see the `remote_update` event). */
export interface RemoteUpdate {
  agent: string;
  kind: 'status' | 'message' | 'artifact';
  state?: string;
  text: string;
  name?: string;
  mediaType?: string;
}

export interface ToolResult {
  ok: boolean;
  content: string;
  summary?: string;
  code?: ObservationErrorCode;
  retryable?: boolean;
  data?: unknown;
  fileVersions?: Record<string, string>;
  facts?: ToolFacts;
  images?: Observation['images'];
}

/**
 * What a tool is, declared by the tool, so a host decides by it and never by a tool's name:
 * `read` only looks, `edit` changes a workspace file (and should bring a `preview`), `command`
 * runs a program, `other` is anything else (an MCP tool, a sub-agent, memory, the web).
 */
export type ToolKind = 'read' | 'edit' | 'command' | 'other';

/**
 * An edit tool's proposed change: the file (as the model named it) and its whole new content,
 * or why the call cannot apply. `plan` is the tool's own plan, handed back to its `execute`.
 */
export type EditPreview =
  | { ok: true; path: string; proposedContent: string; proposedBytes: Uint8Array; plan: unknown }
  | { ok: false; message: string };

/**
 * A preview the host showed the user (the diff), handed to the tool when the call runs: if the
 * file still hashes to `baseHash`, the tool writes this plan instead of planning again.
 */
export interface PreviewedEdit {
  /** The canonical workspace path the preview was computed on. */
  rel: string;
  /** Hash of the bytes it was computed on; undefined: the file did not exist. */
  baseHash: string | undefined;
  preview: Extract<EditPreview, { ok: true }>;
}

/**
 * The host's previews of edit calls: an edit tool's precheck offers the preview it planned on the
 * bytes it read (the diff shows it without reading or planning again), and the call, once
 * approved, is handed the preview of its intent.
 */
export interface EditPreviewSource {
  previewed(intentId: string): PreviewedEdit | undefined;
  offer?(intentId: string, previewed: PreviewedEdit): void;
}

// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every input type; each tool's own code sees its schema's type
export interface ToolDefinition<I = any> {
  name: string;
  kind: ToolKind;
  description: string;
  input: z.ZodType<I>;
  /**
   * The JSON Schema the model sees, when the tool brings its own (an MCP server's tool) rather
   * than one derived from `input`; `input` then checks calls against this same schema.
   */
  inputJsonSchema?: Record<string, unknown>;
  risk: Risk;
  readOnly: boolean;
  /**
   * Why every call asks whatever risks are auto-approved (an MCP tool the CLI's config does not
   * trust as read-only); an approval the user gave for it still covers it.
   */
  alwaysAsks?: string;
  /** May run beside other such calls of the same turn (see isConcurrencySafe). */
  concurrencySafe: boolean;
  /**
   * For a tool whose safety depends on the call (delegate: a child that only reads), given the
   * calling frame's tools by name.
   */
  isConcurrencySafe?(input: I, tools: (name: string) => ToolDefinition | undefined): boolean;
  /** Token budget for the observation content. */
  outputBudgetTokens: number;
  /** Visible unless this says otherwise. */
  isVisible?(ctx: VisibilityContext): boolean;
  summarize(input: I): string;
  /**
   * Why this call must never be recorded as the model wrote it (e.g. text that holds a secret),
   * or undefined. Checked on the raw input before the intent is logged or shown: a refused call
   * is logged without its input and answered with this reason, so the text never reaches the
   * log, the view or the next request. `secrets` is the host's detector (absent: none was given,
   * and a tool that needs one should refuse).
   */
  refuseInput?(raw: unknown, secrets: SecretDetector | undefined): string | undefined;
  /** Paths the call touches, workspace-relative as given by the model. */
  paths?(input: I): string[];
  execute(input: I, ctx: ToolContext): Promise<ToolResult>;
  /**
   * Checks that need no user, run before approval is asked (a stale overwrite, a missing file):
   * a result answers the call at once, so the user is never asked for what would fail anyway.
   * Must not change anything; undefined means "ask as usual".
   */
  precheck?(input: I, ctx: PrecheckContext): Promise<ToolResult | undefined>;
  /**
   * An edit tool's proposed content, computed from the raw input and the file's current bytes
   * (undefined: the file does not exist) with no I/O: what approving would write, for a diff
   * shown before approval. The input is checked here (it is the model's, unvalidated). `rel`:
   * the file's canonical workspace path, named in the plan's diff (the input's path otherwise).
   */
  preview?(input: unknown, current: Uint8Array | undefined, rel?: string): EditPreview;
}

/**
 * What a precheck may look at: the workspace, what the agent last read and the host's secret
 * detector. `offerPreview`: an
 * edit tool hands the host the preview it planned on the bytes it just read (absent: the host
 * keeps none).
 */
export type PrecheckContext = Pick<ToolContext, 'workspace' | 'fileVersions' | 'secrets'> & {
  offerPreview?(previewed: PreviewedEdit): void;
};
