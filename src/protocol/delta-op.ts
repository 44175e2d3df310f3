// The small operations a `transcript/delta` carries. Each one is O(change), never O(transcript):
// items are addressed by id, text arrives as appends.
import * as z from 'zod/mini';
import { ActivitySchema } from './activity.js';
import { FrameItemSchema, IntentItemSchema, TranscriptItemSchema } from './transcript-item.js';
import { HintsSchema, MeterSchema, RetryNoticeSchema, RunStatusSchema } from './view-state.js';

/** Fields of an intent card that change after it is added (live output has its own op). */
const IntentPatchSchema = z.partial(z.omit(IntentItemSchema, { kind: true, id: true, progressTail: true }));
export type IntentPatch = z.infer<typeof IntentPatchSchema>;

const FramePatchSchema = z.partial(z.omit(FrameItemSchema, { kind: true, id: true }));
export type FramePatch = z.infer<typeof FramePatchSchema>;

export const DeltaOpSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('item/add'), item: TranscriptItemSchema }),
  /** A retried turn abandons what it streamed so far. */
  z.object({ type: z.literal('item/remove'), id: z.string() }),
  /** Markdown (assistant) or reasoning text streamed into an existing item. */
  z.object({ type: z.literal('text/append'), id: z.string(), text: z.string() }),
  /** The item's text is complete: the webview may freeze its last block. */
  z.object({ type: z.literal('text/done'), id: z.string() }),
  /** An item replaced in place (a Files changed summary once its line counts are known). */
  z.object({ type: z.literal('item/replace'), item: TranscriptItemSchema }),
  z.object({ type: z.literal('intent/update'), id: z.string(), patch: IntentPatchSchema }),
  /** A sub-agent's run changed (state, turns, calls, cost, answer). */
  z.object({ type: z.literal('frame/update'), id: z.string(), patch: FramePatchSchema }),
  /** Live tool output. `replace` when the host dropped older output to bound the tail. */
  z.object({
    type: z.literal('intent/progress'),
    id: z.string(),
    chunk: z.string(),
    replace: z.optional(z.boolean()),
  }),
  z.object({ type: z.literal('status/set'), status: RunStatusSchema }),
  z.object({ type: z.literal('retry/set'), retry: z.nullable(RetryNoticeSchema) }),
  z.object({ type: z.literal('meter/set'), meter: MeterSchema }),
  z.object({ type: z.literal('hints/set'), hints: HintsSchema }),
  /** What the model stream is doing (null: nothing to say beyond the run's status). */
  z.object({ type: z.literal('activity/set'), activity: z.nullable(ActivitySchema) }),
]);
export type DeltaOp = z.infer<typeof DeltaOpSchema>;
