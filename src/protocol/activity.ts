// What the model stream is doing now, for the activity line under the transcript: a tool call's
// input streaming in (its tool, the kind the tool declares, its bytes so far and the file it
// names), or the stream silent for a while (the line then offers Stop and Retry). Not part of the
// task's log: a reloaded view starts without it.
import * as z from 'zod/mini';
import { ToolKindSchema } from './kernel-enums.js';

export const ActivitySchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('tool_input'),
    /** Which call of the turn (0, 1, …): its elapsed time runs from when it began. */
    call: z.number(),
    tool: z.string(),
    toolKind: z.optional(ToolKindSchema),
    bytes: z.number(),
    path: z.optional(z.string()),
  }),
  /** No byte for `silentMs` when the host posted it; the webview counts on from when it received it. */
  z.object({ type: z.literal('stalled'), silentMs: z.number() }),
]);
export type Activity = z.infer<typeof ActivitySchema>;
