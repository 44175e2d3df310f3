// delegate: hands one task to a sub-agent (a child frame with a fresh context and only the
// tools named) and answers with its final message and the files it changed. The parent's
// context holds that answer, never the child's turns. A child that only reads may run beside
// the turn's other read-only calls.
import { z } from 'zod';
import {
  DELEGATE_TOOL,
  messageOf,
  type AgentCatalog,
  type AgentProfile,
  type FrameResult,
  type ToolDefinition,
  type ToolResult,
} from '../../kernel/index.js';
import { failure } from '../tool-result.js';

const DelegateInputSchema = z.object({
  task: z.string().min(1).describe('The brief: everything the sub-agent needs to know; it sees nothing else of this conversation.'),
  tools: z
    .array(z.string())
    .optional()
    .describe('Tools the sub-agent may use, by name (only tools you have). Default: the read-only ones.'),
  maxTurns: z.number().int().min(1).optional().describe('The most model turns it may take (capped by the user setting).'),
  agent: z
    .string()
    .optional()
    .describe("A custom agent's name (listed in the system prompt): the sub-agent runs with its instructions, and only its tools."),
});
type DelegateInput = z.infer<typeof DelegateInputSchema>;

/** delegate, with the task's custom agents to hand work to (none without a catalog). */
export function createDelegateTool(agents?: AgentCatalog): ToolDefinition<DelegateInput> {
  return { ...delegateTool, execute: (input, ctx) => runDelegate(input, ctx, agents) };
}

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
  // An agent's own tools are not known here: it runs alone unless the call names only reading tools.
  isConcurrencySafe: (input, tools) => (input.agent === undefined || input.tools !== undefined) && onlyReads(input.tools, tools),
  outputBudgetTokens: 4000,
  summarize: (i) => oneLine(i.task),
  execute: (input, ctx) => runDelegate(input, ctx, undefined),
};

async function runDelegate(input: DelegateInput, ctx: Parameters<ToolDefinition['execute']>[1], agents: AgentCatalog | undefined) {
  if (!ctx.frames || ctx.intentId === undefined) return failure('execution_failed', 'Sub-agents are not available here.');
  let agent: AgentProfile | undefined;
  if (input.agent !== undefined) {
    const all = (await agents?.load()) ?? [];
    const found = all.find((a) => a.name === input.agent);
    if (!found) {
      const names = all.map((a) => a.name).join(', ') || 'none';
      return failure('invalid_input', `There is no custom agent named "${input.agent}" (the agents are: ${names}).`);
    }
    agent = {
      name: found.name,
      file: found.file,
      instructions: found.instructions,
      ...(found.tools ? { tools: found.tools } : {}),
      ...(found.model ? { model: found.model } : {}),
    };
  }
  try {
    const result = await ctx.frames.run(
      {
        task: input.task,
        ...(input.tools ? { tools: input.tools } : {}),
        ...(input.maxTurns ? { maxTurns: input.maxTurns } : {}),
        ...(agent ? { agent } : {}),
      },
      ctx.intentId,
    );
    return frameObservation(result);
  } catch (err) {
    return failure('invalid_input', messageOf(err));
  }
}

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
