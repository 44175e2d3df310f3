// No file holds up the code index: one nested deeper than the limit is left out unparsed (the
// map says so), a parse past its deadline is given up, a file too slow for the main thread is
// parsed by a worker, one too slow for a worker is given up and tried again only once it
// changes, and a worker stuck on one file is stopped. The payloads are issue 33's (see
// test/support/stall-payloads.ts; test/unit/redteam/parse-stall.redteam.test.ts runs them
// through `keel run`).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import path from 'node:path';
import { parseSource } from '../../../src/codeintel/extract.js';
import { languageOf } from '../../../src/codeintel/languages.js';
import { deadlineIn, ParseRefused } from '../../../src/codeintel/parse-limits.js';
import { ParsePool } from '../../../src/codeintel/parse-pool.js';
import { TreeSitterIntel } from '../../../src/codeintel/tree-sitter-intel.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { scratchDir } from '../../support/scratch.js';
import { elseIfChain, nestedNamespaces } from '../../support/stall-payloads.js';

const signal = new AbortController().signal;
const WORKERS = path.resolve(__dirname, '../../support/parse-workers');
const ts = languageOf('a.ts')!;

function workspaceWith(files: Record<string, string>): string {
  const root = scratchDir('parse-limits');
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

async function intelOf(root: string, options: ConstructorParameters<typeof TreeSitterIntel>[1] = {}): Promise<TreeSitterIntel> {
  return new TreeSitterIntel(await createNodeWorkspace(root, { rgPath: null }), options);
}

const request = { focusPaths: [], focusText: '', budgetTokens: 2048 };

describe('the code index under parse limits', function () {
  this.timeout(60_000);

  it('leaves out a file of namespaces nested 20,000 levels deep without parsing it, and the map says so', async () => {
    const root = workspaceWith({ 'src/deep.ts': nestedNamespaces(), 'src/util.ts': 'export function helper() {}\n' });
    const intel = await intelOf(root);
    const map = await intel.repoMap(request, signal);
    assert.deepEqual([...intel.index.skipped()], [['src/deep.ts', 'nesting']]);
    assert.match(map?.text ?? '', /\nsrc\/util\.ts\n {2}1 export function helper\(\) \{\}/);
    assert.match(map?.text ?? '', /Not in the map: 1 file the index gave up on: src\/deep\.ts \(nested too deeply\)\./);
    const outline = await intel.outline('src/deep.ts', signal);
    assert.deepEqual(outline.unsupported, { path: 'src/deep.ts', reason: 'nested more than 256 levels deep' });
  });

  it('still reads a file nested 200 levels deep, its definitions to the depth the index shows', async () => {
    const { defs } = await parseSource(nestedNamespaces(200), ts);
    assert.deepEqual(
      defs.map((d) => `${d.name}<${d.parent}`),
      ['N0<-1', 'N1<0', 'N2<1', 'N3<2'],
    );
  });

  it('gives up a parse at its deadline: an else-if chain deep in the tree, with no bracket more to count', async () => {
    // Uncapped, this file takes about 30 s on an idle machine (the deeper each function, the longer its depth takes).
    await assert.rejects(parseSource(elseIfChain(8_000), ts, deadlineIn(200)), (err: unknown) => {
      assert.ok(err instanceof ParseRefused);
      assert.equal(err.reason, 'time');
      return true;
    });
  });

  it('hands a file the main thread gives up to a worker, whose entry is the same', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 6 }, (_, i) => [`m${i}.ts`, `export class C${i} { run(x: number) { return x + ${i}; } }\n`]),
    );
    const root = workspaceWith(files);
    const here = await intelOf(root);
    await here.index.refresh(signal);
    const handed = await intelOf(root, { mainThreadFileMs: 0 });
    await handed.index.refresh(signal);
    assert.equal(handed.index.lastParse?.byWorkers, 6, 'every file went to the worker');
    assert.deepEqual([...handed.index.files()], [...here.index.files()]);
  });

  it('gives up a file too slow even for a worker, and parses it again only once it changes', async () => {
    const root = workspaceWith({ 'chain.ts': elseIfChain(8_000), 'ok.ts': 'export const fine = 1;\n' });
    const intel = await intelOf(root);
    await intel.index.refresh(signal);
    assert.deepEqual([...intel.index.skipped()], [['chain.ts', 'time']]);
    assert.deepEqual(
      [...intel.index.files()].map((f) => f.path),
      ['ok.ts'],
    );
    await intel.index.refresh(signal);
    assert.equal(intel.index.lastParse?.files, 0, 'unchanged: not tried again');
    fs.writeFileSync(path.join(root, 'chain.ts'), 'export function small() {}\n');
    await intel.index.refresh(signal);
    assert.deepEqual([...intel.index.skipped()], []);
    assert.deepEqual([...intel.index.files()].map((f) => f.path).sort(), ['chain.ts', 'ok.ts']);
  });

  it('stops a worker stuck on one file, gives that file up, and another worker parses the rest', async () => {
    const files = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}.ts`, `export function f${i}() { return ${i}; }\n`]));
    const paths = ['f0.ts', 'f1.ts', 'hang.ts', ...Object.keys(files).slice(2)];
    const root = workspaceWith({ ...files, 'hang.ts': 'export const h = 1;\n' });
    // As files this thread gave up are parsed: by the workers alone.
    const pool = new ParsePool(root, 1, path.join(WORKERS, 'hanging.ts'), 'alone');
    const parsed = await pool.parse(root, paths, signal);
    const outcomes = parsed.outcomes.map((o, i) => `${paths[i]}:${o?.type === 'skipped' ? `skipped ${o.reason}` : o?.type}`);
    assert.deepEqual(
      outcomes.filter((o) => !o.endsWith(':parsed')),
      ['hang.ts:skipped time'],
    );
    assert.equal(parsed.byWorkers, paths.length - 1);
  });
});
