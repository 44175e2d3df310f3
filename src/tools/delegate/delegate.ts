// delegate: hands one task to a sub-agent (a child frame with a fresh context and only the
// tools named) and answers with its final message and the files it changed. The parent's
// context holds that answer, never the child's turns. A child that only reads may run beside
// the turn's other read-only calls.
import { z } from 'zod';
import { DELEGATE_TOOL, messageOf, type FrameResult, type ToolDefinition, type ToolResult } from '../../kernel/index.js';
import { failure } from '../tool-result.js';

const DelegateInputSchema = z.object({
  task: z.string().min(1).describe('The brief: everything the sub-agent needs to know; it sees nothing else of this conversation.'),
  tools: z
    .array(z.string())
    .optional()
    .describe('Tools the sub-agent may use, by name (only tools you have). Default: the read-only ones.'),
  maxTurns: z.number().int().min(1).optional().describe('The most model turns it may take (capped by the user setting).'),
});
type DelegateInput = z.infer<typeof DelegateInputSchema>;

export const delegateTool: ToolDefinition<DelegateInput> = {
  name: DELEGATE_TOOL,
  kind: 'other',
  description:
    'Run a sub-agent on a self-contained task with a fresh context, and get back its final answer and the files it changed. ' +
    'Several read-only sub-agents called in one turn run in parallel: use them to explore separate parts of the codebase at once.',
  input: DelegateInputSchema,
  // Starting a child changes nothing by itself: every call the child makes passes the same policy.
  risk: 'read',
  readOnly: true,
  concurrencySafe: true,
  isConcurrencySafe: (input, tools) => onlyReads(input.tools, tools),
  outputBudgetTokens: 4000,
  summarize: (i) => oneLine(i.task),
  async execute(input, ctx) {
    if (!ctx.frames || ctx.intentId === undefined) return failure('execution_failed', 'Sub-agents are not available here.');
    try {
      const result = await ctx.frames.run(
        { task: input.task, ...(input.tools ? { tools: input.tools } : {}), ...(input.maxTurns ? { maxTurns: input.maxTurns } : {}) },
        ctx.intentId,
      );
      return frameObservation(result);
    } catch (err) {
      return failure('invalid_input', messageOf(err));
    }
  },
};

/** True when every named tool (default: read-only ones) only reads. */
export function onlyReads(names: readonly string[] | undefined, tools: (name: string) => ToolDefinition | undefined): boolean {
  return (names ?? []).every((n) => tools(n)?.readOnly === true);
}

function frameObservation(r: FrameResult): ToolResult {
  const files = r.filesChanged.length ? r.filesChanged.join(', ') : 'none';
  const head = `Sub-agent ${r.outcome} after ${r.turns} turn(s). Files changed: ${files}.`;
  const content = `${head}\n\n${r.answer || '(no answer)'}`;
  const data = { frameId: r.frameId, outcome: r.outcome, filesChanged: r.filesChanged, turns: r.turns };
  const summary = `${r.outcome}, ${r.turns} turn(s)`;
  if (r.outcome === 'completed') return { ok: true, content, summary, data };
  return { ok: false, code: r.outcome === 'cancelled' ? 'cancelled' : 'execution_failed', content, summary, data, retryable: true };
}

export function oneLine(text: string, max = 80): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
