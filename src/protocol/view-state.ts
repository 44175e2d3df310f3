// The non-transcript parts of the view: run status, retry notice, meter, hints, task list.
import * as z from 'zod/mini';
import { AgentModeSchema, RunStatusSchema, TodoStatusSchema } from './kernel-enums.js';

export { RunStatusSchema };

/** "Retrying in N s": the webview counts down from when it receives this. */
export const RetryNoticeSchema = z.object({
  attempt: z.number(),
  delayMs: z.number(),
  message: z.string(),
});
export type RetryNotice = z.infer<typeof RetryNoticeSchema>;

/**
 * Tokens per part of the request (the kernel's estimate, characters / 4): system text and tools,
 * the folded notes and ledger, the goal and live history, and the room kept for the answer.
 */
const MeterSplitSchema = z.object({
  systemTools: z.number(),
  notes: z.number(),
  history: z.number(),
  outputReserve: z.number(),
});
export type MeterSplit = z.infer<typeof MeterSplitSchema>;

/** Token counts of a task so far, or what they cost (US dollars), per kind. */
const TokenKindsSchema = z.object({
  input: z.number(),
  cacheRead: z.number(),
  cacheWrite: z.number(),
  output: z.number(),
});
export type TokenKinds = z.infer<typeof TokenKindsSchema>;

export const MeterSchema = z.object({
  /** Context in use: the last turn's input tokens, cache reads and writes included. */
  usedTokens: z.number(),
  /** The model's context window; 0 when unknown. */
  windowTokens: z.number(),
  split: MeterSplitSchema,
  /** Tokens of the task so far (note requests included). */
  tokens: TokenKindsSchema,
  /** Undefined when the model has no known price. */
  costUsd: z.optional(z.number()),
  /** The cost per kind of token; undefined when the model has no known price. */
  cost: z.optional(TokenKindsSchema),
  /** How many times the context was folded. */
  folds: z.number(),
});
export type Meter = z.infer<typeof MeterSchema>;

/** An item of the task's to-do list (the model's todo_write), as the pinned list shows it. */
const TodoViewSchema = z.object({ id: z.string(), text: z.string(), status: TodoStatusSchema });
export type TodoView = z.infer<typeof TodoViewSchema>;

/** A slash command the composer completes: `/name`, what it does, the arguments it takes. */
const CommandViewSchema = z.object({
  name: z.string().check(z.maxLength(64)),
  description: z.optional(z.string().check(z.maxLength(1024))),
  argumentHint: z.optional(z.string().check(z.maxLength(1024))),
});
export type CommandView = z.infer<typeof CommandViewSchema>;

/** A custom agent the header's picker offers: its name and what it does. */
const AgentViewSchema = z.object({
  name: z.string().check(z.maxLength(64)),
  description: z.optional(z.string().check(z.maxLength(1024))),
});
export type AgentView = z.infer<typeof AgentViewSchema>;

/** A background process the task started (start_process): the panel lists it with a Stop button. */
const ProcessViewSchema = z.object({
  name: z.string().check(z.maxLength(40)),
  ports: z.array(z.number()).check(z.maxLength(8)),
  command: z.string().check(z.maxLength(200)),
});
export type ProcessView = z.infer<typeof ProcessViewSchema>;

/** Things the host knows that change what the view offers. */
export const HintsSchema = z.object({
  noApiKey: z.boolean(),
  /** The provider needs no key (a local server, the stand-in): the view says so, not "API key set". */
  keyNotNeeded: z.optional(z.boolean()),
  /**
   * The key lookup has not answered yet (a new window's first view is posted before it): the view
   * says nothing about the key until it does, rather than "API key set." for a key not looked up.
   */
  keyUnread: z.optional(z.boolean()),
  /**
   * What is wrong with the endpoint setting (keel.baseUrl without http://), naming the setting:
   * said instead of any key problem, since no request is sent until it is fixed.
   */
  endpoint: z.optional(z.string().check(z.maxLength(512))),
  /** VS Code Restricted Mode: no tool that writes or executes is offered. */
  restricted: z.boolean(),
  /** The task was interrupted (reload, crash) and can be resumed. */
  canResume: z.boolean(),
  /** The rules files the current task's prompt carries (workspace-relative), for a "Rules: …" line. */
  rules: z.optional(z.array(z.string())),
  /** The header's model button: provider and model in use. */
  model: z.optional(z.object({ provider: z.string(), model: z.string(), vision: z.boolean() })),
  /** The risk classes that run without asking (the user's keel.autoApprove). */
  autoApprove: z.optional(z.array(z.string())),
  /** A question Keel itself asks in a dialog while the run waits on it (where to send the key). */
  question: z.optional(z.string()),
  /** The task's to-do list as the model last wrote it, pinned above the composer; absent: none. */
  todos: z.optional(z.array(TodoViewSchema)),
  /** The task's mode (its last mode_set); absent: agent. The header's mode picker shows it. */
  mode: z.optional(AgentModeSchema),
  /** The slash commands the composer completes after a `/` (the current task's). */
  commands: z.optional(z.array(CommandViewSchema).check(z.maxLength(200))),
  /** The custom agents the header's picker offers beside the modes (the current task's). */
  agents: z.optional(z.array(AgentViewSchema).check(z.maxLength(64))),
  /** The custom agent the task runs as (its last agent_set); absent: none. The picker shows it. */
  agent: z.optional(z.string().check(z.maxLength(64))),
  /** The shown task's background processes still running; absent or empty: none. */
  processes: z.optional(z.array(ProcessViewSchema).check(z.maxLength(16))),
  /** The code index is parsing files its cache did not hold: so many of so many; absent: not indexing. */
  indexing: z.optional(z.object({ parsed: z.number(), total: z.number() })),
});
export type Hints = z.infer<typeof HintsSchema>;

const TaskSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  updatedAt: z.number(),
  status: RunStatusSchema,
  /** Another window on the folder drives it now (its lock is held): this one may only watch. */
  elsewhere: z.optional(z.boolean()),
});

export const TaskListSchema = z.object({
  tasks: z.array(TaskSummarySchema),
  currentTaskId: z.optional(z.string()),
});
export type TaskList = z.infer<typeof TaskListSchema>;
