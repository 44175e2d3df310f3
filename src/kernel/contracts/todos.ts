// The task's to-do list and its mode: the two things a user steers a run by besides messages.
// The list is the model's own (todo_write replaces it whole); the mode is the user's (an event).
import { z } from 'zod';

const TodoStatusSchema = z.enum(['pending', 'in_progress', 'done']);
export type TodoStatus = z.infer<typeof TodoStatusSchema>;

/** How long an item's text may be, and how many items a list holds (a list, not a document). */
const TODO_TEXT_MAX_CHARS = 200;
export const TODO_MAX_ITEMS = 50;

export const TodoItemSchema = z.object({
  id: z.string().min(1).max(40),
  text: z.string().min(1).max(TODO_TEXT_MAX_CHARS),
  status: TodoStatusSchema,
});
export type TodoItem = z.infer<typeof TodoItemSchema>;

/** How an item's status is written in plain text: the model's context block and the CLI's list. */
export const TODO_MARKS: Record<TodoStatus, string> = { pending: '[ ]', in_progress: '[>]', done: '[x]' };

/**
 * Agent: every tool the run offers. Plan: only tools that change nothing; the run ends with a
 * plan (the to-do list). Ask: only tools that change nothing; the run ends with an answer.
 */
export const AgentModeSchema = z.enum(['agent', 'plan', 'ask']);
export type AgentMode = z.infer<typeof AgentModeSchema>;
