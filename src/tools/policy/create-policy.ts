// The approval policy: deny rules → outside the workspace (deny) → protected paths (ask) →
// a command's writes outside the workspace (deny) → risky commands (ask unless this exact
// command was approved) → standing approvals → a read-only command's paths (outside, secret:
// ask) → auto-approved risk classes → defaults (reads run; writes and commands ask).
import {
  grantCovers,
  WorkspaceError,
  type ApprovalPolicy,
  type PolicyContext,
  type PolicyDecision,
  type Risk,
  type ToolIntent,
} from '../../kernel/index.js';
import type { CommandRules } from './classify-argv.js';
import { classifyCommand, ruleTokens, type CommandClassification } from './classify-command.js';
import { commandReadProblem, commandWriteProblem } from './command-paths.js';
import { isSecretFile, protectedReason } from './protected-paths.js';
import { detectTestCommand, type DetectedCommand } from '../run-tests/detect-command.js';

export interface PolicyOptions {
  /** Risk classes that run without asking. For commands, only read-only ones (allowlist or `commandRules.allow`). */
  autoApprove?: Risk[];
  commandRules?: { allow?: string[]; deny?: string[] };
}

const ALWAYS_ASK = new Set<CommandClassification['type']>(['network', 'dangerous', 'unparseable']);
/** Classes that auto-approve like reads: read-only commands, and the project's own tests. */
const READS = new Set<CommandClassification['type']>(['read_only', 'test_run']);

export function createPolicy(options: PolicyOptions = {}): ApprovalPolicy {
  const auto = new Set(options.autoApprove ?? []);
  const rules: CommandRules = {
    allow: (options.commandRules?.allow ?? []).map(ruleTokens),
    deny: (options.commandRules?.deny ?? []).map(ruleTokens),
  };
  return {
    async decide(intent: ToolIntent, ctx: PolicyContext): Promise<PolicyDecision> {
      const detected = await detectedTestCommand(intent, ctx);
      const cls = commandClass(intent, rules, detected?.command);
      if (cls?.type === 'denied') return { type: 'deny', reason: cls.reasons[0] ?? 'denied by a command rule' };
      const where = await checkPaths(intent, ctx);
      if (where) return where;
      const writes = cls && ctx.workspace ? await commandWriteProblem(cls, commandCwd(intent), ctx.workspace) : undefined;
      if (writes) return writes;
      if (cls && ALWAYS_ASK.has(cls.type)) {
        if (ctx.grants.some((g) => g.command !== undefined && grantCovers(g, intent)))
          return { type: 'allow', reason: 'this exact command was approved earlier' };
        return { type: 'ask', reason: `The command ${cls.reasons.join('; ')}.` };
      }
      if (ctx.grants.some((g) => grantCovers(g, intent))) return { type: 'allow', reason: 'approved earlier' };
      const reads = cls && ctx.workspace ? await commandReadProblem(cls, commandCwd(intent), ctx.workspace) : undefined;
      if (reads) return { type: 'ask', reason: reads };
      if (auto.has(intent.risk) && (!cls || READS.has(cls.type))) return { type: 'allow', reason: `${intent.risk} is auto-approved` };
      if (ctx.tool.readOnly) return { type: 'allow', reason: 'reads inside the workspace run' };
      if (detected) return { type: 'ask', reason: `Runs the detected test command \`${detected.command}\` (${detected.because}).` };
      if (cls) return { type: 'ask', reason: cls.reasons.length ? `The command ${cls.reasons.join('; ')}.` : 'Runs a command.' };
      return { type: 'ask', reason: `${intent.tool} changes ${intent.paths.join(', ') || 'files'}.` };
    },
  };
}

/** The command run_tests will run when it is given none, so the user sees it before approving. */
async function detectedTestCommand(intent: ToolIntent, ctx: PolicyContext): Promise<DetectedCommand | undefined> {
  if (intent.tool !== 'run_tests' || !ctx.workspace) return undefined;
  if (typeof (intent.input as { command?: unknown } | null)?.command === 'string') return undefined;
  return detectTestCommand(ctx.workspace).catch(() => undefined);
}

/** The command line a tool will run, classified; undefined for tools that run none. */
function commandClass(intent: ToolIntent, rules: CommandRules, detected: string | undefined): CommandClassification | undefined {
  const command = (intent.input as { command?: unknown } | null)?.command;
  if (typeof command === 'string') return classifyCommand(command, rules);
  if (detected !== undefined) return classifyCommand(detected, rules);
  // run_tests with nothing detected fails before running anything.
  if (intent.tool === 'run_tests') return { type: 'test_run', reasons: [], programs: [], paths: [] };
  return undefined;
}

/** The folder the command starts in, relative to the workspace root. */
function commandCwd(intent: ToolIntent): string {
  const cwd = (intent.input as { cwd?: unknown } | null)?.cwd;
  return typeof cwd === 'string' && cwd !== '' ? cwd : '.';
}

async function checkPaths(intent: ToolIntent, ctx: PolicyContext): Promise<PolicyDecision | undefined> {
  if (intent.paths.length === 0) return undefined;
  if (!ctx.workspace) return { type: 'ask', reason: 'No workspace folder is open to check the paths against.' };
  for (const p of intent.paths) {
    let rel: string;
    try {
      rel = await ctx.workspace.resolve(p);
    } catch (err) {
      if (
        (err instanceof WorkspaceError || (err as Error)?.name === 'WorkspaceError') &&
        (err as WorkspaceError).code === 'outside_workspace'
      )
        return { type: 'deny', reason: `${p} is outside the workspace.` };
      return { type: 'ask', reason: `${p} could not be checked: ${(err as Error).message}` };
    }
    const why = protectedReason(rel);
    if (why && (!ctx.tool.readOnly || isSecretFile(rel))) return { type: 'ask', reason: `${rel || '.'} ${why}; it always asks.` };
  }
  return undefined;
}
