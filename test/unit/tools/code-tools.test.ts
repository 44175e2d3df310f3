// The symbol tools as the model sees them, on the headless engine over the five fixture
// projects and on a stand-in language server: path:line:column with the line's text, nothing
// outside the workspace or in ignored and secret files, a huge answer summarised and paged,
// and bad input answered with a code the model can act on.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CodeIntel, CodeIntelAnswer, CodeLocation, ToolResult, Workspace } from '../../../src/kernel/index.js';
import { headlessWorkspace } from '../../../src/compose/headless-workspace.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { documentOutlineTool } from '../../../src/tools/code/document-outline.js';
import { findReferencesTool } from '../../../src/tools/code/find-references.js';
import { findSymbolTool } from '../../../src/tools/code/find-symbol.js';
import { goToDefinitionTool } from '../../../src/tools/code/go-to-definition.js';
import { typeInfoTool } from '../../../src/tools/code/type-info.js';
import { scratchDir } from '../../support/scratch.js';
import { PROJECTS, projectCopy } from '../codeintel/fixture-projects.js';
import { context } from './helpers.js';

const locations = (r: ToolResult) => [...r.content.matchAll(/^(?:.* — )?([\w./-]+):(\d+):(\d+)/gm)].map((m) => `${m[1]}:${m[2]}`);

describe('symbol tools (headless, on syntax trees)', function () {
  this.timeout(20_000);

  for (const p of PROJECTS) {
    it(`${p.name}: definition, references and outline, each line with its text`, async () => {
      const ws = await headlessWorkspace(projectCopy(p), { web: false });
      const ctx = context(ws);
      const def = await goToDefinitionTool.execute({ symbol: p.fn, path: p.use.path, line: p.use.line }, ctx);
      assert.ok(def.ok, def.content);
      assert.deepEqual(locations(def), [`${p.geometry}:${p.definition.line}`]);
      assert.match(def.content, new RegExp(`${p.geometry.replace('.', '\\.')}:${p.definition.line}:${p.definition.column}  .*${p.fn}`));
      assert.match(def.content, /syntax trees answered/);

      const refs = await findReferencesTool.execute({ symbol: p.fn }, ctx);
      assert.ok(refs.ok, refs.content);
      assert.deepEqual([...new Set(locations(refs))].sort(), [...p.references].sort());
      assert.doesNotMatch(refs.content, /node_modules|generated|\.env/);

      const outline = await documentOutlineTool.execute({ path: p.geometry }, ctx);
      // (Java's Shape is nested in Geometry, so it may be indented itself.)
      const methodIn = {
        class: `^( *)class ${p.shape}  \\d+–\\d+\n(\\1  .*\n)*\\1  method ${p.method}  \\d+`,
        impl: `^( *)impl ${p.shape}  \\d+–\\d+\n(\\1  .*\n)*\\1  method ${p.method}  \\d+`,
        receiver: `^method ${p.method} \\(of ${p.shape}\\)  \\d+`,
      }[p.methodIn];
      assert.match(outline.content, new RegExp(`^( *)class ${p.shape}  \\d+`, 'm'));
      assert.match(outline.content, new RegExp(methodIn, 'm'), 'the method is shown with its type');

      const found = await findSymbolTool.execute({ query: p.fn }, ctx);
      assert.match(found.content, new RegExp(`^${p.fnKind} ${p.fn}.* — ${p.geometry.replace('.', '\\.')}:${p.definition.line}:`, 'm'));
      const info = await typeInfoTool.execute({ symbol: p.fn }, ctx);
      assert.match(info.content, new RegExp(`${p.fn}\\(`));
    });
  }

  it('answers bad input with a code and a reason: line without path, no such line, name not on it, outside, secret', async () => {
    const root = projectCopy(PROJECTS[0]!);
    const ctx = context(await headlessWorkspace(root, { web: false }));
    const noPath = await goToDefinitionTool.execute({ symbol: 'computeArea', line: 3 }, ctx);
    assert.equal(noPath.code, 'invalid_input');
    const noLine = await goToDefinitionTool.execute({ symbol: 'computeArea', path: 'src/report.ts', line: 999 }, ctx);
    assert.equal(noLine.code, 'invalid_input');
    assert.match(noLine.content, /has \d+ lines/);
    const notThere = await findReferencesTool.execute({ symbol: 'computeArea', path: 'src/report.ts', line: 2 }, ctx);
    assert.equal(notThere.code, 'not_found');
    assert.match(notThere.content, /That line reads/);
    const outside = await documentOutlineTool.execute({ path: '../../etc/passwd' }, ctx);
    assert.equal(outside.code, 'permission_denied');
    const secret = await goToDefinitionTool.execute({ symbol: 'computeArea', path: '.env', line: 1 }, ctx);
    assert.equal(secret.code, 'permission_denied');
    const unknown = await goToDefinitionTool.execute({ symbol: 'noSuchNameAnywhere' }, ctx);
    assert.equal(unknown.code, 'not_found');
    writeFileSync(path.join(root, 'src/huge.ts'), `export const big = ${JSON.stringify('x'.repeat(5 * 1024 * 1024))};\n`);
    const huge = await documentOutlineTool.execute({ path: 'src/huge.ts' }, ctx);
    assert.equal(huge.code, 'invalid_input');
    assert.match(huge.content, /too large to outline/);
    const folder = await documentOutlineTool.execute({ path: 'src' }, ctx);
    assert.equal(folder.code, 'invalid_input');
  });

  it('summarises 5,000 uses by file with counts, a page of them and a cursor, within its budget', async () => {
    const root = scratchDir('refs-5000');
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src/core.ts'), 'export function tick(n: number): number {\n  return n + 1;\n}\n');
    for (let f = 0; f < 50; f++) {
      const lines = [`import { tick } from './core.js';`, ...Array.from({ length: 100 }, (_, i) => `export const v${i} = tick(${i});`)];
      writeFileSync(path.join(root, `src/use${f}.ts`), lines.join('\n'));
    }
    const ctx = context(await headlessWorkspace(root, { web: false }));
    const first = await findReferencesTool.execute({ symbol: 'tick' }, ctx);
    assert.ok(first.ok, first.content);
    assert.match(first.content, /^5,?051 references in 51 files/);
    assert.ok(first.content.length <= findReferencesTool.outputBudgetTokens * 4, `${first.content.length} characters`);
    assert.match(first.content, /By file, most first:\n {2}src\/use\d+\.ts \(101\)/);
    assert.match(first.content, /… and 21 more files \(2,\d{3} references\)/);
    assert.match(first.content, /References 1–40:/);
    const cursor = /cursor "(\d+)"/.exec(first.content)?.[1];
    assert.equal(cursor, '40');
    const second = await findReferencesTool.execute({ symbol: 'tick', cursor }, ctx);
    assert.match(second.content, /References 41–80:/);
    assert.doesNotMatch(second.content, /By file/);
    const pages = [first, second].map((r) => locations(r).slice(0, 40));
    assert.equal(new Set([...pages[0]!, ...pages[1]!]).size, 80, 'the pages do not overlap');
  });

  it('is offered only where the workspace answers code questions', () => {
    for (const tool of [findSymbolTool, goToDefinitionTool, findReferencesTool, documentOutlineTool, typeInfoTool]) {
      assert.equal(tool.isVisible?.({ trusted: true, hasDiagnostics: false }), false);
      assert.equal(
        tool.isVisible?.({ trusted: false, hasDiagnostics: false, hasCodeIntel: true }),
        true,
        'a read: offered in Restricted Mode',
      );
      assert.equal(tool.risk, 'read');
    }
  });
});

