// Hosts decide by what a tool declares (its kind, its preview), never by its name (issue 24): a
// string literal naming a built-in tool, used to decide something — compared, a switch case, a
// Set's member, an includes/has/indexOf argument — fails here, outside the tool definitions
// (src/tools) and the kernel's own registry. The names come from the real registry, so a tool
// added later is covered without touching this test.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import type { Workspace } from '../../../src/kernel/index.js';
import { composeRegistry } from '../../../src/compose/runtime.js';
import { resourceTool } from '../../../src/mcp/resource-tool.js';
import { delegateRemoteTool } from '../../../src/a2a/delegate-remote.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SRC = path.join(ROOT, 'src');
/** Where tools are defined, and the kernel's registry: they may name a tool. */
const EXEMPT = [path.join(SRC, 'tools') + path.sep, path.join(SRC, 'kernel', 'registry.ts')];
/** A word that is a tool's name but means something else here, with why. */
const NOT_A_TOOL: Record<string, { word: string; why: string }> = {
  'src/cli/memory-command.ts': { word: 'forget', why: 'the verb of `keel memory forget`' },
};

function builtInToolNames(): Set<string> {
  const workspace = { root: '/w', shell: undefined } as unknown as Workspace;
  const library = { loaded: () => [], load: async () => [], readResource: async () => ({ data: new Uint8Array(), size: 0 }) };
  const names = composeRegistry(workspace, library)
    .tools()
    .map((t) => t.name);
  names.push(resourceTool([], {}, async () => ({ ok: true, content: '' })).name, delegateRemoteTool([]).name);
  return new Set(names);
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);
const MEMBERSHIP_CALLS = new Set(['includes', 'has', 'indexOf']);

/** How `literal` decides something, or undefined when it only names (a title, a message, a definition). */
function decidingUse(literal: ts.StringLiteralLike): string | undefined {
  const parent = literal.parent;
  if (ts.isBinaryExpression(parent) && COMPARISONS.has(parent.operatorToken.kind)) return 'compared';
  if (ts.isCaseClause(parent)) return 'a switch case';
  if (ts.isCallExpression(parent) && parent.arguments.includes(literal as ts.Expression)) {
    const callee = parent.expression;
    if (ts.isPropertyAccessExpression(callee) && MEMBERSHIP_CALLS.has(callee.name.text)) return `${callee.name.text}()`;
  }
  if (ts.isArrayLiteralExpression(parent)) {
    const user = parent.parent;
    if (ts.isNewExpression(user) && ts.isIdentifier(user.expression) && user.expression.text === 'Set') return 'a Set member';
    if (ts.isPropertyAccessExpression(user) && MEMBERSHIP_CALLS.has(user.name.text)) return `a member of [...].${user.name.text}`;
  }
  return undefined;
}

/** Every deciding use of a tool name in a source text, as "file:line: 'name' (how)". */
function namedDecisions(file: string, text: string, names: ReadonlySet<string>): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) && names.has(node.text)) {
      const how = decidingUse(node);
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      const rel = path.relative(ROOT, file).split(path.sep).join('/');
      if (how && NOT_A_TOOL[rel]?.word !== node.text) found.push(`${rel}:${line}: '${node.text}' (${how})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('architecture: no host decides by a built-in tool’s name', () => {
  const names = builtInToolNames();

  it('knows the built-in tools from the real registry', () => {
    for (const n of ['read_file', 'edit_file', 'write_file', 'run_command', 'use_skill', 'delegate_remote', 'mcp_read_resource'])
      assert.ok(names.has(n), n);
  });

  it('catches a comparison, a switch case, a Set member and an includes() (the probe)', () => {
    const probe = [
      "if (tool === 'edit_file') x();",
      "switch (t) { case 'run_tests': break; }",
      "const EDIT = new Set(['write_file']);",
      "if (['read_file', 'other'].includes(t)) y();",
      "names.includes('find_references');",
      "const title = { read_file: 'Read' }; log('read_file is a tool');",
    ].join('\n');
    assert.equal(namedDecisions(path.join(SRC, 'probe.ts'), probe, names).length, 5);
  });

  it('finds none in src/ outside the tool definitions and the kernel registry', function () {
    this.timeout(60_000);
    const files = sourceFiles(SRC).filter((f) => !EXEMPT.some((e) => f === e || f.startsWith(e)));
    // Only files that hold a tool's name at all are parsed.
    const mentions = new RegExp([...names].map((n) => `['"\`]${n}['"\`]`).join('|'));
    const found = files.flatMap((f) => {
      const text = fs.readFileSync(f, 'utf8');
      return mentions.test(text) ? namedDecisions(f, text, names) : [];
    });
    assert.deepEqual(found, []);
  });
});
