// delegate_plan's input: a goal and a small DAG of tasks. Checked whole before anything runs:
// a duplicate id, a dependency on an unknown id, or a cycle is refused with its name.
import { z } from 'zod';

/** Plans stay small: a bigger one is a sign the model should split the work itself. */
const MAX_PLAN_TASKS = 12;

const PlanTaskSchema = z.object({
  id: z.string().min(1).describe('A short id other tasks name in depends_on.'),
  task: z.string().min(1).describe("The task's brief; it also receives the results of the tasks it depends on."),
  tools: z.array(z.string()).optional().describe('Tools its sub-agent may use; default: the read-only ones.'),
  depends_on: z.array(z.string()).optional().describe('Ids of tasks that must finish first.'),
});
export type PlanTask = z.infer<typeof PlanTaskSchema>;

export const PlanInputSchema = z
  .object({
    goal: z.string().min(1),
    tasks: z.array(PlanTaskSchema).min(1).max(MAX_PLAN_TASKS),
  })
  .superRefine((plan, ctx) => {
    const problem = planProblem(plan.tasks);
    if (problem) ctx.addIssue({ code: 'custom', path: ['tasks'], message: problem });
  });
export type PlanInput = z.infer<typeof PlanInputSchema>;

/** What makes the plan unrunnable, named; undefined when it is a DAG of known ids. */
export function planProblem(tasks: readonly PlanTask[]): string | undefined {
  const ids = new Set<string>();
  for (const t of tasks) {
    if (ids.has(t.id)) return `duplicate task id "${t.id}"`;
    ids.add(t.id);
  }
  for (const t of tasks) {
    for (const d of t.depends_on ?? []) if (!ids.has(d)) return `task "${t.id}" depends on unknown task "${d}"`;
  }
  const cycle = findCycle(tasks);
  return cycle ? `the dependencies form a cycle: ${cycle.join(' → ')}` : undefined;
}

function findCycle(tasks: readonly PlanTask[]): string[] | undefined {
  const deps = new Map(tasks.map((t) => [t.id, t.depends_on ?? []]));
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'open') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'open');
    path.push(id);
    for (const d of deps.get(id) ?? []) {
      const found = visit(d);
      if (found) return found;
    }
    path.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const t of tasks) {
    const found = visit(t.id);
    if (found) return found;
  }
  return undefined;
}
