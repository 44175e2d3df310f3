// The input box: Enter sends, Shift+Enter is a newline; Stop joins Send while a run is live,
// and Send (or Enter) then hands the text over to be queued until the run stops.
import { TestIds } from '../src/protocol/index.js';
import { actionButton, h, setHidden } from './dom.js';

export class Composer {
  readonly el: HTMLElement;
  readonly input: HTMLTextAreaElement;
  private readonly send: HTMLButtonElement;
  private readonly stop: HTMLButtonElement;

  constructor(
    private readonly onSend: (text: string) => void,
    private readonly onDraft: (text: string) => void,
  ) {
    this.input = h('textarea', {
      class: 'composer-input',
      attrs: {
        rows: '3',
        placeholder: 'Ask Keel to do something… (Enter to send, Shift+Enter for a new line)',
        'aria-label': 'Message Keel',
        'data-testid': TestIds.input,
      },
    });
    this.send = actionButton('send', 'Send', { icon: 'send', testId: TestIds.send });
    this.stop = actionButton('stop', 'Stop', { icon: 'debug-stop', testId: TestIds.stop });
    this.el = h('div', { class: 'composer' }, this.input, h('div', { class: 'composer-buttons' }, this.send, this.stop));
    this.input.addEventListener('keydown', (e) => this.onKey(e));
    this.input.addEventListener('input', () => {
      this.syncSend();
      this.onDraft(this.input.value);
    });
    this.setBusy(false);
  }

  /** The user is writing a message here (focus would be taken from them). */
  get typing(): boolean {
    return document.activeElement === this.input && this.input.value.trim() !== '';
  }

  setBusy(busy: boolean): void {
    setHidden(this.stop, !busy);
    // While busy Send stays: what it sends waits, queued, until the run stops.
    const label = busy ? 'Queue (sent when the run stops)' : 'Send';
    this.send.setAttribute('aria-label', label);
    this.send.title = label;
    this.syncSend();
  }

  setDraft(text: string): void {
    this.input.value = text;
    this.syncSend();
  }

  /** Sends the draft (from Enter or the Send button). */
  submit(): void {
    const text = this.input.value.trim();
    if (!text) return;
    this.onSend(text);
    this.input.value = '';
    this.onDraft('');
    this.syncSend();
  }

  private onKey(e: KeyboardEvent): void {
    if (e.key !== 'Enter' || e.shiftKey || e.isComposing) return;
    e.preventDefault();
    this.submit();
  }

  private syncSend(): void {
    this.send.disabled = this.input.value.trim() === '';
  }
}
