// The headless engine on fixture projects in five languages: outlines and definitions from the
// syntax tree, references that are uses in code (never the comment or string that also names
// the function), and nothing from .env files, node_modules or ignored folders.
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CodeSymbol } from '../../../src/kernel/index.js';
import { TreeSitterIntel } from '../../../src/codeintel/tree-sitter-intel.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { PROJECTS, projectCopy } from './fixture-projects.js';
import { scratchDir } from '../../support/scratch.js';

const signal = new AbortController().signal;

async function intelFor(root: string): Promise<TreeSitterIntel> {
  return new TreeSitterIntel(await createNodeWorkspace(root, { rgPath: null }));
}

const names = (symbols: CodeSymbol[]): string[] => symbols.map((s) => s.name);

describe('tree-sitter code intelligence', function () {
  this.timeout(20_000);

  for (const p of PROJECTS) {
    describe(p.name, () => {
      let intel: TreeSitterIntel;
      let root: string;
      before(async () => {
        root = projectCopy(p);
        intel = await intelFor(root);
      });

      it('outlines the file: the class with its method nested, the function, no locals', async () => {
        const outline = (await intel.outline(p.geometry, signal)).items;
        const all = outline.flatMap(function flat(s): CodeSymbol[] {
          return [s, ...(s.children ?? []).flatMap(flat)];
        });
        const shape = all.find((s) => s.name === p.shape && s.kind === 'class');
        assert.ok(shape, `no class ${p.shape} in ${JSON.stringify(names(all))}`);
        const fn = all.find((s) => s.name === p.fn);
        assert.equal(fn?.kind, p.fnKind);
        assert.equal(fn?.line, p.definition.line);
        assert.ok(
          all.some((s) => s.name === p.method && s.kind === 'method'),
          `${p.method} is a method: ${JSON.stringify(all.map((s) => [s.name, s.kind]))}`,
        );
        assert.ok(!names(all).includes('scaled'), 'a local of the function is no definition');
      });

      it('finds the function by name and by a prefix, never in node_modules, ignored folders or .env files', async () => {
        const exact = (await intel.findSymbols({ name: p.fn, limit: 50 }, signal)).items;
        assert.deepEqual(
          exact.map((s) => `${s.path}:${s.line}:${s.column}`),
          [`${p.geometry}:${p.definition.line}:${p.definition.column}`],
        );
        const prefix = (await intel.findSymbols({ name: p.fn.slice(0, 5).toLowerCase(), limit: 50 }, signal)).items;
        assert.ok(names(prefix).includes(p.fn));
      });

      it('goes from a use in another file to the definition', async () => {
        const column = readFileSync(path.join(root, p.use.path), 'utf8').split('\n')[p.use.line - 1]!.indexOf(p.fn) + 1;
        const defs = (await intel.definitions({ path: p.use.path, line: p.use.line, column }, signal)).items;
        assert.deepEqual(
          defs.map((d) => `${d.path}:${d.line}`),
          [`${p.geometry}:${p.definition.line}`],
        );
      });

      it('lists every use in code and none in comments, strings or hidden files', async () => {
        const refs = (await intel.references({ path: p.geometry, ...p.definition }, signal)).items;
        assert.deepEqual([...new Set(refs.map((r) => `${r.path}:${r.line}`))].sort(), [...p.references].sort());
      });

      it('says what the definition looks like on hover (its first line)', async () => {
        const hover = (await intel.hover({ path: p.geometry, ...p.definition }, signal)).items.join('\n');
        assert.match(hover, new RegExp(`${p.fn}\\(`));
      });
    });
  }

  it('re-parses only the file that changed, and sees a new definition at once', async () => {
    const p = PROJECTS[0]!;
    const root = projectCopy(p);
    const intel = await intelFor(root);
    await intel.index.refresh();
    const before = intel.index.file('src/report.ts');
    const geometry = intel.index.file(p.geometry);
    appendFileSync(path.join(root, 'src/report.ts'), '\nexport function addedLater(): void {}\n');
    const found = (await intel.findSymbols({ name: 'addedLater', limit: 5 }, signal)).items;
    assert.deepEqual(
      found.map((s) => s.path),
      ['src/report.ts'],
    );
    assert.notEqual(intel.index.file('src/report.ts'), before, 'the changed file was parsed again');
    assert.equal(intel.index.file(p.geometry), geometry, 'an unchanged file was not');
  });

  it('tells a member from a free-standing name: a method named like a function is not its definition or reference', async () => {
    const root = projectCopy(PROJECTS[0]!);
    writeFileSync(
      path.join(root, 'src/parse.ts'),
      [
        'export function parse(text: string) { return text; }',
        'export class Reader {',
        '  parse(text: string) { return parse(text); }',
        '}',
        'const r = new Reader();',
        'r.parse("x");',
        '',
      ].join('\n'),
    );
    const intel = await intelFor(root);
    const at = (line: number, column: number) => ({ path: 'src/parse.ts', line, column });
    const where = (items: { line: number; column: number }[]) => items.map((i) => `${i.line}:${i.column}`);
    assert.deepEqual(where((await intel.definitions(at(3, 32), signal)).items), ['1:17'], 'a bare call: the function');
    assert.deepEqual(where((await intel.definitions(at(6, 3), signal)).items), ['3:3'], 'a call through a value: the method');
    // From the function: its uses (bare and through a value alike), never the method's own definition.
    assert.deepEqual(where((await intel.references(at(1, 17), signal)).items), ['1:17', '3:32', '6:3']);
    assert.deepEqual(where((await intel.references(at(3, 3), signal)).items), ['3:3', '3:32', '6:3']);
  });

  it('never follows a symbolic link out of the workspace', async () => {
    const outside = scratchDir('codeintel-outside');
    writeFileSync(path.join(outside, 'secret.ts'), 'export function leakedOutside() {}\n');
    const root = projectCopy(PROJECTS[0]!);
    symlinkSync(outside, path.join(root, 'linked-dir'));
    symlinkSync(path.join(outside, 'secret.ts'), path.join(root, 'linked.ts'));
    const intel = await intelFor(root);
    assert.deepEqual((await intel.findSymbols({ name: 'leakedOutside', limit: 5 }, signal)).items, []);
    await intel.index.refresh();
    assert.ok(![...intel.index.files()].some((f) => f.path.startsWith('linked')));
  });

  it('answers unsupported for a file no grammar reads, and nothing for a position on no name', async () => {
    const root = projectCopy(PROJECTS[0]!);
    writeFileSync(path.join(root, 'notes.txt'), 'computeArea\n');
    const intel = await intelFor(root);
    assert.deepEqual((await intel.outline('notes.txt', signal)).unsupported, { path: 'notes.txt' });
    const blank = await intel.definitions({ path: 'src/geometry.ts', line: 1, column: 1 }, signal);
    assert.deepEqual(blank.items, []);
  });
});
