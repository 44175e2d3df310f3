// The header picker's custom agents: after Agent, Plan and Ask it lists the task's custom agents
// (from the agents hint; names and descriptions as text), sends the next message as the picked
// one (in Agent mode), follows the task's agent from the hints (a reloaded task shows it), and
// sends '' when the user goes back from that agent to a plain mode.
import './dom-env.js';
import assert from 'node:assert/strict';
import { key, makeApp, q } from './dom-env.js';
import { deltas, snapshot } from './fixtures.js';

const HINTS = { noApiKey: false, restricted: false, canResume: false };
const AGENTS = [
  { name: 'reviewer', description: 'Reviews <b>code</b>.' },
  { name: 'security-auditor-with-a-long-name', description: 'Looks for holes.' },
];

function send(t: ReturnType<typeof makeApp>, text: string) {
  const input = q<HTMLTextAreaElement>(t.root, '[data-testid="input"]');
  input.value = text;
  key(input, 'Enter');
  return t.posted.at(-1);
}

describe('webview: the custom agent picker', () => {
  it('lists the agents after the modes and sends the message as the picked one, in Agent mode', () => {
    const t = makeApp();
    t.receive(snapshot([], { hints: { ...HINTS, mode: 'plan', agents: AGENTS } }));
    t.frame();
    const picker = q<HTMLSelectElement>(t.root, '[data-testid="mode-picker"]');
    assert.deepEqual(
      [...picker.options].map((o) => [o.value, o.textContent]),
      [
        ['agent', 'Agent'],
        ['plan', 'Plan'],
        ['ask', 'Ask'],
        ['agent:reviewer', 'reviewer'],
        ['agent:security-auditor-with-a-long-name', 'security-auditor-with-a-long-name'],
      ],
    );
    assert.equal(picker.querySelector('b'), null, 'descriptions are text');
    assert.equal(picker.options[3]!.title, 'reviewer: Reviews <b>code</b>.');
    assert.equal(picker.querySelector('optgroup')?.getAttribute('label'), 'Custom agents');
    picker.value = 'agent:reviewer';
    picker.dispatchEvent(new Event('change'));
    assert.match(picker.title, /reviewer/, 'the tooltip says the whole pick');
    assert.deepEqual(send(t, 'review it'), { type: 'task/send', text: 'review it', mode: 'agent', agent: 'reviewer' });
  });

  it('follows the task’s agent from the hints, sends nothing extra for it, and an empty name to go back to a mode', () => {
    const t = makeApp();
    t.receive(snapshot([], { hints: { ...HINTS, agents: AGENTS, agent: 'reviewer' } }));
    t.frame();
    const picker = q<HTMLSelectElement>(t.root, '[data-testid="mode-picker"]');
    assert.equal(picker.value, 'agent:reviewer', 'a reloaded task shows its agent');
    assert.deepEqual(send(t, 'go on'), { type: 'task/send', text: 'go on' });
    picker.value = 'agent';
    assert.deepEqual(send(t, 'plain now'), { type: 'task/send', text: 'plain now', agent: '' });
    // The task's agent cleared (agent_set without one): the picker follows to the mode.
    t.receive(deltas()({ type: 'hints/set', hints: { ...HINTS, agents: AGENTS } }));
    t.frame();
    assert.equal(picker.value, 'agent');
    assert.deepEqual(send(t, 'again'), { type: 'task/send', text: 'again' });
  });

  it('shows no agent group when the task has no custom agents', () => {
    const t = makeApp();
    t.receive(snapshot([], { hints: HINTS }));
    t.frame();
    const picker = q<HTMLSelectElement>(t.root, '[data-testid="mode-picker"]');
    assert.equal(picker.querySelector('optgroup')?.hidden, true);
    assert.deepEqual(
      [...picker.options].map((o) => o.value),
      ['agent', 'plan', 'ask'],
    );
  });

  it('names the agent a slash command ran as, though the picker does not list it', () => {
    const t = makeApp();
    // A command with its own tools and no agent file runs as the profile `/greet`.
    t.receive(snapshot([], { hints: { ...HINTS, agent: '/greet' } }));
    t.frame();
    const picker = q<HTMLSelectElement>(t.root, '[data-testid="mode-picker"]');
    assert.equal(picker.value, 'agent:/greet', 'the header says what the task runs as, not Agent');
    assert.equal(picker.selectedOptions[0]?.textContent, '/greet');
    assert.deepEqual(send(t, 'go on'), { type: 'task/send', text: 'go on' });
    picker.value = 'agent';
    assert.deepEqual(send(t, 'plain now'), { type: 'task/send', text: 'plain now', agent: '' });
  });
});
