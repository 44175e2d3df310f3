// The context meter in the composer's toolbar: "Context 12%" beside a bar of the model's window
// split into Keel's instructions and tools, the project summary and notes (repo map, folded notes,
// ledger), this conversation and the room kept for the answer (drawn apart, lighter, so the used
// part reads at a glance). The words are a user's, not Keel's internals; the tooltip and the
// details (a click) give the tokens of each part, the window and the cost per kind, with a quiet
// "Summarize finished steps" (a fold). Widths are set through CSSOM (allowed under the CSP).
import { TestIds, type Meter, type TokenKinds } from '../src/protocol/index.js';
import { actionButton, h, setHidden } from './dom.js';

const PARTS = ['systemTools', 'notes', 'history', 'outputReserve'] as const;
type Part = (typeof PARTS)[number];
const LABEL: Record<Part, string> = {
  systemTools: 'instructions and tools',
  notes: 'project summary and notes',
  history: 'this conversation',
  outputReserve: 'room for the answer',
};
const KINDS: { key: keyof TokenKinds; label: string }[] = [
  { key: 'input', label: 'input' },
  { key: 'cacheRead', label: 'cache read' },
  { key: 'cacheWrite', label: 'cache write' },
  { key: 'output', label: 'output' },
];

export function formatTokens(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

function formatUsd(n: number): string {
  return `$${n.toFixed(n < 1 ? 3 : 2)}`;
}

/** Tokens per part as the bar shows them: the input parts scaled to what the model reported using. */
function shownParts(meter: Meter): Record<Part, number> {
  const { split } = meter;
  const estimated = split.systemTools + split.notes + split.history;
  const scale = estimated > 0 ? meter.usedTokens / estimated : 0;
  return {
    systemTools: split.systemTools * scale,
    notes: split.notes * scale,
    history: split.history * scale,
    outputReserve: split.outputReserve,
  };
}

/** "Context 12%" of a known window; "Context 2.4k tokens" when the window is unknown. */
function meterLabel(meter: Meter): string {
  if (!meter.windowTokens) return `Context ${formatTokens(meter.usedTokens)} tokens`;
  const share = (meter.usedTokens / meter.windowTokens) * 100;
  return `Context ${share > 0 && share < 1 ? '<1' : Math.round(share)}%`;
}

export class MeterView {
  /** The compact bar in the header. */
  readonly el: HTMLElement;
  /** The details under the header, open on click. */
  readonly details: HTMLElement;
  private readonly toggleButton: HTMLButtonElement;
  private readonly bar = h('span', { class: 'meter-bar', attrs: { role: 'meter', 'aria-valuemin': '0' } });
  private readonly segments = PARTS.map((part) => h('span', { class: `meter-seg seg-${part}` }));
  private readonly label = h('span', { class: 'meter-label' });
  private readonly rows = h('div', { class: 'meter-rows' });
  private readonly tokens = h('div', { class: 'meter-tokens' });
  private readonly cost = h('div', { class: 'meter-cost' });
  private open = false;

  constructor() {
    this.bar.append(...this.segments);
    this.toggleButton = h(
      'button',
      {
        class: 'meter-toggle',
        attrs: {
          type: 'button',
          'data-action': 'toggle-meter',
          'aria-label': 'Context and cost',
          'aria-expanded': 'false',
          'aria-controls': 'keel-meter-details',
        },
      },
      this.bar,
      this.label,
    );
    this.el = h('div', { class: 'meter', attrs: { 'data-testid': TestIds.meter } }, this.toggleButton);
    const fold = actionButton('fold-context', 'Replace the finished steps with a short note, to free room for the rest of the task', {
      text: 'Summarize finished steps',
      testId: TestIds.foldNow,
      class: 'button secondary',
    });
    this.details = h(
      'div',
      {
        class: 'meter-details',
        attrs: { id: 'keel-meter-details', 'data-testid': TestIds.meterDetails, role: 'region', 'aria-label': 'Context and cost' },
      },
      this.rows,
      this.tokens,
      this.cost,
      h('div', { class: 'meter-actions' }, fold),
    );
    this.el.hidden = true;
    this.details.hidden = true;
  }

  get isOpen(): boolean {
    return this.open;
  }

  toggle(open = !this.open): void {
    this.open = open;
    this.toggleButton.setAttribute('aria-expanded', String(open));
    setHidden(this.details, !open || this.el.hidden);
  }

  update(meter: Meter | undefined): void {
    this.el.hidden = !meter;
    setHidden(this.details, !meter || !this.open);
    if (!meter) return;
    const window = meter.windowTokens || Math.max(meter.usedTokens + meter.split.outputReserve, 1);
    const parts = shownParts(meter);
    PARTS.forEach((part, i) => {
      this.segments[i]!.style.width = `${Math.min(100, (parts[part] / window) * 100).toFixed(2)}%`;
    });
    this.label.textContent = meterLabel(meter);
    const total = meter.costUsd === undefined ? '' : `; ${formatUsd(meter.costUsd)} so far`;
    const of = meter.windowTokens ? ` of the model's ${formatTokens(meter.windowTokens)}-token window` : ' (window unknown)';
    const split = PARTS.map((p) => `${LABEL[p]} ${formatTokens(parts[p])}`).join(' · ');
    const words = `Context in use: ${formatTokens(meter.usedTokens)} tokens${of}${total}. ${split}.`;
    this.toggleButton.title = `${words} Click for tokens and cost.`;
    this.bar.setAttribute('aria-valuemax', String(window));
    this.bar.setAttribute('aria-valuenow', String(meter.usedTokens));
    this.bar.setAttribute('aria-label', words);
    this.toggleButton.setAttribute('aria-label', `${this.label.textContent}: ${words}`);
    this.renderDetails(meter, parts);
  }

  private renderDetails(meter: Meter, parts: Record<Part, number>): void {
    this.rows.replaceChildren(
      ...PARTS.map((p) =>
        h(
          'div',
          { class: 'meter-row', attrs: { 'data-part': p } },
          h('span', { class: `meter-swatch seg-${p}` }),
          h('span', {
            class: 'meter-row-label',
            text: p === 'notes' && meter.folds ? `${LABEL[p]} (${meter.folds} fold${meter.folds === 1 ? '' : 's'})` : LABEL[p],
          }),
          h('span', { class: 'meter-row-value', text: formatTokens(parts[p]) }),
        ),
      ),
    );
    const tokens = KINDS.map((k) => `${k.label} ${formatTokens(meter.tokens[k.key])}`).join(' · ');
    this.tokens.textContent = `Tokens so far: ${tokens}`;
    const cost = meter.cost;
    this.cost.textContent = cost
      ? `Cost so far: ${KINDS.map((k) => `${k.label} ${formatUsd(cost[k.key])}`).join(' · ')} = ${formatUsd(meter.costUsd ?? 0)}`
      : 'Cost: this model has no known price.';
  }
}
