import './dom-env.js';
import assert from 'node:assert/strict';
import { click, makeApp, q } from './dom-env.js';
import { deltas, snapshot } from './fixtures.js';

const HINTS = { noApiKey: false, restricted: false, canResume: false };

describe('webview: the "Rules: …" line', () => {
  it('names each rules file the task used under the header; a click asks the host to open it', () => {
    const t = makeApp();
    t.receive(snapshot([], { hints: { ...HINTS, rules: ['AGENTS.md', '.keel/rules/style.md'] } }));
    t.frame();
    const line = q(t.root, '[data-testid="rules-line"]');
    assert.equal(line.hidden, false);
    assert.equal(line.textContent, 'Rules: AGENTS.md, .keel/rules/style.md');
    assert.equal(line.previousElementSibling?.classList.contains('header'), true, 'right under the header and its pickers');
    const files = [...t.root.querySelectorAll<HTMLElement>('[data-testid="rules-file"]')];
    assert.deepEqual(
      files.map((f) => f.getAttribute('aria-label')),
      ['Open rules file AGENTS.md', 'Open rules file .keel/rules/style.md'],
    );
    click(files[1]!);
    assert.deepEqual(t.posted.at(-1), { type: 'rules/open', path: '.keel/rules/style.md' });
  });

  it('is hidden when the task used none, and follows the hints as they change', () => {
    const t = makeApp();
    t.receive(snapshot());
    t.frame();
    const line = q(t.root, '[data-testid="rules-line"]');
    assert.equal(line.hidden, true);
    const next = deltas();
    t.receive(next({ type: 'hints/set', hints: { ...HINTS, rules: ['AGENTS.md'] } }));
    t.frame();
    assert.equal(line.hidden, false);
    assert.equal(line.textContent, 'Rules: AGENTS.md');
    t.receive(next({ type: 'hints/set', hints: HINTS }));
    t.frame();
    assert.equal(line.hidden, true);
  });

  it('shows a file name as text, never as markup', () => {
    const t = makeApp();
    t.receive(snapshot([], { hints: { ...HINTS, rules: ['<img src=x onerror=alert(1)>.md'] } }));
    t.frame();
    assert.equal(t.root.querySelector('[data-testid="rules-line"] img'), null);
    assert.equal(q(t.root, '[data-testid="rules-file"]').textContent, '<img src=x onerror=alert(1)>.md');
  });
});
