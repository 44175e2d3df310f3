// search_files agrees with list_files, whichever engine runs it: on trees with nested .gitignore
// and .keelignore files, negations across the two, BOMs and POSIX classes, the ripgrep path and
// the JS fallback return the same matches in the same order, and the files they match are
// exactly the files list_files shows (under the path, accepted by the glob) that contain a match.
// Binary files that match are named as skipped by both; a file over the fallback's size limit is
// searched by ripgrep and named as not searched by the fallback — never a silent "no matches".
import assert from 'node:assert/strict';
import { SEARCH_MAX_FILE_BYTES } from '../../../src/kernel/index.js';
import { findRipgrep } from '../../../src/node/ripgrep.js';
import { listFilesTool } from '../../../src/tools/list-files.js';
import { globMatcher } from '../../../src/tools/search/glob.js';
import { searchWorkspace, type WorkspaceSearch } from '../../../src/tools/search/search-workspace.js';
import { searchFilesTool } from '../../../src/tools/search-files.js';
import { decodeText } from '../../../src/tools/text/encoding.js';
import { context, tempWorkspace, type TempWorkspace } from './helpers.js';

const BOM = '\uFEFF';

const TREE: Record<string, string | Uint8Array> = {
  '.gitignore': `${BOM}*.log\nbuild/\n[[:digit:]]*.tmp\n`,
  '.keelignore': `${BOM}!keep.log\nsecret/\ndocs/[[:upper:]]*.md\n`,
  'keep.log': 'needle kept by .keelignore negation\n',
  'drop.log': 'needle in a log\n',
  '1.tmp': 'needle tmp\n',
  'a.tmp': 'needle a tmp\n',
  'a.ts': 'const needle = 1;\n',
  'b.ts': 'needle b\n',
  'c.ts': 'needle c\n',
  'x.js': 'needle js\n',
  'bom.ts': `${BOM}needle after a BOM\n`,
  'binary.dat': new Uint8Array([110, 101, 101, 100, 108, 101, 0, 1, 2]),
  'late-nul.txt': `${'x'.repeat(9000)}\nneedle before a late NUL\n\u0000\n`,
  'big.txt': `needle in a file over the size limit\n${'y'.repeat(SEARCH_MAX_FILE_BYTES)}`,
  'build/out.js': 'needle built\n',
  'secret/key.txt': 'needle secret\n',
  'docs/Guide.md': 'needle upper\n',
  'docs/notes.md': 'needle notes\n',
  'src/.gitignore': 'gen/\n!*.log\n',
  'src/.keelignore': '*.snap\n',
  'src/app.ts': 'needle app\nno\nneedle again\n',
  'src/trace.log': 'needle re-included below\n',
  'src/x.snap': 'needle snapshot\n',
  'src/gen/g.ts': 'needle generated\n',
  'src/deep/[ab].ts': 'needle bracket name\n',
  'src/deep/a.ts': 'needle deep a\n',
  'src/deep/.keelignore': '!*.snap\nb*\n',
  'src/deep/b.ts': 'needle deep b\n',
  'src/deep/y.snap': 'needle deep snapshot\n',
};

const QUERIES: WorkspaceSearch[] = [
  { pattern: 'needle', maxMatches: 200 },
  { pattern: '^needle', maxMatches: 200 },
  { pattern: 'needle', glob: '*.{ts,js}', maxMatches: 200 },
  { pattern: 'needle', glob: '[ab].ts', maxMatches: 200 },
  { pattern: 'needle', glob: '[[:alpha:]].ts', maxMatches: 200 },
  { pattern: 'needle', glob: 'src/**/*.ts', maxMatches: 200 },
  { pattern: 'needle', glob: '*.log', maxMatches: 200 },
  { pattern: 'needle', glob: '!*.ts', maxMatches: 200 },
  { pattern: 'needle', path: 'src', maxMatches: 200 },
  { pattern: 'needle', path: 'src/deep', glob: '*.snap', maxMatches: 200 },
  { pattern: 'needle', maxMatches: 3 },
];

