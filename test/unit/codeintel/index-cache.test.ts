// The code index kept between runs: a second index over the same store parses nothing and holds
// exactly what the first built; a changed file is parsed again and no other; a file whose mtime
// moved but whose bytes did not is recognised by its hash; a deleted file is dropped; and a cache
// that is truncated, of another version, or hand-made with hostile values is ignored whole (the
// index is built as if there were none, then written back sound).
import assert from 'node:assert/strict';
import { rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CodeIndex } from '../../../src/codeintel/code-index.js';
import { decodeIndexCache, encodeIndexCache, INDEX_CACHE_VERSION, type IndexCacheStore } from '../../../src/codeintel/index-cache.js';
import { scratchDir } from '../../support/scratch.js';

/** A store in memory that counts its writes. */
function memoryStore(text?: string): IndexCacheStore & { text: string | undefined; saves: number } {
  const store = {
    text,
    saves: 0,
    load: async () => store.text,
    save: async (t: string) => {
      store.text = t;
      store.saves++;
    },
  };
  return store;
}

function workspace(): string {
  const root = scratchDir('index-cache');
  const write = (rel: string, text: string) => writeFileSync(path.join(root, rel), text);
  write('a.ts', 'export function alpha(n: number): number {\n  return n + 1;\n}\n');
  write('b.ts', "import { alpha } from './a';\nexport class Beta {\n  run() {\n    return alpha(2);\n  }\n}\n");
  write('c.py', 'def gamma():\n    return 3\n');
  return root;
}

/** An index over `root` with `store`, refreshed and its cache written. */
async function built(root: string, store: IndexCacheStore): Promise<CodeIndex> {
  const index = new CodeIndex({ root }, { cache: store, parseWorkers: 0 });
  await index.refresh();
  await index.flush();
  return index;
}

const contents = (index: CodeIndex) => [...index.files()].sort((a, b) => a.path.localeCompare(b.path));

describe('the code index cache', () => {
  it('round trips: a second run over the same cache parses nothing and holds the same index', async () => {
    const root = workspace();
    const store = memoryStore();
    const first = await built(root, store);
    assert.equal(first.lastParse!.files, 3);
    assert.equal(store.saves, 1);
    const second = await built(root, store);
    assert.equal(second.lastParse!.files, 0, 'nothing parsed again');
    assert.deepEqual(contents(second), contents(first));
    assert.equal(store.saves, 1, 'an unchanged index is not written again');
  });

  it('parses again only the changed file, keeps a touched but unchanged one by its hash, and drops a deleted one', async () => {
    const root = workspace();
    const store = memoryStore();
    await built(root, store);
    writeFileSync(path.join(root, 'a.ts'), 'export function alphaRenamed(): number {\n  return 1;\n}\n');
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, 'b.ts'), later, later);
    rmSync(path.join(root, 'c.py'));
    const next = await built(root, store);
    assert.equal(next.lastParse!.files, 1, 'only a.ts parsed');
    assert.deepEqual(
      next.file('a.ts')!.defs.map((d) => d.name),
      ['alphaRenamed'],
    );
    const touched = statSync(path.join(root, 'b.ts')).mtimeMs;
    assert.equal(next.file('b.ts')!.mtimeMs, touched, 'b.ts kept with its new mtime');
    assert.equal(next.file('c.py'), undefined);
    const cached = decodeIndexCache(store.text!)!;
    assert.deepEqual([...cached.files.keys()].sort(), ['a.ts', 'b.ts'], 'the cache written back dropped c.py');
    assert.equal(cached.files.get('b.ts')!.mtimeMs, touched);
  });

  it('ignores a truncated, outdated or hostile cache and builds the index anew', async () => {
    const root = workspace();
    const good = memoryStore();
    const reference = await built(root, good);
    const sound = JSON.parse(good.text!) as { files: unknown[][] };
    const hostile = (edit: (row: unknown[]) => void) => {
      const copy = structuredClone(sound);
      edit(copy.files[0]!);
      return JSON.stringify(copy);
    };
    const bad = [
      good.text!.slice(0, good.text!.length / 2),
      good.text!.replace(`"version":${INDEX_CACHE_VERSION}`, `"version":${INDEX_CACHE_VERSION + 1}`),
      hostile((row) => (row[0] = '../outside.ts')),
      hostile((row) => (row[1] = -5)),
      hostile((row) => ((row[4] as unknown[][])[0]![5] = 7)), // a parent after its child
      hostile((row) => ((row[4] as unknown[][])[0]![1] = 'constructor-function')),
      hostile((row) => (row[7] = [1, 'two'])),
      hostile((row) => (row[6] = [...(row[6] as number[]), 1])), // a count with no name
      hostile((row) => (row[6] = (row[6] as number[]).map(() => 0))),
      '{"format":"keel-code-index","version":1,"files":{},"givenUp":[]}',
      'null',
      '\u0000\u0001binary',
    ];
    for (const text of bad) {
      assert.equal(decodeIndexCache(text), undefined, text.slice(0, 80));
      const store = memoryStore(text);
      const index = await built(root, store);
      assert.equal(index.lastParse!.files, 3, 'every file parsed');
      assert.deepEqual(contents(index), contents(reference));
      assert.ok(decodeIndexCache(store.text!), 'a sound cache written in its place');
    }
  });

  it('encodes what it decodes', () => {
    const index = {
      files: new Map([
        [
          'src/x.ts',
          {
            size: 10,
            mtimeMs: 1.5,
            hash: 'h',
            defs: [
              {
                name: 'X',
                kind: 'class' as const,
                line: 1,
                column: 14,
                endLine: 3,
                parent: -1,
                signature: 'export class X {',
                defines: true,
              },
              {
                name: 'm',
                kind: 'method' as const,
                line: 2,
                column: 3,
                endLine: 2,
                parent: 0,
                signature: 'm() {}',
                defines: true,
                container: 'X',
              },
            ],
            uses: new Map([['X', [65550]]]),
          },
        ],
      ]),
      givenUp: new Map([['deep.ts', { reason: 'nesting' as const, size: 3, mtimeMs: 2 }]]),
    };
    assert.deepEqual(decodeIndexCache(encodeIndexCache(index)), index);
  });
});
