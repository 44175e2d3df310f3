// The symbol tools in the real VS Code: go_to_definition and find_references answered by the
// TypeScript language server VS Code ships (its built-in typescript-language-features), through
// the same tool definitions the CLI uses; and, for a language with no server here (Rust), the
// syntax trees answer and say so.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ToolContext, ToolResult } from '../../src/kernel/index.js';
import { findReferencesTool } from '../../src/tools/code/find-references.js';
import { goToDefinitionTool } from '../../src/tools/code/go-to-definition.js';
import { keelApi, until, workspaceRoot } from './keel-api.js';

const GEOMETRY = `export interface Sized {
  width: number;
}

/** computeArea in a comment is not a reference. */
export function computeArea(shape: Sized): number {
  return shape.width * shape.width;
}
`;

const REPORT = `import { computeArea } from './geometry';

export function report(shapes: { width: number }[]): number {
  // "computeArea" in a string or a comment is not one either.
  return shapes.reduce((sum, s) => sum + computeArea(s), 0);
}
`;

const engineOf = (r: ToolResult) => (r.data as { engine?: string; fallback?: string } | undefined) ?? {};
const places = (r: ToolResult) => [...r.content.matchAll(/^([\w./-]+):(\d+):\d+/gm)].map((m) => `${m[1]}:${m[2]}`);

describe('Keel symbol tools in VS Code', function () {
  this.timeout(90_000);
  const dir = () => path.join(workspaceRoot().fsPath, 'intel');

  before(() => {
    mkdirSync(dir(), { recursive: true });
    writeFileSync(path.join(dir(), 'geometry.ts'), GEOMETRY);
    writeFileSync(path.join(dir(), 'report.ts'), REPORT);
    writeFileSync(path.join(dir(), 'lib.rs'), 'pub fn tally() -> u32 { 1 }\npub fn twice() -> u32 { tally() + tally() }\n');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir(), { recursive: true, force: true });
  });

  async function context(): Promise<ToolContext> {
    const api = await keelApi();
    return { workspace: api.workspace!, signal: new AbortController().signal, fileVersions: {}, onProgress: () => undefined };
  }

  it('code-server ships VS Code’s TypeScript language features', () => {
    assert.ok(vscode.extensions.getExtension('vscode.typescript-language-features'), 'the built-in TypeScript extension is installed');
  });

  it('go_to_definition and find_references come from the TypeScript language server', async () => {
    const ctx = await context();
    // The server starts when a TypeScript document opens; until it has read geometry.ts (new on
    // disk) it answers with the import itself, so wait for the answer that follows the import.
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(dir(), 'report.ts')), { preview: true });
    const def = await until(
      'a definition in geometry.ts from the TypeScript server',
      async () => {
        const r = await goToDefinitionTool.execute({ symbol: 'computeArea', path: 'intel/report.ts', line: 5 }, ctx);
        return engineOf(r).engine === 'language-server' && places(r).includes('intel/geometry.ts:6') ? r : undefined;
      },
      60_000,
    );
    assert.deepEqual(places(def), ['intel/geometry.ts:6']);
    assert.match(def.content, /\(answered by the language server\)/);
    assert.match(def.content, /intel\/geometry\.ts:6:17 {2}export function computeArea/);

    const refs = await findReferencesTool.execute({ symbol: 'computeArea', path: 'intel/geometry.ts', line: 6 }, ctx);
    assert.equal(engineOf(refs).engine, 'language-server', refs.content);
    assert.deepEqual(places(refs).sort(), ['intel/geometry.ts:6', 'intel/report.ts:1', 'intel/report.ts:5']);
  });

  it('falls back to the syntax trees, and says so, where no language server answers (Rust here)', async () => {
    const ctx = await context();
    const refs = await findReferencesTool.execute({ symbol: 'tally', path: 'intel/lib.rs', line: 1 }, ctx);
    assert.deepEqual(engineOf(refs), { engine: 'tree-sitter', fallback: 'no_language_server', count: 3, files: 1 });
    assert.match(refs.content, /no language server answered for this file, so Keel's syntax trees answered/);
    assert.deepEqual(places(refs), ['intel/lib.rs:1', 'intel/lib.rs:2', 'intel/lib.rs:2']);
  });
});
