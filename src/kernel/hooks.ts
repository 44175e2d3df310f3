// The kernel's side of hooks: at each point it asks the HookPort (which runs the team's scripts;
// the kernel starts no process), logs every run as a `hook_ran` event, and turns the runs into
// one verdict. Guarding points (PreToolUse, UserPromptSubmit) fail closed: a hook that blocks or
// fails stops the call or the message. A hook's "allow" is no objection, never an approval: the
// call still goes through the policy. Context a hook adds reaches the model through the log (the
// observation's content, the user message's hookContext), so a replay reads the same bytes.
import type { RuntimeEventInput } from './contracts/events.js';
import type { HookCall, HookPoint, HookPort, HookRun } from './contracts/hooks.js';
import type { ToolIntent, ToolResult } from './contracts/tool.js';
import { messageOf } from './text.js';

interface HookEnv {
  readonly signal: AbortSignal;
  emit(event: RuntimeEventInput): void;
}

/** What the hooks before a call decided: it is refused, must be asked about, or goes on to the policy. */
export type ToolHookVerdict = { type: 'block'; reason: string } | { type: 'ask'; reason: string } | { type: 'go' };

/** What the hooks of a message decided: it is not sent, or it is sent with their context. */
export type PromptHookVerdict = { type: 'block'; reason: string } | { type: 'send'; context?: string };

/** The task's hooks: the port, and the context a PreToolUse hook gave until the call's observation. */
export class TaskHooks {
  private readonly pending = new Map<string, string>();

  constructor(private readonly port: HookPort) {}

  /** PreToolUse: before the policy. A block or a failed hook refuses the call; its context waits for the result. */
  async beforeTool(h: HookEnv, intent: ToolIntent): Promise<ToolHookVerdict> {
    const runs = await this.run(h, { point: 'PreToolUse', tool: intent.tool, toolInput: intent.input, intentId: intent.id });
    const refused = runs.filter((r) => r.outcome === 'block' || r.outcome === 'error');
    if (refused.length > 0) return { type: 'block', reason: `Blocked by a hook: ${reasons(refused)}` };
    const context = contextOf(runs);
    if (context) this.pending.set(intent.id, context);
    const asking = runs.filter((r) => r.outcome === 'ask');
    return asking.length > 0 ? { type: 'ask', reason: `A hook asks: ${reasons(asking)}` } : { type: 'go' };
  }

  /** PostToolUse: what the hooks say about the result is added to what the model reads. Fails open. */
  async afterTool(h: HookEnv, intent: ToolIntent, result: ToolResult): Promise<ToolResult> {
    const before = this.pending.get(intent.id);
    this.pending.delete(intent.id);
    const toolResult = { ok: result.ok, content: result.content };
    const runs = await this.run(h, { point: 'PostToolUse', tool: intent.tool, toolInput: intent.input, toolResult, intentId: intent.id });
    const feedback = runs.filter((r) => r.outcome === 'block').map((r) => `${r.hook}: ${r.reason ?? ''}`);
    const added = [before, contextOf(runs), ...feedback].filter((t): t is string => !!t);
    if (added.length === 0) return result;
    return { ...result, content: `${result.content}\n\n[Added by the task's hooks]\n${added.join('\n')}` };
  }

  /** TaskStart (the task's first message) and UserPromptSubmit: a block or failed hook keeps the message from the model. */
  async onPrompt(h: HookEnv, prompt: string, first: boolean): Promise<PromptHookVerdict> {
    const runs = [
      ...(first ? await this.run(h, { point: 'TaskStart' }) : []),
      ...(await this.run(h, { point: 'UserPromptSubmit', prompt })),
    ];
    const refused = runs.filter((r) => r.point === 'UserPromptSubmit' && (r.outcome === 'block' || r.outcome === 'error'));
    if (refused.length > 0) return { type: 'block', reason: `Not sent: a hook blocked the message: ${reasons(refused)}` };
    const context = contextOf(runs);
    return context ? { type: 'send', context } : { type: 'send' };
  }

  /** PreFold and TaskEnd: told, logged; what they answer changes nothing. */
  async notify(h: HookEnv, point: Extract<HookPoint, 'PreFold' | 'TaskEnd'>): Promise<void> {
    await this.run(h, { point });
  }

  private async run(h: HookEnv, call: HookCall): Promise<HookRun[]> {
    const answered = await this.port
      .run(call, h.signal)
      .catch((err: unknown) => [
        { hook: 'hooks', source: '', outcome: 'error' as const, reason: `Keel could not run the hooks: ${messageOf(err)}`, durationMs: 0 },
      ]);
    const runs = answered.map(
      (r): HookRun => ({
        ...r,
        point: call.point,
        ...(call.tool ? { tool: call.tool } : {}),
        ...(call.intentId ? { intentId: call.intentId } : {}),
      }),
    );
    for (const r of runs) h.emit({ type: 'hook_ran', ...r });
    return runs;
  }
}

function reasons(runs: readonly HookRun[]): string {
  return runs
    .map((r) => `${r.hook} (${r.source}): ${r.reason ?? (r.outcome === 'error' ? 'the hook failed' : 'no reason given')}`)
    .join('; ');
}

function contextOf(runs: readonly HookRun[]): string | undefined {
  const texts = runs.map((r) => r.context).filter((t): t is string => !!t);
  return texts.length > 0 ? texts.join('\n') : undefined;
}
