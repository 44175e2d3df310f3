// The peers' own edit test cases, fed to planEdit as edit_file would call it (the file's bytes
// and the blocks). Every case either gives the peer's expected file, or Keel refuses with the
// reason listed (where the peer refuses too, or where its engine guessed), or Keel differs on
// purpose where the peers contradict each other. Nothing else: no wrong result.
import assert from 'node:assert/strict';
import { planEdit } from '../../../src/tools/edit/plan-edit.js';
import { AIDER } from './peer-edits/aider.js';
import { CLINE } from './peer-edits/cline.js';
import { CONTINUE_FIND } from './peer-edits/continue-find.js';
import { CONTINUE_REPLACE } from './peer-edits/continue-replace.js';
import type { PeerCase } from './peer-edits/peer-case.js';
import { ROO } from './peer-edits/roo.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

type Outcome = 'same' | 'both refuse' | 'keel refuses' | 'keel differs' | 'wrong';

function outcome(c: PeerCase): { outcome: Outcome; detail: string } {
  const plan = planEdit(enc.encode(c.file), c.edits, 'file');
  if (!plan.ok) {
    if (c.keelRefuses !== plan.reason) return { outcome: 'wrong', detail: `refused (${plan.reason}): ${plan.message}` };
    return { outcome: c.expected === 'refused' ? 'both refuse' : 'keel refuses', detail: plan.reason };
  }
  const got = dec.decode(plan.newBytes);
  if (c.keelRefuses) return { outcome: 'wrong', detail: `expected a refusal (${c.keelRefuses}), got ${JSON.stringify(got)}` };
  if (c.keelDiffers)
    return got === c.keelDiffers.result
      ? { outcome: 'keel differs', detail: c.keelDiffers.why }
      : { outcome: 'wrong', detail: JSON.stringify(got) };
  if (typeof c.expected === 'string')
    return got === c.expected ? { outcome: 'same', detail: '' } : { outcome: 'wrong', detail: JSON.stringify(got) };
  const { includes, excludes } = c.expected;
  const fits = includes.every((s) => got.includes(s)) && !excludes.some((s) => got.includes(s));
  return fits ? { outcome: 'same', detail: '' } : { outcome: 'wrong', detail: JSON.stringify(got) };
}

const SUITES: [string, PeerCase[]][] = [
  ['Cline', CLINE],
  ['Roo Code', ROO],
  ['Continue (search matches)', CONTINUE_FIND],
  ['Continue (find and replace)', CONTINUE_REPLACE],
  ['Aider', AIDER],
];

describe("the peers' own edit cases", () => {
  const tally = new Map<Outcome, number>();
  for (const [suite, cases] of SUITES) {
    describe(suite, () => {
      for (const c of cases) {
        const label = c.keelRefuses && c.expected !== 'refused' ? ` → Keel refuses (${c.keelRefuses})` : '';
        it(`${c.what}${label}`, () => {
          const r = outcome(c);
          tally.set(r.outcome, (tally.get(r.outcome) ?? 0) + 1);
          assert.notEqual(r.outcome, 'wrong', r.detail);
        });
      }
    });
  }

  describe('tally', () =>
    it('no wrong result', () => {
      const total = SUITES.reduce((n, [, cases]) => n + cases.length, 0);
      const counts = Object.fromEntries(tally);
      console.log(`      ${total} cases: ${JSON.stringify(counts)}`);
      assert.equal(counts.wrong, undefined);
      assert.equal(
        [...tally.values()].reduce((a, b) => a + b, 0),
        total,
      );
    }));
});
