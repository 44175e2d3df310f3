// A run of consecutive finished read-only cards folds into one line ("Read 6 files, searched
// 2 times") that opens to show them: a 20-call task no longer fills 2,000 px with cards. The
// cards stay in the DOM (hidden), so their state and ids are unchanged.
import { h } from './dom.js';

const FINISHED_READ = '.intent-card.risk-read:is([data-intent-status="done"], [data-intent-status="failed"])';
/** Fewer cards than this in a row stay as they are. */
const MIN_GROUP = 2;

export class ReadGroups {
  private readonly open = new Set<string>();

  /** Opens or closes the group that starts with card `firstId`. */
  toggle(list: HTMLElement, firstId: string): void {
    if (!this.open.delete(firstId)) this.open.add(firstId);
    this.regroup(list);
  }

  /** Rebuilds the group lines of the rendered transcript (after cards were added or finished). */
  regroup(list: HTMLElement): void {
    for (const row of Array.from(list.querySelectorAll(':scope > .read-group'))) row.remove();
    let run: HTMLElement[] = [];
    for (const child of Array.from(list.children) as HTMLElement[]) {
      if (child.matches(FINISHED_READ)) run.push(child);
      else {
        this.close(list, run);
        run = [];
      }
    }
    this.close(list, run);
  }

  private close(list: HTMLElement, run: HTMLElement[]): void {
    const grouped = run.length >= MIN_GROUP;
    const firstId = run[0]?.dataset.intentId ?? '';
    const open = grouped && this.open.has(firstId);
    for (const card of run) card.classList.toggle('read-grouped', grouped && !open);
    if (!grouped) return;
    const row = h(
      'button',
      {
        class: 'read-group',
        attrs: {
          type: 'button',
          'data-action': 'toggle-read-group',
          'data-group': firstId,
          'aria-expanded': String(open),
          'data-testid': 'read-group',
        },
      },
      h('span', { class: `codicon codicon-chevron-${open ? 'down' : 'right'}`, attrs: { 'aria-hidden': 'true' } }),
      ` ${describeReads(run.map((card) => card.dataset.read ?? ''))}`,
    );
    row.setAttribute('aria-label', `${row.textContent?.trim()} — ${open ? 'hide' : 'show'} the calls`);
    list.insertBefore(row, run[0]!);
  }
}

/**
 * "Read 6 files, searched 2 times, 1 other read", by what each call established (its result's
 * `read`, from the observation's facts), never by the tool's name.
 */
function describeReads(established: readonly string[]): string {
  const reads = established.filter((r) => r === 'file').length;
  const searches = established.filter((r) => r === 'search').length;
  const other = established.length - reads - searches;
  const parts = [
    reads ? `read ${reads} file${reads === 1 ? '' : 's'}` : '',
    searches ? `searched ${searches} time${searches === 1 ? '' : 's'}` : '',
    other ? `${other} other read${other === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  const text = parts.join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
