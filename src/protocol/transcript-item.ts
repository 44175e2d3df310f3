// The items of a task's transcript as the webview sees them. They are a *view* of the kernel's
// log (built by the host-side presenter), never a second source of truth.
import * as z from 'zod/mini';
import { ApprovalScopeSchema, FoldSourceSchema, IntentStatusSchema, RiskSchema, ToolKindSchema } from './kernel-enums.js';
import { AttachmentChipSchema, ImageInputSchema } from './attachments.js';
import { ChangesItemSchema, CheckpointItemSchema } from './checkpoint-items.js';

/** How much live tool output the host sends and the webview keeps per call: its last characters. */
export const PROGRESS_TAIL_CHARS = 4096;

/** Messages an action button may send back (the host decides what they do). */
const NoticeActionSchema = z.object({
  label: z.string(),
  message: z.enum(['apiKey/set', 'task/resume', 'log/show']),
});

/** Which of Keel's own requests a user item is (absent: the user's words). */
const KeelPromptSchema = z.enum(['fix_tests', 'plan_approved']);
export type KeelPrompt = z.infer<typeof KeelPromptSchema>;

/** `keel`: the message is a request Keel wrote on the user's behalf, shown as such (not as their words). */
const UserItemSchema = z.object({
  kind: z.literal('user'),
  id: z.string(),
  text: z.string(),
  keel: z.optional(KeelPromptSchema),
  attachments: z.optional(z.array(AttachmentChipSchema)),
  images: z.optional(z.array(ImageInputSchema)),
});

/**
 * Markdown, streamed by `text/append`; `done` once the turn's text is complete. `cut`: the stream
 * broke before the turn ended (it was retried or failed); the text is what had arrived.
 */
const AssistantItemSchema = z.object({
  kind: z.literal('assistant'),
  id: z.string(),
  text: z.string(),
  done: z.optional(z.boolean()),
  cut: z.optional(z.boolean()),
});

/** Shown collapsed. */
const ReasoningItemSchema = z.object({
  kind: z.literal('reasoning'),
  id: z.string(),
  text: z.string(),
  done: z.optional(z.boolean()),
  cut: z.optional(z.boolean()),
});

const IntentResultSchema = z.object({
  ok: z.boolean(),
  /** It ran, but what it checked failed (tests failing, a command's non-zero exit): a failure icon, not ✓. */
  failing: z.optional(z.boolean()),
  /** It did not run because the mode, the picked agent or a skill does not allow it: neutral, not a failure. */
  notRun: z.optional(z.boolean()),
  summary: z.string(),
  /** Bounded excerpt of the observation, shown when the result is expanded. */
  detail: z.optional(z.string()),
  code: z.optional(z.string()),
  /** What a read established (the observation's facts): a file's text, or a search's hits. */
  read: z.optional(z.enum(['file', 'search'])),
});
export type IntentResult = z.infer<typeof IntentResultSchema>;

/**
 * One proposed tool call. `id` is the kernel's intent id. Text a person judges (summary,
 * command, paths, reason) arrives with hidden and control characters already made visible by
 * the host (kernel `visibleText`); the webview shows it as text, never as markup.
 */
export const IntentItemSchema = z.object({
  kind: z.literal('intent'),
  id: z.string(),
  tool: z.string(),
  /** What the tool declares it is (the webview groups and lays out cards by it, never by `tool`). */
  toolKind: z.optional(ToolKindSchema),
  summary: z.string(),
  risk: RiskSchema,
  status: IntentStatusSchema,
  paths: z.optional(z.array(z.string())),
  /** The whole command line the call would run, for commands and test runs given one. */
  command: z.optional(z.string()),
  /** The call's text had invisible, reordering or control characters (now shown as markers). */
  hiddenChars: z.optional(z.boolean()),
  /** The origin an "Always" approval of this call covers (web_fetch): no other site. */
  grantOrigin: z.optional(z.string()),
  /** Why the policy asked (shown above the buttons). */
  approvalReason: z.optional(z.string()),
  approvedScope: z.optional(ApprovalScopeSchema),
  autoApproved: z.optional(z.boolean()),
  rejectReason: z.optional(z.string()),
  /** Host clock (ms) when execution started; the webview ticks elapsed from it. */
  startedAt: z.optional(z.number()),
  elapsedMs: z.optional(z.number()),
  /** Last PROGRESS_TAIL_CHARS of live output. */
  progressTail: z.optional(z.string()),
  result: z.optional(IntentResultSchema),
  /** The sub-agent frame the call belongs to (shown nested under it); absent: the task's own. */
  frame: z.optional(z.string()),
  /** A delegate_plan call's tasks, for the plan's live list. */
  plan: z.optional(z.array(z.object({ id: z.string(), dependsOn: z.array(z.string()) }))),
});

const NoticeItemSchema = z.object({
  kind: z.literal('notice'),
  id: z.string(),
  level: z.enum(['info', 'warning', 'error']),
  text: z.string(),
  action: z.optional(NoticeActionSchema),
  /** The run failed and can be tried again: a Retry button (posts `task/retry`) beside the action. */
  retry: z.optional(z.boolean()),
});

/** Finished steps folded into an episode note; shown collapsed, the note as plain text. */
const FoldItemSchema = z.object({
  kind: z.literal('fold'),
  id: z.string(),
  firstStep: z.number(),
  lastStep: z.number(),
  note: z.string(),
  source: FoldSourceSchema,
  /** The user asked for it (Fold now), rather than the context passing its high-water mark. */
  requested: z.boolean(),
  tokensBefore: z.number(),
  tokensAfter: z.number(),
});

/**
 * A sub-agent's run, shown collapsed under the call that started it (after its card, or in its
 * plan's row): its brief, state, turns, calls and cost; its own calls nest inside it.
 */
export const FrameItemSchema = z.object({
  kind: z.literal('frame'),
  /** The kernel's frame id. */
  id: z.string(),
  parentIntentId: z.string(),
  parentFrame: z.optional(z.string()),
  depth: z.number(),
  task: z.string(),
  planTaskId: z.optional(z.string()),
  status: z.enum(['running', 'done', 'failed', 'cancelled']),
  turns: z.number(),
  calls: z.number(),
  tokens: z.number(),
  costUsd: z.optional(z.number()),
  /** Its last answer (or why it stopped), once it ended. */
  answer: z.optional(z.string()),
});
export type FrameItem = z.infer<typeof FrameItemSchema>;

export const TranscriptItemSchema = z.discriminatedUnion('kind', [
  FrameItemSchema,
  UserItemSchema,
  AssistantItemSchema,
  ReasoningItemSchema,
  IntentItemSchema,
  NoticeItemSchema,
  FoldItemSchema,
  CheckpointItemSchema,
  ChangesItemSchema,
]);
export type TranscriptItem = z.infer<typeof TranscriptItemSchema>;
export type IntentItem = z.infer<typeof IntentItemSchema>;
export type NoticeItem = z.infer<typeof NoticeItemSchema>;
export type FoldItem = z.infer<typeof FoldItemSchema>;