describe('symbol tools over a language server', () => {
  /** A stand-in server that answers with places a real one gives: outside the root, node_modules, a .env. */
  function serverAnswering(items: CodeLocation[]): (ws: Workspace) => CodeIntel {
    const answer = <T>(list: T[]): Promise<CodeIntelAnswer<T>> => Promise.resolve({ engine: 'language-server', items: list });
    return () => ({
      findSymbols: () => answer(items.map((l) => ({ ...l, name: 'load', kind: 'function' as const }))),
      definitions: () => answer(items),
      references: () => answer(items),
      outline: () => answer([]),
      hover: () => answer(['```ts\nfunction load(): void\n```']),
    });
  }

  it('shows only places inside the workspace that are neither ignored nor secret, and says how many were left out', async () => {
    const root = scratchDir('ls-filter');
    mkdirSync(path.join(root, 'src'));
    mkdirSync(path.join(root, 'node_modules/dep'), { recursive: true });
    mkdirSync(path.join(root, 'build'));
    writeFileSync(path.join(root, '.gitignore'), 'build/\n');
    writeFileSync(path.join(root, 'src/a.ts'), 'load();\nexport function load() {}\n');
    const items: CodeLocation[] = [
      { path: 'src/a.ts', line: 2, column: 17 },
      { path: 'src/a.ts', line: 1, column: 1 },
      { path: '../elsewhere/lib.d.ts', line: 1, column: 1 },
      { path: 'node_modules/dep/index.d.ts', line: 1, column: 1 },
      { path: 'build/out.js', line: 1, column: 1 },
      { path: '.env.local', line: 1, column: 1 },
      { path: '.git/config', line: 1, column: 1 },
    ];
    writeFileSync(path.join(root, '.gitignore'), 'build/\nnode_modules/\n');
    const ws = await createNodeWorkspace(root, { codeIntel: serverAnswering(items) });
    const refs = await findReferencesTool.execute({ symbol: 'load', path: 'src/a.ts', line: 1 }, context(ws));
    assert.deepEqual(locations(refs), ['src/a.ts:1', 'src/a.ts:2']);
    assert.match(refs.content, /\(answered by the language server\)/);
    assert.match(refs.content, /\[5 results outside the workspace or in ignored or secret files left out\.\]/);
    assert.match(refs.content, /src\/a\.ts:1:1 {2}load\(\);/);
    const info = await typeInfoTool.execute({ symbol: 'load', path: 'src/a.ts', line: 2 }, context(ws));
    assert.match(info.content, /function load\(\): void/);
  });
});
