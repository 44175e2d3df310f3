// What an empty view shows: which provider and model a message goes to, whether a key is set,
// a few prompts to start from (a click sends one), and the keys that matter.
import { TestIds, type Hints } from '../src/protocol/index.js';
import { actionButton, h, icon, setHidden } from './dom.js';
import { APPROVAL_KEYS, keyLabel } from './approval-keys.js';

const EXAMPLE_PROMPTS = [
  'Fix the failing tests',
  'Explain what this project does and where to start reading',
  'Find and fix the TODOs in the file I have open',
] as const;

/** The keys that matter, in this platform's notation (computed when the welcome is built). */
const shortcuts = (): [string, string][] => [
  ['Enter', 'send (queued while a run is busy)'],
  ['Shift+Enter', 'new line'],
  ...APPROVAL_KEYS.map((k): [string, string] => [keyLabel(k), k.what]),
];

export class Welcome {
  readonly el: HTMLElement;
  private readonly modelLine = h('div', { class: 'welcome-model' });
  private readonly keyLine = h('div', { class: 'welcome-key' });

  constructor() {
    this.el = h(
      'section',
      { class: 'welcome', attrs: { 'data-testid': TestIds.welcome, 'aria-label': 'Welcome to Keel' } },
      h('h2', { class: 'welcome-title', text: 'Ask Keel to do something' }),
      this.modelLine,
      this.keyLine,
      h(
        'div',
        { class: 'welcome-prompts' },
        ...EXAMPLE_PROMPTS.map((text) =>
          actionButton('welcome-prompt', `Send: ${text}`, {
            text,
            class: 'button secondary welcome-prompt',
            testId: TestIds.welcomePrompt,
            data: { prompt: text },
          }),
        ),
      ),
      h(
        'dl',
        { class: 'welcome-keys', attrs: { 'aria-label': 'Keyboard shortcuts' } },
        ...shortcuts().flatMap(([keys, what]) => [h('dt', {}, h('kbd', { text: keys })), h('dd', { text: what })]),
      ),
    );
  }

  update(hints: Hints, empty: boolean): void {
    setHidden(this.el, !empty);
    if (!empty) return;
    const model = hints.model;
    this.modelLine.textContent = model ? `Model: ${model.model} (${model.provider})` : '';
    setHidden(this.modelLine, !model);
    // An endpoint setting Keel cannot send to comes first: no key matters until it is fixed. A
    // server that needs no key is not told one is "set": it says what is true.
    const problem = hints.endpoint ?? (hints.noApiKey ? 'No API key is set for this provider.' : undefined);
    const fine = hints.keyNotNeeded ? 'No API key needed for this model server.' : 'API key set.';
    this.keyLine.replaceChildren(icon(problem ? 'warning' : 'pass'), ` ${problem ?? fine}`);
    this.keyLine.dataset.keySet = hints.noApiKey ? 'false' : 'true';
    // Not looked up yet (the first view after a reload): no word about the key, never a wrong one.
    setHidden(this.keyLine, !!hints.keyUnread);
  }
}
