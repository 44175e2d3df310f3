// When the memory tools are offered: only with a store configured; the writing ones also only
// in a trusted workspace (a hostile workspace must not plant memories that outlive it).
import type { VisibilityContext } from '../../kernel/index.js';

export const memoryVisible = (ctx: VisibilityContext): boolean => ctx.hasMemory === true;
export const writableMemoryVisible = (ctx: VisibilityContext): boolean => ctx.hasMemory === true && ctx.trusted;

/** The tools that change memory: they ask unless the user auto-approves memory writes. */
export const MEMORY_WRITE_TOOLS: ReadonlySet<string> = new Set(['remember', 'forget']);
