// The approval policy: deny rules → outside the workspace (deny) → protected paths (ask) →
// a command's writes outside the workspace (deny) → risky commands (ask unless this exact
// command was approved, or every class is approved) → standing approvals → tools that always
// ask (MCP tools the CLI's config does not trust) → memory writes (ask unless memory writes are
// auto-approved) → a read-only command's paths (outside, secret: ask) → where its test runners
// and git start (a config search or repository reaching outside, a git config naming a
// program: ask) → commands an allow rule names → auto-approved risk classes → defaults (reads
// run; writes and commands ask). A command let run carries the sandbox profile it runs in
// (sandbox-choice.ts).
import {
  grantCovers,
  WorkspaceError,
  type ApprovalPolicy,
  type PolicyContext,
  type PolicyDecision,
  type Risk,
  type SandboxMode,
  type ToolIntent,
  type Workspace,
} from '../../kernel/index.js';
import type { CommandRules } from './classify-argv.js';
import { classifyCommand, ruleTokens, type CommandClassification } from './classify-command.js';
import { commandContextProblem } from './command-context.js';
import { commandReadProblem, commandWriteProblem } from './command-paths.js';
import { isSecretFile, protectedPathReason } from './protected-paths.js';
import { rulesFileLinkingTo } from './rules-links.js';
import { hookRunning } from './hook-named-files.js';
import { withAllowHint } from './allow-hint.js';
import { approvedRun, unaskedRun } from './sandbox-choice.js';
import { MEMORY_WRITE_TOOLS } from '../memory/visibility.js';
import { detectTestCommand, type DetectedCommand } from '../run-tests/detect-command.js';

export interface PolicyOptions {
  /** Risk classes that run without asking. For commands, only read-only ones unless `approveUnclassified`. */
  autoApprove?: Risk[];
  /**
   * Word prefixes: `allow` lines run without asking (the user named them), `deny` lines are
   * refused. A line runs by an allow rule only if every command in it is allowed or read-only.
   */
  commandRules?: { allow?: string[]; deny?: string[] };
  /**
   * With `execute` auto-approved, commands of every class run without asking — ones that
   * change things, use the network (with `network` approved too) or cannot be classified —
   * except dangerous ones, which still ask. Deny rules and path checks still apply first.
   */
  approveUnclassified?: boolean;
  /** Memory writes (remember, forget) run without asking; `write` alone does not cover them. */
  autoApproveMemory?: boolean;
  /** Which commands run in the OS sandbox (sandbox-choice.ts); default: those that run unasked. */
  sandbox?: SandboxMode;
}

const ALWAYS_ASK = new Set<CommandClassification['type']>(['network', 'dangerous', 'unparseable']);
/** Classes that auto-approve like reads: read-only commands, and the project's own tests. */
const READS = new Set<CommandClassification['type']>(['read_only', 'test_run']);

export function createPolicy(options: PolicyOptions = {}): ApprovalPolicy {
  const auto = new Set(options.autoApprove ?? []);
  const mode = options.sandbox ?? 'unasked';
  const rules: CommandRules = {
    allow: (options.commandRules?.allow ?? []).map(ruleTokens),
    deny: (options.commandRules?.deny ?? []).map(ruleTokens),
  };
  /** Whether an auto-approved risk covers a command of this class (no command: yes). */
  const autoRuns = (cls: CommandClassification | undefined): boolean => {
    if (!cls || READS.has(cls.type)) return true;
    if (!options.approveUnclassified) return false;
    if (cls.type === 'execute' || cls.type === 'unparseable') return true;
    return cls.type === 'network' && auto.has('network');
  };
  /** How a command runs that the user approved; nothing for calls that run no command. */
  const approved = (cls: CommandClassification | undefined) => (cls ? { sandbox: approvedRun(mode) } : {});
  /**
   * A call its risk class auto-approves. Read-only commands and test runs go in the sandbox;
   * other commands run only when every kind was approved (--approve all), as the user approved
   * them, and so do reads and test runs then when no sandbox is available.
   */
  const autoRun = (cls: CommandClassification | undefined, ctx: PolicyContext, reason: string): PolicyDecision => {
    if (!cls) return { type: 'allow', reason };
    if (!READS.has(cls.type)) return { type: 'allow', reason, sandbox: approvedRun(mode) };
    const decision = unaskedRun(cls, mode, ctx.workspace, reason);
    if (decision.type === 'ask' && options.approveUnclassified) return { type: 'allow', reason, sandbox: approvedRun(mode) };
    return decision;
  };
  return {
    async decide(intent: ToolIntent, ctx: PolicyContext): Promise<PolicyDecision> {
      const detected = await detectedTestCommand(intent, ctx);
      const cls = commandClass(intent, rules, detected?.command);
      return withAllowHint(await decideFor(intent, ctx, detected, cls), commandLine(intent) ?? detected?.command, cls);
    },
  };

  async function decideFor(
    intent: ToolIntent,
    ctx: PolicyContext,
    detected: DetectedCommand | undefined,
    classified: CommandClassification | undefined,
  ): Promise<PolicyDecision> {
    let cls = classified;
    if (cls?.type === 'denied') return { type: 'deny', reason: cls.reasons[0] ?? 'denied by a command rule' };
    const where = await checkPaths(intent, ctx);
    if (where) return where;
    const writes = cls && ctx.workspace ? await commandWriteProblem(cls, commandCwd(intent), ctx.workspace) : undefined;
    if (writes) return writes;
    if (cls && ALWAYS_ASK.has(cls.type)) {
      if (ctx.grants.some((g) => g.command !== undefined && grantCovers(g, intent)))
        return { type: 'allow', reason: 'this exact command was approved earlier', ...approved(cls) };
      if (auto.has(intent.risk) && autoRuns(cls))
        return { type: 'allow', reason: `every ${intent.risk} is auto-approved`, ...approved(cls) };
      return { type: 'ask', reason: `The command ${cls.reasons.join('; ')}.`, ...approved(cls) };
    }
    if (ctx.grants.some((g) => grantCovers(g, intent))) return { type: 'allow', reason: 'approved earlier', ...approved(cls) };
    if (ctx.tool.alwaysAsks) return { type: 'ask', reason: ctx.tool.alwaysAsks };
    if (MEMORY_WRITE_TOOLS.has(intent.tool))
      return options.autoApproveMemory
        ? { type: 'allow', reason: 'memory writes are auto-approved' }
        : { type: 'ask', reason: `${intent.summary} — memory outlives this task.` };
    const reads = cls && ctx.workspace ? await commandReadProblem(cls, commandCwd(intent), ctx.workspace) : undefined;
    if (reads) return { type: 'ask', reason: reads, ...approved(cls) };
    const context = cls && ctx.workspace ? await commandContextProblem(cls, commandCwd(intent), ctx.workspace) : undefined;
    if (context?.type === 'ask') return { type: 'ask', reason: context.reason, ...approved(cls) };
    if (context && cls) cls = { ...cls, sandboxOnly: cls.sandboxOnly ?? context.reason };
    if (cls && allowedByRule(intent, cls, rules, detected?.command))
      return unaskedRun(cls, mode, ctx.workspace, 'an allowed command prefix covers it', true);
    if (auto.has(intent.risk) && autoRuns(cls)) return autoRun(cls, ctx, `${intent.risk} is auto-approved`);
    // A tool that changes nothing but reaches the network (web_fetch) is no read: it asks.
    if (ctx.tool.readOnly && intent.risk === 'read') return { type: 'allow', reason: 'reads inside the workspace run' };
    if (detected)
      return { type: 'ask', reason: `Detected from the project: ${detected.because}.`, command: detected.command, ...approved(cls) };
    if (cls)
      return { type: 'ask', reason: cls.reasons.length ? `The command ${cls.reasons.join('; ')}.` : 'Runs a command.', ...approved(cls) };
    return { type: 'ask', reason: askReason(intent) };
  }
}

