// The background processes above the composer: each running one named with its ports and a Stop
// button that asks the host to stop that process; hidden when none runs; model text shown as text.
import './dom-env.js';
import assert from 'node:assert/strict';
import { click, makeApp, q } from './dom-env.js';
import { deltas, snapshot } from './fixtures.js';

const HINTS = { noApiKey: false, restricted: false, canResume: false };

describe('webview: background processes', () => {
  it('lists running processes with their ports, and Stop asks the host to stop that one', () => {
    const t = makeApp();
    t.receive(snapshot([], { status: 'idle' }));
    t.frame();
    const list = q(t.root, '[data-testid="process-list"]');
    assert.equal(list.hidden, true, 'nothing runs, nothing shown');
    const next = deltas();
    const processes = [
      { name: 'web', ports: [5173], command: 'npm run dev' },
      { name: '<i>tsc</i>', ports: [], command: 'tsc --watch' },
    ];
    t.receive(next({ type: 'hints/set', hints: { ...HINTS, processes } }));
    t.frame();
    assert.equal(list.hidden, false);
    const rows = [...list.querySelectorAll<HTMLElement>('.process-row')];
    assert.deepEqual(
      rows.map((r) => r.textContent),
      ['web:5173', '<i>tsc</i>no port yet'],
    );
    assert.equal(list.querySelector('i'), null, 'a name is text, never markup');
    click(q(list, '[aria-label="Stop web"]'));
    assert.deepEqual(t.posted.at(-1), { type: 'process/stop', name: 'web' });
    t.receive(next({ type: 'hints/set', hints: { ...HINTS, processes: [] } }));
    t.frame();
    assert.equal(list.hidden, true, 'hidden again when none runs');
  });
});
