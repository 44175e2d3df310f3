// The input box: Enter sends, Shift+Enter is a newline; Stop joins Send while a run is live,
// and Send (or Enter) then hands the text over to be queued until the run stops. The box grows
// with what is typed or pasted, up to about ten lines, then scrolls (CSS `field-sizing`; the
// row count below is the fallback where that is not supported). Send looks like a primary button
// only when there is something to send. A toolbar under the text holds `@` and the buttons.
import { TestIds } from '../src/protocol/index.js';
import { CommandCompletion } from './command-complete.js';
import { actionButton, h, setHidden } from './dom.js';

/** Lines the box shows at rest and at most before it scrolls. */
const COMPOSER_MIN_ROWS = 2;
const COMPOSER_MAX_ROWS = 10;

export class Composer {
  readonly el: HTMLElement;
  readonly input: HTMLTextAreaElement;
  /** The row under the text: context (`@`) on the left; the meter, Stop and Send on the right. */
  readonly toolbar: HTMLElement;
  private readonly start = h('div', { class: 'composer-start' });
  private readonly end = h('div', { class: 'composer-end' });
  private readonly send: HTMLButtonElement;
  private readonly stop: HTMLButtonElement;
  /** The `/` command list, above the box. */
  readonly commands: CommandCompletion;
  /** Other lists over the box (the `@` menu): a key one of them takes is not the composer's. */
  readonly keyTakers: ((e: KeyboardEvent) => boolean)[] = [];

  constructor(
    private readonly onSend: (text: string) => void,
    private readonly onDraft: (text: string) => void,
  ) {
    this.input = h('textarea', {
      class: 'composer-input',
      attrs: {
        rows: String(COMPOSER_MIN_ROWS),
        placeholder: 'Ask Keel to do something… (@ adds context)',
        'aria-label': 'Message Keel (Enter to send, Shift+Enter for a new line)',
        'data-testid': TestIds.input,
      },
    });
    this.send = actionButton('send', 'Send', { icon: 'send', testId: TestIds.send, class: 'icon-button composer-send' });
    this.stop = actionButton('stop', 'Stop', { icon: 'debug-stop', testId: TestIds.stop });
    this.end.append(this.stop, this.send);
    this.toolbar = h('div', { class: 'composer-toolbar' }, this.start, this.end);
    this.commands = new CommandCompletion(this.input);
    this.el = h('div', { class: 'composer' }, this.commands.el, this.input, this.toolbar);
    this.input.addEventListener('keydown', (e) => this.onKey(e));
    this.input.addEventListener('input', () => {
      this.sync();
      this.onDraft(this.input.value);
    });
    this.setBusy(false);
  }

  /** Adds a control to the toolbar: at the start (after `@`), or at the end before Stop and Send. */
  addTool(el: HTMLElement, where: 'start' | 'end'): void {
    if (where === 'start') this.start.append(el);
    else this.end.prepend(el);
  }

  setBusy(busy: boolean): void {
    // Stop going away must not drop the keyboard on the page: it goes back to the text.
    const stopHadFocus = document.activeElement === this.stop;
    setHidden(this.stop, !busy);
    if (stopHadFocus && !busy) this.input.focus();
    // While busy Send stays: what it sends waits, queued, until the run ends (Stop hands it back).
    const label = busy ? 'Queue (sent when this run ends; Stop puts it back)' : 'Send';
    this.send.setAttribute('aria-label', label);
    this.send.title = label;
    this.sync();
  }

  setDraft(text: string): void {
    this.input.value = text;
    this.sync();
  }

  /** Puts the keyboard in the box, the caret after what is there. */
  focus(): void {
    this.input.focus();
    const end = this.input.value.length;
    this.input.setSelectionRange(end, end);
  }

  /** Sends the draft (from Enter or the Send button). */
  submit(): void {
    const text = this.input.value.trim();
    if (!text) return;
    this.onSend(text);
    this.input.value = '';
    this.onDraft('');
    this.sync();
  }

  private onKey(e: KeyboardEvent): void {
    if (this.commands.onKey(e) || this.keyTakers.some((take) => take(e))) return;
    if (e.key !== 'Enter' || e.shiftKey || e.isComposing) return;
    e.preventDefault();
    this.submit();
  }

  private sync(): void {
    const empty = this.input.value.trim() === '';
    this.send.disabled = empty;
    this.send.classList.toggle('ready', !empty);
    const lines = this.input.value.split('\n').length;
    const rows = String(Math.min(COMPOSER_MAX_ROWS, Math.max(COMPOSER_MIN_ROWS, lines)));
    if (this.input.getAttribute('rows') !== rows) this.input.setAttribute('rows', rows);
  }
}