describe('search_files agrees with list_files on both engines', function () {
  this.timeout(30_000);
  let rg: TempWorkspace;
  let js: TempWorkspace;
  before(async function () {
    if (!(await findRipgrep())) {
      if (process.env.CI) assert.fail('rg is not on PATH');
      this.skip();
    }
    [rg, js] = [await tempWorkspace(TREE), await tempWorkspace(TREE, { rgPath: null })];
  });
  after(async () => {
    await rg?.cleanup();
    await js?.cleanup();
  });

  for (const q of QUERIES) {
    const label = `/${q.pattern}/${q.path ? ` in ${q.path}` : ''}${q.glob ? ` glob ${q.glob}` : ''}${q.maxMatches < 200 ? ` (at most ${q.maxMatches})` : ''}`;
    it(label, async () => {
      const signal = new AbortController().signal;
      const [a, b] = [await searchWorkspace(rg.ws, q, signal), await searchWorkspace(js.ws, q, signal)];
      assert.deepEqual([a.engine, b.engine], ['ripgrep', 'fallback']);
      const tooLarge = new Set((b.skipped ?? []).filter((f) => f.reason === 'too_large').map((f) => f.path));
      assert.deepEqual(
        a.matches.filter((m) => !tooLarge.has(m.path)),
        b.matches,
      );
      // A capped search stops sooner on ripgrep when a large file matched: fewer files are named.
      if (q.maxMatches < 200) return assert.equal(a.matches.length, q.maxMatches);
      assert.deepEqual(binaries(a), binaries(b));
      assert.equal(a.truncated, b.truncated);
      assert.deepEqual(filesOf(a.matches), await expectedFiles(js, q));
    });
  }

  it('reports a bad regular expression as invalid input on both engines', async () => {
    for (const t of [rg, js]) {
      const r = await searchFilesTool.execute({ query: 'needle(' }, context(t.ws));
      assert.equal(r.code, 'invalid_input', r.content);
    }
  });

  it('gives the same answer through the tool, with the files it names', async () => {
    const [a, b] = await Promise.all([rg, js].map((t) => searchFilesTool.execute({ query: 'needle', glob: '*.{ts,js}' }, context(t.ws))));
    assert.equal(a!.content, b!.content);
    assert.match(a!.content, /^9 matches in 8 files:/);
    for (const hidden of ['build/', 'src/gen/', 'src/deep/b.ts']) assert.ok(!a!.content.includes(hidden), hidden);
    const all = await searchFilesTool.execute({ query: 'needle' }, context(rg.ws));
    assert.match(all.content, /^big\.txt\n {2}1: needle in a file over the size limit$/m);
    assert.match(all.content, /\[Not shown: binary\.dat \(binary: it matches, but its lines are not text\); late-nul\.txt \(binary/);
    const fallback = await searchFilesTool.execute({ query: 'needle', glob: 'big.txt' }, context(js.ws));
    assert.match(fallback.content, /^No matches for \/needle\/ in the files searched\.\n\[Not shown: big\.txt \(2\.0 MB: not searched/);
  });
});

function binaries(r: { skipped?: { path: string; reason: string }[] }): string[] {
  return (r.skipped ?? []).filter((f) => f.reason === 'binary').map((f) => f.path);
}

function filesOf(matches: { path: string }[]): string[] {
  return [...new Set(matches.map((m) => m.path))].sort();
}

/** What list_files shows under the path, accepted by the glob, with a line matching the pattern (ripgrep searches files of any size). */
async function expectedFiles(t: TempWorkspace, q: WorkspaceSearch): Promise<string[]> {
  const listed = await listFilesTool.execute({ path: q.path, recursive: true }, context(t.ws));
  const accepts = q.glob ? globMatcher(q.glob) : () => true;
  const re = new RegExp(q.pattern);
  const out: string[] = [];
  for (const p of listed.content.split('\n')) {
    if (p.endsWith('/') || !accepts(p)) continue;
    const text = decodeText(await t.ws.readFile(p)).text;
    if (!text.includes('\0') && text.split('\n').some((l) => re.test(l))) out.push(p);
  }
  return out.sort();
}

describe('search_files on ripgrep with all threads', function () {
  this.timeout(30_000);
  it('gives the matches in the walk order and stops at the same place as the search file by file', async function () {
    if (!(await findRipgrep())) this.skip();
    const tree: Record<string, string> = {};
    for (let d = 0; d < 20; d++)
      for (let f = 0; f < 30; f++) tree[`d${d}/f${f}.txt`] = `x\nneedle ${d}.${f}\n${f % 7 === 0 ? 'needle again\n' : ''}`;
    const [rg, js] = [await tempWorkspace(tree), await tempWorkspace(tree, { rgPath: null })];
    try {
      for (const maxMatches of [1000, 333, 25]) {
        const q = { pattern: 'needle', maxMatches };
        const signal = new AbortController().signal;
        const [a, b] = [await searchWorkspace(rg.ws, q, signal), await searchWorkspace(js.ws, q, signal)];
        assert.equal(a.engine, 'ripgrep');
        assert.deepEqual(a.matches, b.matches, `at most ${maxMatches}`);
        assert.equal(a.truncated, b.truncated);
      }
    } finally {
      await rg.cleanup();
      await js.cleanup();
    }
  });
});
