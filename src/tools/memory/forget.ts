// forget: deletes one memory for good (a tombstone in the store). Always asks unless memory
// writes are auto-approved, since a forgotten memory cannot be brought back.
import { z } from 'zod';
import type { ToolDefinition } from '../../kernel/index.js';
import { failure } from '../tool-result.js';
import { writableMemoryVisible } from './visibility.js';

const ForgetInputSchema = z.object({
  id: z.string().min(1).describe('The id recall showed in brackets.'),
});
export type ForgetInput = z.infer<typeof ForgetInputSchema>;

export const forgetTool: ToolDefinition<ForgetInput> = {
  name: 'forget',
  kind: 'other',
  description: 'Delete a memory that is wrong or no longer true, by the id recall showed.',
  input: ForgetInputSchema,
  risk: 'write',
  readOnly: false,
  concurrencySafe: false,
  outputBudgetTokens: 200,
  isVisible: writableMemoryVisible,
  summarize: (i) => `Forget memory ${i.id}`,
  async execute(input, ctx) {
    if (!ctx.memory) return failure('execution_failed', 'No memory store is configured.', { retryable: false });
    if (!(await ctx.memory.store.tombstone(input.id)))
      return failure('not_found', `No memory has the id ${input.id}; use recall to find the right one.`, { retryable: false });
    return { ok: true, content: `Forgot ${input.id}.`, summary: `forgot ${input.id}` };
  },
};
