// delegate_plan: one turn hands a small DAG of sub-tasks to sub-agents (Kernai's workflows).
// The plan is checked whole before anything runs; the scheduler runs each task as a child
// frame once its dependencies are done; the observation is every task's result by id.
// Only the task itself may plan: children get neither this tool nor a way to nest plans.
import { messageOf, PLAN_TOOL, type ToolDefinition, type ToolResult } from '../../kernel/index.js';
import { failure } from '../tool-result.js';
import { onlyReads, oneLine } from './delegate.js';
import { PlanInputSchema, type PlanInput } from './plan-schema.js';
import { runPlan, type PlanTaskResult } from './plan-schedule.js';

export const delegatePlanTool: ToolDefinition<PlanInput> = {
  name: PLAN_TOOL,
  kind: 'other',
  description:
    'Run a plan of sub-agents: tasks with ids and depends_on (no cycles). A task starts when the tasks it depends on are done, ' +
    'with their results in its brief; independent read-only tasks run in parallel. Returns every result by task id.',
  input: PlanInputSchema,
  risk: 'read',
  readOnly: true,
  concurrencySafe: true,
  isConcurrencySafe: (input, tools) => input.tasks.every((t) => onlyReads(t.tools, tools)),
  outputBudgetTokens: 6000,
  summarize: (i) => `${oneLine(i.goal, 60)} (${i.tasks.length} tasks)`,
  async execute(input, ctx) {
    const frames = ctx.frames;
    const parent = ctx.intentId;
    if (!frames || parent === undefined) return failure('execution_failed', 'Sub-agents are not available here.');
    if (!frames.canPlan) return failure('permission_denied', 'A sub-agent cannot run a plan of its own.');
    try {
      const results = await runPlan(input.tasks, {
        run: (task, brief) => frames.run({ task: brief, ...(task.tools ? { tools: task.tools } : {}), planTaskId: task.id }, parent),
        readOnly: (task) => frames.readOnly(task.tools),
        maxParallel: frames.maxParallel,
        signal: ctx.signal,
      });
      return planObservation(input.goal, results, ctx.signal.aborted);
    } catch (err) {
      return failure('execution_failed', messageOf(err));
    }
  },
};

function planObservation(goal: string, results: PlanTaskResult[], cancelled: boolean): ToolResult {
  const done = results.filter((r) => r.status === 'done').length;
  const head = `Plan "${oneLine(goal, 120)}": ${done} of ${results.length} tasks done.`;
  const sections = results.map((r) => {
    const files = r.filesChanged.length ? `\nFiles changed: ${r.filesChanged.join(', ')}` : '';
    return `## ${r.id} (${r.status})\n${r.answer || '(no answer)'}${files}`;
  });
  const content = `${head}\n\n${sections.join('\n\n')}`;
  const data = { tasks: results };
  const summary = `${done}/${results.length} done`;
  if (done === results.length) return { ok: true, content, summary, data };
  return { ok: false, code: cancelled ? 'cancelled' : 'execution_failed', content, summary, data, retryable: !cancelled };
}
