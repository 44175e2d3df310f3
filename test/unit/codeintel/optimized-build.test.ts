// The code index is built fast (one query per file, identifiers scanned by hand, the map's
// blocks rendered only when they can fit) and must say exactly what the plain build says: the
// same definitions and identifier positions for every file, and the same repo map, on fixture
// files written to be awkward (definitions deeper than the depth limit, names in comments,
// strings, templates, JSX text, regular expressions, Unicode and private names), the five
// fixture projects, and a generated TypeScript repository.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { occurrencesIn, parseSource } from '../../../src/codeintel/extract.js';
import { parserFor } from '../../../src/codeintel/grammars.js';
import { languageOf } from '../../../src/codeintel/languages.js';
import { TreeSitterIntel } from '../../../src/codeintel/tree-sitter-intel.js';
import type { RepoMapRequest } from '../../../src/kernel/index.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { generateRepo } from '../../../bench/codeintel/generate-repo.js';
import { referenceIdentifiers, referenceParse } from '../../support/reference-extract.js';
import { referenceIndex, referenceMapBlocks } from '../../support/reference-repo-map.js';
import { scratchDir } from '../../support/scratch.js';
import { PROJECTS, projectCopy } from './fixture-projects.js';

const TRICKY = path.resolve(__dirname, '../../fixtures/code-intel/tricky');
const signal = new AbortController().signal;

function filesUnder(root: string, dir = ''): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    return e.isDirectory() ? filesUnder(root, rel) : languageOf(rel) ? [rel] : [];
  });
}

const requests = (focusPath: string, focusName: string): RepoMapRequest[] => [
  { focusPaths: [], focusText: '', budgetTokens: 2048 },
  { focusPaths: [focusPath], focusText: `fix ${focusName}`, budgetTokens: 2048 },
  { focusPaths: [], focusText: focusName, budgetTokens: 300 },
  { focusPaths: [focusPath], focusText: '', budgetTokens: 8000 },
];

/** The optimised map of `root` against the plain build, for several budgets and focuses (`parseWorkers`: the pool forced). */
async function assertSameMaps(root: string, focusPath: string, focusName: string, parseWorkers?: number): Promise<void> {
  const intel = new TreeSitterIntel(await createNodeWorkspace(root, { rgPath: null }), parseWorkers === undefined ? {} : { parseWorkers });
  await intel.index.refresh(signal);
  if (parseWorkers) assert.equal(intel.index.lastParse?.workers, parseWorkers);
  const paths = [...intel.index.files()].map((f) => f.path);
  const reference = await referenceIndex(root, paths);
  for (const request of requests(focusPath, focusName)) {
    const map = await intel.repoMap(request, signal);
    const blocks = referenceMapBlocks(reference, request);
    assert.deepEqual(map?.text.split('\n').slice(1).join('\n'), blocks.join('\n'), `map of ${root} for ${JSON.stringify(request)}`);
    assert.equal(map?.files, blocks.length);
  }
}

describe('the optimised code index against the plain build', function () {
  this.timeout(60_000);

  for (const rel of filesUnder(TRICKY)) {
    it(`extracts ${rel} exactly as the plain build does`, async () => {
      const text = readFileSync(path.join(TRICKY, rel), 'utf8');
      const spec = languageOf(rel)!;
      const fast = await parseSource(text, spec);
      const plain = await referenceParse(text, spec);
      assert.deepEqual(fast.defs, plain.defs);
      assert.deepEqual(fast.uses, plain.uses);
      const tree = (await parserFor(spec.grammar)).parse(text)!;
      try {
        assert.deepEqual(await occurrencesIn(text, spec), referenceIdentifiers(text, tree, spec));
      } finally {
        tree.delete();
      }
    });
  }

  it('leaves out definitions deeper than the limit, as the plain build did (and keeps the shallow ones)', async () => {
    const { defs } = await parseSource(readFileSync(path.join(TRICKY, 'ts/deep.ts'), 'utf8'), languageOf('a.ts')!);
    const named = defs.map((d) => `${d.name}:${d.kind}`);
    // `g` is a const arrow function one level too deep to be a function, yet its declaration is
    // shallow enough to be a constant; `h` and the method of K are too deep; so are d, e and f.
    for (const kept of ['g:constant', 'K:class', 'a:property', 'b:property', 'c:property']) assert.ok(named.includes(kept), kept);
    for (const gone of ['h:variable', 'm:method', 'd:property', 'e:property', 'f:property']) assert.ok(!named.includes(gone), gone);
  });

  it('gives the same repo map as the plain build on the awkward files', async () => {
    await assertSameMaps(TRICKY, 'ts/words.ts', 'Ledger');
  });

  for (const p of PROJECTS) {
    it(`gives the same repo map as the plain build on the ${p.name} project`, async () => {
      await assertSameMaps(projectCopy(p), p.geometry, p.fn);
    });
  }

  it('gives the same repo map as the plain build on a generated 300-file TypeScript repository', async () => {
    const repo = generateRepo(scratchDir('codeintel-same-map'), 300);
    await assertSameMaps(repo.root, repo.sample, 'parseLedgerEntry');
  });

  it('gives the same repo map as the plain build with the files parsed by two worker threads too', async () => {
    const repo = generateRepo(scratchDir('codeintel-same-map-pool'), 300);
    await assertSameMaps(repo.root, repo.sample, 'parseLedgerEntry', 2);
    const p = PROJECTS[0]!;
    await assertSameMaps(projectCopy(p), p.geometry, p.fn, 1);
  });
});
