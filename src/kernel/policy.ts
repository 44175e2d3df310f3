// The approval hook every intent passes before it runs. The real policy (workspace boundary,
// protected paths, command parsing) lives in src/tools/policy; this is the kernel's default.
import type { ApprovalPolicy, PolicyContext, PolicyDecision } from './contracts/runtime.js';
import type { ToolIntent } from './contracts/tool.js';
import { grantCovers } from './reducer.js';

/** Reads run; everything else asks, unless a standing approval covers it. */
export const defaultPolicy: ApprovalPolicy = {
  decide(intent: ToolIntent, ctx: PolicyContext): PolicyDecision {
    if (ctx.grants.some((g) => grantCovers(g, intent))) return { type: 'allow', reason: 'approved earlier' };
    if (ctx.tool.readOnly) return { type: 'allow', reason: 'read-only tool' };
    return { type: 'ask', reason: `${intent.tool} ${ctx.tool.risk === 'write' ? 'changes files' : 'runs commands'}` };
  },
};
