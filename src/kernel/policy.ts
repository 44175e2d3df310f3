// The approval hook every intent passes before it runs. The real policy (workspace boundary,
// protected paths, command parsing) lives in src/tools/policy; this is the kernel's default.
import type { ApprovalPolicy, PolicyContext, PolicyDecision } from './contracts/runtime.js';
import type { ToolIntent } from './contracts/tool.js';
import { grantCovers } from './grants.js';

/** Reads run; everything else asks, unless a standing approval covers it. */
export const defaultPolicy: ApprovalPolicy = {
  decide(intent: ToolIntent, ctx: PolicyContext): PolicyDecision {
    if (ctx.grants.some((g) => grantCovers(g, intent))) return { type: 'allow', reason: 'approved earlier' };
    // Only reads run: a tool that changes nothing but reaches the network (web_fetch) still asks.
    if (ctx.tool.readOnly && intent.risk === 'read') return { type: 'allow', reason: 'read-only tool' };
    const does = { read: 'reads', write: 'changes files', execute: 'runs commands', network: 'uses the network' }[ctx.tool.risk];
    return { type: 'ask', reason: `${intent.tool} ${does}` };
  },
};
