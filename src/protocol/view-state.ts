// The non-transcript parts of the view: run status, retry notice, meter, hints, task list.
import * as z from 'zod/mini';
import { RunStatusSchema } from './kernel-enums.js';

export { RunStatusSchema };

/** "Retrying in N s": the webview counts down from when it receives this. */
export const RetryNoticeSchema = z.object({
  attempt: z.number(),
  delayMs: z.number(),
  message: z.string(),
});
export type RetryNotice = z.infer<typeof RetryNoticeSchema>;

/** Estimated tokens per part of the context (chars / 4 when no exact split is known). */
const MeterSplitSchema = z.object({
  system: z.number(),
  tools: z.number(),
  conversation: z.number(),
  toolResults: z.number(),
});
export type MeterSplit = z.infer<typeof MeterSplitSchema>;

export const MeterSchema = z.object({
  /** Context in use: the last turn's input tokens, cache reads and writes included. */
  usedTokens: z.number(),
  /** The model's context window; 0 when unknown. */
  windowTokens: z.number(),
  /** Undefined when the model has no known price. */
  costUsd: z.optional(z.number()),
  split: MeterSplitSchema,
});
export type Meter = z.infer<typeof MeterSchema>;

/** Things the host knows that change what the view offers. */
export const HintsSchema = z.object({
  noApiKey: z.boolean(),
  /** VS Code Restricted Mode: no tool that writes or executes is offered. */
  restricted: z.boolean(),
  /** The task was interrupted (reload, crash) and can be resumed. */
  canResume: z.boolean(),
});
export type Hints = z.infer<typeof HintsSchema>;

const TaskSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  updatedAt: z.number(),
  status: RunStatusSchema,
});

export const TaskListSchema = z.object({
  tasks: z.array(TaskSummarySchema),
  currentTaskId: z.optional(z.string()),
});
export type TaskList = z.infer<typeof TaskListSchema>;
