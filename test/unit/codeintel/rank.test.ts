// Ranking files by the reference graph: a file many others use ranks above one nobody uses, the
// task's focus lifts a file, and the cached graph gives exactly the scores a fresh one does after
// a body edit (its arrows recomputed) and after a new definition (the graph rebuilt).
import assert from 'node:assert/strict';
import type { IndexedFile } from '../../../src/codeintel/code-index.js';
import type { IndexedDef } from '../../../src/codeintel/extract.js';
import { languageOf } from '../../../src/codeintel/languages.js';
import { GraphCache, rankFiles } from '../../../src/codeintel/rank.js';

function file(path: string, defines: string[], uses: Record<string, number>): IndexedFile {
  const defs: IndexedDef[] = defines.map((name, i) => ({
    name,
    kind: 'function',
    line: i + 1,
    column: 1,
    endLine: i + 1,
    parent: -1,
    signature: `function ${name}()`,
    defines: true,
  }));
  const positions = new Map(Object.entries(uses).map(([name, n]) => [name, Array.from({ length: n }, (_, i) => i + 1)]));
  return { path, spec: languageOf(path)!, size: 1, mtimeMs: 1, hash: '', defs, uses: positions };
}

const workspace = (): IndexedFile[] => [
  file('a.ts', ['useful'], {}),
  file('b.ts', ['helper'], { useful: 3 }),
  file('c.ts', ['other'], { useful: 1, helper: 2 }),
  file('d.ts', ['lonely'], {}),
  file('e.ts', ['caller'], { useful: 2, helper: 1 }),
];
const none = { paths: new Set<string>(), names: new Set<string>() };

describe('repo map ranking', () => {
  it('ranks a file the others use above one nobody uses, and the task’s focus lifts a file', () => {
    const files = workspace();
    const plain = rankFiles(files, none);
    assert.ok(plain[0]! > plain[3]!, 'useful (a.ts) above lonely (d.ts)');
    assert.ok(plain[1]! > plain[3]!);
    assert.ok(Math.abs(plain.reduce((x, y) => x + y, 0) - 1) < 1e-9, 'scores sum to 1');
    const focused = rankFiles(files, { paths: new Set(['d.ts']), names: new Set() });
    assert.ok(focused[3]! > focused[0]!, 'a file the task names ranks first');
    const named = rankFiles(files, { paths: new Set(), names: new Set(['lonely']) });
    assert.ok(named[3]! > plain[3]!, 'a name in the task lifts the file defining it');
  });

  it('gives the same scores from the cached graph as from a fresh one, after a body edit, a new definition and a removed one', () => {
    const cache = new GraphCache();
    const files = workspace();
    rankFiles(files, none, cache);
    const edited = files.map((f) => (f.path === 'c.ts' ? file('c.ts', ['other'], { useful: 4 }) : f));
    assert.deepEqual(rankFiles(edited, none, cache), rankFiles(edited, none));
    const redefined = edited.map((f) => (f.path === 'd.ts' ? file('d.ts', ['lonely', 'helper'], {}) : f));
    assert.deepEqual(rankFiles(redefined, none, cache), rankFiles(redefined, none));
    const dropped = redefined.map((f) => (f.path === 'a.ts' ? file('a.ts', [], { helper: 1 }) : f));
    assert.deepEqual(rankFiles(dropped, none, cache), rankFiles(dropped, none), 'a definition removed');
    const fewer = dropped.filter((f) => f.path !== 'e.ts');
    assert.deepEqual(rankFiles(fewer, none, cache), rankFiles(fewer, none));
  });
});
