// A message typed while a run is busy: kept here, shown as "Queued", and handed to the host when
// the run ends by itself; Stop puts it back in the composer, and the label says both (the host would otherwise start a new task for it). Cancel puts it back in the
// composer, so nothing typed is lost.
import { TestIds } from '../src/protocol/index.js';
import { actionButton, h, icon, setHidden } from './dom.js';

export class QueuedMessage {
  readonly el: HTMLElement;
  private readonly text = h('span', { class: 'queued-text' });
  private queued = '';

  constructor() {
    this.el = h(
      'div',
      { class: 'queued', attrs: { 'data-testid': TestIds.queued, role: 'status' } },
      icon('clock'),
      h('span', { class: 'queued-label', text: 'Queued — sent when this run ends (Stop puts it back in the box):' }),
      this.text,
      actionButton('queued-cancel', 'Cancel the queued message (back to the input)', { icon: 'close', testId: TestIds.queuedCancel }),
    );
    this.el.hidden = true;
  }

  add(text: string): void {
    this.queued = this.queued ? `${this.queued}\n\n${text}` : text;
    this.render();
  }

  /** Empties the queue and returns what it held ('' when nothing). */
  take(): string {
    const text = this.queued;
    this.queued = '';
    this.render();
    return text;
  }

  private render(): void {
    this.text.textContent = this.queued;
    setHidden(this.el, !this.queued);
  }
}
