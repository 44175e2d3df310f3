// Hooks: the team's scripts at fixed points of a task (before and after a tool call, when a
// message is sent, when the task starts and ends, before a fold). The kernel never starts a
// process: it asks a HookPort (built in src/compose) at those points, logs each hook's run as a
// `hook_ran` event, and acts on the verdict — a block stops the call or the message, context is
// added to what the model reads. A hook never approves: "allow" only means no objection.
import { z } from 'zod';

export const HookPointSchema = z.enum(['TaskStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PreFold', 'TaskEnd']);
export type HookPoint = z.infer<typeof HookPointSchema>;

/**
 * What one hook answered. `allow`: no objection (never an approval); `block`: refused, with the
 * reason the model (or the user) is told; `ask`: the call must be put to the user even if the
 * policy would run it; `context`: text for the model; `error`: the hook failed (timed out,
 * crashed, unreadable answer) — at a guarding point (PreToolUse, UserPromptSubmit) it blocks.
 */
const HookOutcomeSchema = z.enum(['allow', 'block', 'ask', 'context', 'error']);
export type HookOutcome = z.infer<typeof HookOutcomeSchema>;

/** One hook's run, as the `hook_ran` event logs it. */
export const HookRunSchema = z.object({
  point: HookPointSchema,
  /** The hook as people know it: its command line and the file it is defined in. */
  hook: z.string(),
  source: z.string(),
  outcome: HookOutcomeSchema,
  /** Why it blocked, asked or failed (at most a few kilobytes). */
  reason: z.string().optional(),
  /** Text added for the model. */
  context: z.string().optional(),
  tool: z.string().optional(),
  intentId: z.string().optional(),
  durationMs: z.number(),
  /** Its output was longer than Keel keeps and was cut. */
  truncated: z.boolean().optional(),
});
export type HookRun = z.infer<typeof HookRunSchema>;

/** What the kernel tells the hooks of a point (the port turns it into the JSON on their stdin). */
export interface HookCall {
  point: HookPoint;
  tool?: string;
  toolInput?: unknown;
  toolResult?: { ok: boolean; content: string };
  prompt?: string;
  intentId?: string;
}

/** Runs the hooks defined for a point; an empty list when none match. Never throws. */
export interface HookPort {
  run(call: HookCall, signal: AbortSignal): Promise<Omit<HookRun, 'point' | 'tool' | 'intentId'>[]>;
}