/** Why a call without a command asks, in words a person uses (never the tool's internal name). */
function askReason(intent: ToolIntent): string {
  const paths = intent.paths.filter((p) => p !== '.').join(', ');
  switch (intent.risk) {
    case 'write':
      return paths ? `Changes ${paths}.` : 'Changes files.';
    case 'execute':
      return 'Runs code outside the workspace tools (it may change files or the system).';
    case 'network':
      return 'Uses the network.';
    case 'read':
      return paths ? `Reads ${paths}.` : 'Reads files.';
  }
}

/**
 * True when the line is read-only only thanks to an allow rule: the user named these commands,
 * so they run without asking even when `execute` is not auto-approved.
 */
function allowedByRule(intent: ToolIntent, cls: CommandClassification, rules: CommandRules, detected: string | undefined): boolean {
  if (rules.allow.length === 0 || cls.type !== 'read_only') return false;
  const line = commandLine(intent) ?? detected;
  return line !== undefined && classifyCommand(line, { allow: [], deny: rules.deny }).type !== 'read_only';
}

function commandLine(intent: ToolIntent): string | undefined {
  const command = (intent.input as { command?: unknown } | null)?.command;
  return typeof command === 'string' ? command : undefined;
}

/** The command run_tests will run when it is given none, so the user sees it before approving. */
async function detectedTestCommand(intent: ToolIntent, ctx: PolicyContext): Promise<DetectedCommand | undefined> {
  if (intent.tool !== 'run_tests' || !ctx.workspace) return undefined;
  if (typeof (intent.input as { command?: unknown } | null)?.command === 'string') return undefined;
  return detectTestCommand(ctx.workspace).catch(() => undefined);
}

/** The command line a tool will run, classified; undefined for tools that run none. */
function commandClass(intent: ToolIntent, rules: CommandRules, detected: string | undefined): CommandClassification | undefined {
  const command = commandLine(intent);
  if (command !== undefined) return classifyCommand(command, rules);
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
    const why = protectedPathReason(p, rel);
    if (why && (!ctx.tool.readOnly || isSecretFile(rel)))
      return { type: 'ask', reason: `${rel || '.'} ${why}; it always asks.`, overridable: false };
    const linked = ctx.tool.readOnly ? undefined : await linkedProtection(ctx.workspace, rel);
    if (linked) return { type: 'ask', reason: `${rel} ${linked}; it always asks.`, overridable: false };
  }
  return undefined;
}

/** Why a file protected by what points at it (a rules-file link, a hook's command) asks, or undefined. */
async function linkedProtection(ws: Workspace, rel: string): Promise<string | undefined> {
  const rules = await rulesFileLinkingTo(ws, rel);
  if (rules) return `is a rules file (${rules} links to it): its text goes into every task's system prompt`;
  const hooks = await hookRunning(ws, rel);
  return hooks ? `is run by a hook (${hooks}): it runs at every matching call` : undefined;
}
