// The header's second row: the model in use (click: the host's picker of the configured
// provider's models, with free text for OpenAI-compatible servers) and the risk classes that run
// without asking (click: the host's toggles). Both write user-level settings in the host; this
// only shows what the hints say and asks.
import { type Hints, TestIds, type WebviewMessage } from '../src/protocol/index.js';
import { h, icon } from './dom.js';

export class HeaderControls {
  readonly el: HTMLElement;
  private readonly model: HTMLButtonElement;
  private readonly autoApprove: HTMLButtonElement;

  constructor(post: (m: WebviewMessage) => void) {
    this.model = pickerButton(TestIds.modelPicker, 'hubot', () => post({ type: 'model/pick' }));
    this.autoApprove = pickerButton(TestIds.autoApprovePicker, 'shield', () => post({ type: 'autoApprove/pick' }));
    this.el = h('div', { class: 'header-controls' }, this.model, this.autoApprove);
    this.update({ noApiKey: false, restricted: false, canResume: false });
  }

  update(hints: Hints): void {
    const m = hints.model;
    const modelText = m ? m.model || '(default model)' : 'Model';
    const vision = m && !m.vision ? ' · text only' : '';
    setLabel(this.model, modelText + vision, m ? `Model: ${m.provider} / ${modelText}${vision} (change)` : 'Choose the model');
    const classes = hints.autoApprove;
    if (!classes) return setLabel(this.autoApprove, 'Auto-approve', 'Choose what runs without asking');
    const autoText = classes.length ? `Auto: ${classes.join(', ')}` : 'Auto: none';
    setLabel(this.autoApprove, autoText, `Runs without asking: ${classes.length ? classes.join(', ') : 'nothing'} (change)`);
  }
}

function pickerButton(testId: string, glyph: string, onClick: () => void): HTMLButtonElement {
  const button = h(
    'button',
    { class: 'header-picker', attrs: { type: 'button', 'data-testid': testId, 'aria-haspopup': 'listbox' } },
    icon(glyph),
    h('span', { class: 'header-picker-text' }),
    icon('chevron-down'),
  );
  button.addEventListener('click', onClick);
  return button;
}

function setLabel(button: HTMLButtonElement, text: string, label: string): void {
  button.querySelector('.header-picker-text')!.textContent = text;
  button.title = label;
  button.setAttribute('aria-label', label);
}
