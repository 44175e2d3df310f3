// todo_write and todo_read: the to-do list the model keeps for a task and the user watches.
// todo_write replaces the whole list (as Claude Code's TodoWrite, Copilot's todo tool and Roo's
// update_todo_list do): the model always states the list as it stands, so no partial update can
// leave an item the model forgot. The list lives only in the task's log — the result's `todos`
// fact, folded into the ledger (kernel/context/ledger.ts) — so a fold keeps it, a reload replays
// it, and nothing outlives the task: no file, no memory. That is why its risk is `read` and it
// is readOnly: like use_skill activating a skill, it changes Keel's task state only, so it runs
// unasked and is offered in Plan and Ask modes (where the plan is written with it).
import { z } from 'zod';
import { TODO_MAX_ITEMS, TodoItemSchema, type TodoItem, type ToolDefinition, type ToolResult } from '../../kernel/index.js';
import { failure } from '../tool-result.js';

const TodoWriteInputSchema = z.object({
  todos: z
    .array(TodoItemSchema)
    .max(TODO_MAX_ITEMS)
    .describe(
      'The whole list, in order; it replaces the previous one. Each item: a short id, the step in a few words, and its status ' +
        '(pending, in_progress, done). At most one item is in_progress: the one you are working on now.',
    ),
});
type TodoWriteInput = z.infer<typeof TodoWriteInputSchema>;

/**
 * Why this list is refused, or undefined. Ids are unique (the view and the ledger address items
 * by them). At most one item is in progress: the list tells the user what the agent is doing
 * now, and one run does one step at a time — parallel work goes to sub-agents, which keep their
 * own lists in their own frames — so two "in progress" would be a stale status, not parallelism.
 */
function todoListProblem(todos: readonly TodoItem[]): string | undefined {
  const seen = new Set<string>();
  for (const t of todos) {
    if (seen.has(t.id)) return `The id "${t.id}" is used twice; each item needs its own id.`;
    seen.add(t.id);
  }
  const active = todos.filter((t) => t.status === 'in_progress').map((t) => t.id);
  if (active.length > 1)
    return `Only one item may be in_progress at a time (the one you are working on now); these are: ${active.join(', ')}. Mark the others pending or done.`;
  return undefined;
}

export const todoWriteTool: ToolDefinition<TodoWriteInput> = {
  name: 'todo_write',
  description:
    'Keep the to-do list of this task, which the user sees: write it when a task has several steps, then update it as ' +
    'you go (mark an item in_progress when you start it, done when it is finished). Each call replaces the whole list.',
  input: TodoWriteInputSchema,
  // It writes the task's own list, no file: hosts show it as a card of its own, not among the reads.
  kind: 'other',
  risk: 'read',
  readOnly: true,
  // Two lists written in one turn must land in the order the model wrote them.
  concurrencySafe: false,
  outputBudgetTokens: 2000,
  summarize: (i) => `To-do list: ${counts(i.todos)}`,
  async execute(input) {
    const problem = todoListProblem(input.todos);
    if (problem) return failure('invalid_input', problem, { retryable: true });
    return listResult(input.todos, 'The to-do list is now:');
  },
};

export const todoReadTool: ToolDefinition<Record<string, never>> = {
  name: 'todo_read',
  description: "Read this task's to-do list as it stands (the last todo_write).",
  input: z.object({}).strict(),
  kind: 'read',
  risk: 'read',
  readOnly: true,
  concurrencySafe: true,
  outputBudgetTokens: 2000,
  summarize: () => 'Read the to-do list',
  async execute(_input, ctx) {
    const todos = ctx.todos?.() ?? [];
    if (todos.length === 0) return { ok: true, content: 'The to-do list is empty.', summary: 'empty' };
    // A read reports the list; it adds no fact (the ledger's list stays the one written).
    const { content, summary } = listResult(todos, 'The to-do list:');
    return { ok: true, content, summary: summary ?? '' };
  },
};

function listResult(todos: readonly TodoItem[], head: string): ToolResult {
  const lines = todos.map((t) => `- [${t.status}] ${t.id}: ${t.text}`);
  const content = todos.length ? [head, ...lines].join('\n') : 'The to-do list is now empty.';
  return { ok: true, content, summary: counts(todos), facts: { todos: [...todos] } };
}

/** "3 items, 1 done, 1 in progress": a summary without the items' words. */
function counts(todos: readonly TodoItem[]): string {
  const done = todos.filter((t) => t.status === 'done').length;
  const active = todos.some((t) => t.status === 'in_progress') ? ', 1 in progress' : '';
  return `${todos.length} item${todos.length === 1 ? '' : 's'}, ${done} done${active}`;
}
