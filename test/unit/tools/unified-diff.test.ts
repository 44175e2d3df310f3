import assert from 'node:assert/strict';
import { applyPatch } from 'diff';
import { planEdit } from '../../../src/tools/edit/plan-edit.js';
import { unifiedDiff } from '../../../src/tools/text/unified-diff.js';

/** A small deterministic PRNG, so failures reproduce. */
function rng(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

function mutate(lines: string[], rand: () => number): string[] {
  const out = [...lines];
  for (let k = 0; k < 1 + Math.floor(rand() * 8); k++) {
    const i = Math.floor(rand() * (out.length + 1));
    const op = rand();
    if (op < 0.33) out.splice(i, 1);
    else if (op < 0.66) out.splice(i, 0, `inserted ${k} ${Math.floor(rand() * 5)}`);
    else if (i < out.length) out[i] = `${out[i]} changed`;
  }
  return out;
}

describe('unified diffs', () => {
  it('are valid patches: applying them to the old text gives the new one', () => {
    const rand = rng(42);
    for (let n = 0; n < 300; n++) {
      const base = Array.from({ length: Math.floor(rand() * 40) }, (_, i) => (rand() < 0.2 ? '}' : `line ${i % 7}`));
      const next = mutate(base, rand);
      const eolA = rand() < 0.8 ? '\n' : '';
      const eolB = rand() < 0.8 ? '\n' : '';
      const a = base.length ? base.join('\n') + eolA : '';
      const b = next.length ? next.join('\n') + eolB : '';
      const d = unifiedDiff('f.txt', a, b);
      if (a === b) assert.equal(d.text, '');
      else assert.equal(applyPatch(a, d.text), b, `case ${n}:\n${d.text}`);
    }
  });

  it('planEdit diffs are valid patches too', () => {
    const text = `${Array.from({ length: 200 }, (_, i) => `row ${i}`).join('\n')}\n`;
    const r = planEdit(text, [
      { search: 'row 10\nrow 11\n', replace: '' },
      { search: 'row 12\n', replace: 'row twelve\nrow twelve b\n' },
      { search: 'row 150\n', replace: 'row 150 (edited)\n' },
      { search: 'row 199\n', replace: 'row 199' },
    ]);
    assert.ok(r.ok, r.ok ? '' : r.message);
    if (r.ok) assert.equal(applyPatch(text, r.diff), r.newText);
  });

  it('marks new files against /dev/null', () => {
    assert.equal(unifiedDiff('n.txt', undefined, 'a\nb\n').text, '--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n');
  });
});
