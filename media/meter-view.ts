// Context in use against the model's window, split system · tools · conversation · tool
// results, and the cost so far. Widths are set through CSSOM (allowed under the CSP).
import { TestIds, type Meter } from '../src/protocol/index.js';
import { h } from './dom.js';

const PARTS = ['system', 'tools', 'conversation', 'toolResults'] as const;
const LABEL: Record<(typeof PARTS)[number], string> = {
  system: 'system',
  tools: 'tools',
  conversation: 'conversation',
  toolResults: 'tool results',
};

function formatTokens(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export class MeterView {
  readonly el: HTMLElement;
  private readonly bar = h('div', { class: 'meter-bar' });
  private readonly segments = PARTS.map((part) => h('span', { class: `meter-seg seg-${part}` }));
  private readonly label = h('span', { class: 'meter-label' });

  constructor() {
    this.bar.append(...this.segments);
    this.el = h(
      'div',
      { class: 'meter', attrs: { 'data-testid': TestIds.meter, role: 'meter', 'aria-valuemin': '0' } },
      this.bar,
      this.label,
    );
    this.el.hidden = true;
  }

  update(meter: Meter | undefined): void {
    this.el.hidden = !meter;
    if (!meter) return;
    const window = meter.windowTokens || Math.max(meter.usedTokens, 1);
    const estimated = PARTS.reduce((sum, p) => sum + meter.split[p], 0) || 1;
    PARTS.forEach((part, i) => {
      // The split is an estimate: scale it to the measured total so the bar shows real use.
      const share = (meter.split[part] / estimated) * (meter.usedTokens / window);
      this.segments[i]!.style.width = `${Math.min(100, share * 100).toFixed(2)}%`;
    });
    const cost = meter.costUsd === undefined ? '' : ` · $${meter.costUsd.toFixed(meter.costUsd < 1 ? 3 : 2)}`;
    const of = meter.windowTokens ? ` / ${formatTokens(meter.windowTokens)}` : '';
    this.label.textContent = `${formatTokens(meter.usedTokens)}${of} tokens${cost}`;
    const split = PARTS.map((p) => `${LABEL[p]} ${formatTokens(meter.split[p])}`).join(' · ');
    this.el.title = `Context: ${split}`;
    this.el.setAttribute('aria-valuemax', String(window));
    this.el.setAttribute('aria-valuenow', String(meter.usedTokens));
    this.el.setAttribute('aria-label', `Context ${this.label.textContent}; ${split}`);
  }
}
