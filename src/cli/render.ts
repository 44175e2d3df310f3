// What the headless run prints: the answer as it streams, and a line per intent and outcome
// (the model's call summaries with anything invisible in them shown, never interpreted).
import {
  isGateRefusal,
  modelKeptText,
  requestBreakdown,
  TODO_MARKS,
  visibleText,
  type ConversationState,
  type ModelRequest,
  type RuntimeEvent,
  type TodoItem,
  type ToolIntent,
} from '../kernel/index.js';

export interface Printer {
  out(text: string): void;
  line(text: string): void;
}

export function streamPrinter(stdout: NodeJS.WritableStream): Printer {
  let atLineStart = true;
  return {
    out(text) {
      if (!text) return;
      stdout.write(text);
      atLineStart = text.endsWith('\n');
    },
    line(text) {
      stdout.write(`${atLineStart ? '' : '\n'}${text}\n`);
      atLineStart = true;
    },
  };
}

/** Prints one runtime event; `intents` looks intents up for their summary. */
export function renderEvent(p: Printer, e: RuntimeEvent, intent: (id: string) => ToolIntent | undefined): void {
  const label = (id: string) => {
    const i = intent(id);
    return i ? `${i.tool} ${visibleText(i.summary)}`.trim() : id;
  };
  switch (e.type) {
    case 'text_delta':
      return p.out(e.text);
    case 'intent_proposed':
      return p.line(`▸ proposed ${e.intent.tool}: ${visibleText(e.intent.summary)} [${e.intent.risk}]`);
    case 'approval_requested':
      return p.line(
        `? ${label(e.intentId)} needs approval: ${e.command ? `runs \`${visibleText(e.command)}\` — ` : ''}${visibleText(e.reason)}`,
      );
    case 'intent_approved':
      return p.line(`✓ approved ${label(e.intentId)}${e.auto ? ' (by policy)' : e.scope !== 'once' ? ` (${e.scope})` : ''}`);
    case 'intent_rejected':
      if (e.unanswered) return p.line(`✗ not run, nobody to approve it: ${label(e.intentId)}`);
      return p.line(`✗ rejected ${label(e.intentId)}${e.reason ? `: ${e.reason}` : ''}`);
    case 'observation': {
      const o = e.observation;
      const what = o.summary ?? firstLine(o.content);
      // A call the mode, the agent or a skill kept from running says so in words, not as an error code.
      if (isGateRefusal(o.code)) p.line(`  ↳ ${what}`);
      else p.line(`${o.ok ? '  ↳ ok' : `  ↳ ${o.code ?? 'failed'}`}: ${what}`);
      // The list changed (a todo_write): printed whole, as the user would see it pinned in the editor.
      if (o.ok && o.facts?.todos) printTodos(p, o.facts.todos);
      return;
    }
    case 'mode_set':
      return p.line(`◇ ${MODE_LINES[e.mode]}`);
    case 'run_started':
      // The custom agent named a model this task cannot run: said once per run, never an error.
      return e.modelKept ? p.line(`◇ ${modelKeptText(e.modelKept, e.model)}`) : undefined;
    case 'agent_set':
      return p.line(
        e.agent
          ? `◇ agent ${e.agent.name} (${e.agent.file}): ${e.agent.tools ? `tools ${e.agent.tools.join(', ') || 'none'}` : 'every tool'}`
          : '◇ no custom agent',
      );
    case 'context_folded': {
      const steps = e.steps.first === e.steps.last ? `step ${e.steps.first}` : `steps ${e.steps.first}–${e.steps.last}`;
      const by = e.source === 'model' ? 'note by the model' : 'note by Keel';
      return p.line(`⤵ folded ${steps} into a note (${tokens(e.tokensBefore)} → ${tokens(e.tokensAfter)} tokens, ${by})`);
    }
    case 'checkpoint_recorded': {
      // Only what a person must know: a change whose prior bytes were not kept cannot be undone.
      const skipped = e.files.filter((f) => f.skipped);
      if (skipped.length === 0) return;
      const files = skipped.map((f) => `${visibleText(f.path)} (${megabytes(f.skipped!.size)})`).join(', ');
      return p.line(`! the checkpoint of step ${e.step} did not keep ${files}: over the size cap, so that change cannot be restored`);
    }
    case 'turn_retry':
      return p.line(`… ${e.error.message} — retrying in ${Math.ceil(e.delayMs / 1000)} s`);
    case 'model_error':
      return p.line(`! ${e.error.message}`);
    case 'remote_update': {
      const what = e.kind === 'artifact' ? `artifact ${visibleText(e.name ?? '')}` : e.state ? `${e.kind} [${e.state}]` : e.kind;
      return p.line(`  ⇄ ${visibleText(e.agent)} ${what}: ${visibleText(firstLine(e.text))}`);
    }
    case 'hook_ran':
      // Only what stopped something or went wrong: a hook that lets things through stays quiet.
      if (e.outcome !== 'block' && e.outcome !== 'error') return;
      return p.line(
        `⛔ hook ${e.outcome === 'block' ? 'blocked' : 'failed'} at ${e.point}${e.tool ? ` (${e.tool})` : ''}: ${visibleText(firstLine(e.reason ?? ''))} — ${visibleText(e.hook)} (${e.source})`,
      );
    case 'run_failed':
      return p.line(`✗ run failed: ${e.error.message}`);
    case 'run_cancelled':
      return p.line('✗ run cancelled');
    case 'run_finished':
      return p.line('✓ done');
    default:
      return;
  }
}

const MODE_LINES: Record<Extract<RuntimeEvent, { type: 'mode_set' }>['mode'], string> = {
  agent: 'Agent mode: every tool',
  plan: 'Plan mode: only tools that change nothing; the run ends with a plan',
  ask: 'Ask mode: only tools that change nothing',
};

/** The to-do list as a compact block: a head with the count done, then one item a line with its state. */
function printTodos(p: Printer, todos: readonly TodoItem[]): void {
  const done = todos.filter((t) => t.status === 'done').length;
  p.line(`☰ to-do list, ${done} of ${todos.length} done${todos.length === 0 ? ' (empty)' : ''}:`);
  for (const t of todos) p.line(`  ${TODO_MARKS[t.status]} ${visibleText(t.text)}${t.status === 'in_progress' ? '  (in progress)' : ''}`);
}

/**
 * The run's context and cost in one line: the next request's parts against the window, the
 * folds, and the task's tokens per kind with their cost when the price is known.
 */
export function contextLine(next: ModelRequest, state: ConversationState, window: number): string {
  const folds = state.context.folds.length;
  const b = requestBreakdown(next);
  const used = b.systemTools + b.notes + b.history;
  const u = state.usage;
  const of = window ? ` of ${tokens(window)}` : '';
  const cost = u.costUsd === undefined ? '' : ` · $${u.costUsd.toFixed(u.costUsd < 1 ? 3 : 2)}`;
  return (
    `context ${tokens(used)}${of} tokens (system+tools ${tokens(b.systemTools)} · notes+ledger ${tokens(b.notes)} · ` +
    `history ${tokens(b.history)} · output reserve ${tokens(b.outputReserve)}) · ${folds} fold${folds === 1 ? '' : 's'} · ` +
    `tokens in ${tokens(u.inputTokens)}, cache read ${tokens(u.cacheReadTokens)}, cache write ${tokens(u.cacheWriteTokens)}, out ${tokens(u.outputTokens)}${cost}`
  );
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function tokens(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}…` : line;
}
