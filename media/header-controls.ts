// The header's second row: the mode the next message is sent in (Agent, Plan, Ask, or one of the
// task's custom agents, which runs in Agent mode as that agent: chosen here, logged by the host
// with the message), the model in use (click: the host's picker of the
// configured provider's models, with free text for OpenAI-compatible servers) and the risk
// classes that run without asking (click: the host's toggles). The model and the classes are
// user-level settings in the host; this only shows what the hints say and asks.
import { type AgentMode, AgentModeSchema, type AgentView, type Hints, TestIds, type WebviewMessage } from '../src/protocol/index.js';
import { h, icon } from './dom.js';

export class HeaderControls {
  readonly el: HTMLElement;
  private readonly model: HTMLButtonElement;
  private readonly autoApprove: HTMLButtonElement;
  private readonly mode: HTMLSelectElement;
  /** The task's mode as the hints last said: the picker follows it when it changes. */
  private taskMode: AgentMode = 'agent';
  /** The task's custom agent (hints.agent) when the picker lists it; the picker follows it too. */
  private taskAgent: string | undefined;
  /** The picker's value for the task's own mode or agent, as last shown. */
  private taskPick = 'agent';
  private readonly agentGroup: HTMLOptGroupElement;
  private listed = '';

  constructor(post: (m: WebviewMessage) => void) {
    this.agentGroup = h('optgroup', { attrs: { label: 'Custom agents' } });
    this.mode = modePicker(this.agentGroup);
    this.mode.addEventListener('change', () => this.describePick());
    this.model = pickerButton(TestIds.modelPicker, 'hubot', () => post({ type: 'model/pick' }));
    this.autoApprove = pickerButton(TestIds.autoApprovePicker, 'shield', () => post({ type: 'autoApprove/pick' }));
    this.el = h('div', { class: 'header-controls' }, this.mode, this.model, this.autoApprove);
    this.update({ noApiKey: false, restricted: false, canResume: false });
  }

  /** The mode to send the next message in, when the user picked one other than the task's. */
  chosenMode(): AgentMode | undefined {
    const mode = this.mode.value.startsWith(AGENT_PREFIX) ? 'agent' : AgentModeSchema.safeParse(this.mode.value).data;
    return mode !== undefined && mode !== this.taskMode ? mode : undefined;
  }

  /**
   * The custom agent to send the next message as, when the pick differs from the task's: its
   * name, or '' when the user went back to a plain mode from the agent the picker showed.
   */
  chosenAgent(): string | undefined {
    const picked = this.mode.value.startsWith(AGENT_PREFIX) ? this.mode.value.slice(AGENT_PREFIX.length) : '';
    return picked === (this.taskAgent ?? '') ? undefined : picked;
  }

  update(hints: Hints): void {
    this.listAgents(withTaskAgent(hints.agents ?? [], hints.agent));
    const taskMode = hints.mode ?? 'agent';
    const taskAgent = hints.agent;
    const taskPick = taskAgent === undefined ? taskMode : `${AGENT_PREFIX}${taskAgent}`;
    [this.taskMode, this.taskAgent] = [taskMode, taskAgent];
    // The picker follows the task when the task's pick changes (a reload, another task), not the user's.
    if (taskPick !== this.taskPick) [this.taskPick, this.mode.value] = [taskPick, taskPick];
    this.describePick();
    const m = hints.model;
    const modelText = m ? m.model || '(default model)' : 'Model';
    const vision = m && !m.vision ? ' · text only' : '';
    setLabel(this.model, modelText + vision, m ? `Model: ${m.provider} / ${modelText}${vision} (change)` : 'Choose the model');
    const classes = hints.autoApprove;
    if (!classes) return setLabel(this.autoApprove, 'Auto-approve', 'Choose what runs without asking');
    const autoText = classes.length ? `Auto: ${classes.join(', ')}` : 'Auto: none';
    setLabel(this.autoApprove, autoText, `Runs without asking: ${classes.length ? classes.join(', ') : 'nothing'} (change)`);
  }

  /** The task's custom agents after the modes (text only; the description is the option's tooltip). */
  private listAgents(agents: readonly AgentView[]): void {
    const key = JSON.stringify(agents);
    if (key === this.listed) return;
    this.listed = key;
    const value = this.mode.value;
    this.agentGroup.replaceChildren(
      ...agents.map((a) =>
        h('option', {
          text: a.name,
          attrs: { value: `${AGENT_PREFIX}${a.name}`, title: a.description ? `${a.name}: ${a.description}` : a.name },
        }),
      ),
    );
    this.agentGroup.hidden = agents.length === 0;
    // A pick whose agent left the list goes back to the task's own.
    this.mode.value = [...this.mode.options].some((o) => o.value === value) ? value : this.taskPick;
  }

  /** The picker may be narrower than a long agent name: its tooltip says the whole pick. */
  private describePick(): void {
    const option = this.mode.selectedOptions[0];
    this.mode.title = option ? `Mode: ${option.title || option.text}` : 'Mode';
  }
}

/**
 * The listed agents plus the one the task runs as when it is not among them — a slash command's
 * own profile (`/name`, its tools) or an agent whose file is gone: the header names what the next
 * message runs as, never a plain mode it does not run in.
 */
function withTaskAgent(agents: readonly AgentView[], taskAgent: string | undefined): readonly AgentView[] {
  if (taskAgent === undefined || agents.some((a) => a.name === taskAgent)) return agents;
  return [...agents, { name: taskAgent, description: 'what this task runs as now' }];
}

/** A custom agent's option value: never a mode's (a mode is one word without a colon). */
const AGENT_PREFIX = 'agent:';

const MODES: readonly { value: AgentMode; text: string; title: string }[] = [
  { value: 'agent', text: 'Agent', title: 'Agent: reads, edits and runs commands, under your approvals' },
  { value: 'plan', text: 'Plan', title: 'Plan: only reads, then writes a plan as its to-do list; changes nothing' },
  { value: 'ask', text: 'Ask', title: 'Ask: only reads and answers; changes nothing' },
];

function modePicker(agents: HTMLOptGroupElement): HTMLSelectElement {
  const options = MODES.map((m) => h('option', { text: m.text, attrs: { value: m.value, title: m.title } }));
  const select = h(
    'select',
    { class: 'mode-picker', attrs: { 'data-testid': TestIds.modePicker, 'aria-label': 'Mode', title: 'Mode' } },
    ...options,
    agents,
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
