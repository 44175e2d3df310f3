// The header's second row: the mode the next message is sent in (Agent, Plan, Ask: chosen here,
// logged by the host with the message), the model in use (click: the host's picker of the
// configured provider's models, with free text for OpenAI-compatible servers) and the risk
// classes that run without asking (click: the host's toggles). The model and the classes are
// user-level settings in the host; this only shows what the hints say and asks.
import { type AgentMode, AgentModeSchema, type Hints, TestIds, type WebviewMessage } from '../src/protocol/index.js';
import { h, icon } from './dom.js';

export class HeaderControls {
  readonly el: HTMLElement;
  private readonly model: HTMLButtonElement;
  private readonly autoApprove: HTMLButtonElement;
  private readonly mode: HTMLSelectElement;
  /** The task's mode as the hints last said: the picker follows it when it changes. */
  private taskMode: AgentMode = 'agent';

  constructor(post: (m: WebviewMessage) => void) {
    this.mode = modePicker();
    this.model = pickerButton(TestIds.modelPicker, 'hubot', () => post({ type: 'model/pick' }));
    this.autoApprove = pickerButton(TestIds.autoApprovePicker, 'shield', () => post({ type: 'autoApprove/pick' }));
    this.el = h('div', { class: 'header-controls' }, this.mode, this.model, this.autoApprove);
    this.update({ noApiKey: false, restricted: false, canResume: false });
  }

  /** The mode to send the next message in, when the user picked one other than the task's. */
  chosenMode(): AgentMode | undefined {
    const picked = AgentModeSchema.safeParse(this.mode.value);
    return picked.success && picked.data !== this.taskMode ? picked.data : undefined;
  }

  update(hints: Hints): void {
    const taskMode = hints.mode ?? 'agent';
    if (taskMode !== this.taskMode) [this.taskMode, this.mode.value] = [taskMode, taskMode];
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

const MODES: readonly { value: AgentMode; text: string; title: string }[] = [
  { value: 'agent', text: 'Agent', title: 'Agent: reads, edits and runs commands, under your approvals' },
  { value: 'plan', text: 'Plan', title: 'Plan: only reads, then writes a plan as its to-do list; changes nothing' },
  { value: 'ask', text: 'Ask', title: 'Ask: only reads and answers; changes nothing' },
];

function modePicker(): HTMLSelectElement {
  const options = MODES.map((m) => h('option', { text: m.text, attrs: { value: m.value, title: m.title } }));
  const select = h(
    'select',
    { class: 'mode-picker', attrs: { 'data-testid': TestIds.modePicker, 'aria-label': 'Mode', title: 'Mode' } },
    ...options,
  );
  select.value = 'agent';
  return select;
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
