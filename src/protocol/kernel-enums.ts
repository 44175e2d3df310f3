// The few kernel enums the protocol carries. The protocol may import kernel *types* only (so the
// webview bundle never pulls kernel code), so the values are mirrored here and the type checks
// below fail to compile the moment they drift from the kernel's.
import * as z from 'zod/mini';
import type * as K from '../kernel/contracts/index.js';

export const RiskSchema = z.enum(['read', 'write', 'execute', 'network']);
export const IntentStatusSchema = z.enum(['proposed', 'awaiting_approval', 'approved', 'rejected', 'running', 'done', 'failed']);
export const ApprovalScopeSchema = z.enum(['once', 'task', 'workspace']);
export const RunStatusSchema = z.enum(['idle', 'running', 'waiting_for_approval', 'executing', 'completed', 'failed', 'cancelled']);
export const FoldSourceSchema = z.enum(['model', 'fallback']);
export const TodoStatusSchema = z.enum(['pending', 'in_progress', 'done']);
export const AgentModeSchema = z.enum(['agent', 'plan', 'ask']);
export const ToolKindSchema = z.enum(['read', 'edit', 'command', 'other']);

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const check = <T extends true>(): T | undefined => undefined;
check<Same<z.infer<typeof RiskSchema>, K.Risk>>();
check<Same<z.infer<typeof IntentStatusSchema>, K.IntentStatus>>();
check<Same<z.infer<typeof ApprovalScopeSchema>, K.ApprovalScope>>();
check<Same<z.infer<typeof RunStatusSchema>, K.RunStatus>>();
check<Same<z.infer<typeof FoldSourceSchema>, K.FoldSource>>();
check<Same<z.infer<typeof TodoStatusSchema>, K.TodoStatus>>();
check<Same<z.infer<typeof AgentModeSchema>, K.AgentMode>>();
check<Same<z.infer<typeof ToolKindSchema>, K.ToolKind>>();

/** The kernel's live statuses (a run in progress), mirrored for the webview. */
const LIVE_RUN_STATUSES = ['running', 'waiting_for_approval', 'executing'] as const;
check<Same<(typeof LIVE_RUN_STATUSES)[number], K.LiveRunStatus>>();

export function isLiveRunStatus(status: RunStatus): boolean {
  return (LIVE_RUN_STATUSES as readonly string[]).includes(status);
}

export type RunStatus = z.infer<typeof RunStatusSchema>;
export type ApprovalScope = z.infer<typeof ApprovalScopeSchema>;
export type AgentMode = z.infer<typeof AgentModeSchema>;
