// The straightforward extraction the code index used before it was made fast, kept as the
// yardstick its optimised build is compared with: a definitions query whose cursor stops at the
// depth limit, a second walk of the tree listing the nodes that hold no code, identifiers found
// by a Unicode regular expression, one object per identifier. Slow and plain on purpose: it
// shares nothing with src/codeintel but the grammar loader and the language table.
import { type Language, type Node, Query, type QueryMatch, type Tree } from '@vscode/tree-sitter-wasm';
import type { IndexedDef } from '../../src/codeintel/definitions.js';
import { parserFor } from '../../src/codeintel/grammars.js';
import type { LanguageSpec } from '../../src/codeintel/languages.js';
import type { CodeSymbolKind } from '../../src/kernel/index.js';

export interface ReferenceFile {
  defs: IndexedDef[];
  uses: Map<string, number[]>;
}

const MAX_DEFINITION_DEPTH = 12;
const SIGNATURE_CHARS = 120;
/** A name (or a private name) not preceded by a name character. */
const WORD = /(?<![\p{ID_Continue}$#])#?[\p{ID_Start}$_][\p{ID_Continue}$]*/gu;
const queries = new Map<string, Query>();

export async function referenceParse(source: string, spec: LanguageSpec): Promise<ReferenceFile> {
  const parser = await parserFor(spec.grammar);
  const tree = parser.parse(source);
  if (!tree) return { defs: [], uses: new Map() };
  try {
    const uses = new Map<string, number[]>();
    for (const o of referenceIdentifiers(source, tree, spec)) {
      const at = o.line * 65536 + Math.min(o.column, 65535);
      uses.set(o.name, [...(uses.get(o.name) ?? []), at]);
    }
    return { defs: definitions(tree, queryFor(spec, parser.language!), source), uses };
  } finally {
    tree.delete();
  }
}

/** Every identifier outside comments and strings, by regular expression, in order. */
export function referenceIdentifiers(source: string, tree: Tree, spec: LanguageSpec): { name: string; line: number; column: number }[] {
  const skip = tree.rootNode.descendantsOfType([...spec.nonCode]).map((n) => [n!.startIndex, n!.endIndex] as const);
  return referenceWords(source, skip, spec.keywords);
}

/** The words of `source` the identifier rule accepts, skipping words that start in a `skip` range. */
export function referenceWords(
  source: string,
  skip: readonly (readonly [number, number])[],
  keywords: ReadonlySet<string>,
): { name: string; line: number; column: number }[] {
  const out: { name: string; line: number; column: number }[] = [];
  let s = 0;
  WORD.lastIndex = 0;
  for (let m = WORD.exec(source); m; m = WORD.exec(source)) {
    const at = m.index;
    while (s < skip.length && skip[s]![1] <= at) s++;
    if (s < skip.length && skip[s]![0] <= at) {
      WORD.lastIndex = skip[s]![1];
      continue;
    }
    if (keywords.has(m[0]) || (m[0] === '$' && source[at + 1] === '{')) continue;
    const before = source.slice(0, at);
    out.push({ name: m[0], line: before.split('\n').length, column: at - (before.lastIndexOf('\n') + 1) + 1 });
  }
  return out;
}

function queryFor(spec: LanguageSpec, language: Language): Query {
  let q = queries.get(spec.grammar);
  if (!q) {
    const known = (p: string) => [...p.matchAll(/\((\w+)/g)].every((m) => m[1] === '_' || language.idForNodeType(m[1]!, true) !== null);
    q = new Query(language, spec.definitions.filter(known).join('\n'));
    queries.set(spec.grammar, q);
  }
  return q;
}

interface Candidate {
  node: Node;
  end: number;
  kind: string;
  name?: Node;
  receiver?: Node;
  pattern: number;
}

function candidate(m: QueryMatch): Candidate | undefined {
  const c: Partial<Candidate> = { pattern: m.patternIndex };
  for (const cap of m.captures) {
    if (cap.name === 'name' || cap.name === 'label') c.name = cap.node;
    else if (cap.name === 'receiver') c.receiver = cap.node;
    else [c.node, c.kind] = [cap.node, cap.name.replace(/^def\./, '')];
  }
  return c.node ? { ...(c as Candidate), end: c.node.endIndex } : undefined;
}

function definitions(tree: Tree, query: Query, source: string): IndexedDef[] {
  const byName = new Map<number, Candidate>();
  const unnamed: Candidate[] = [];
  for (const m of query.matches(tree.rootNode, { maxStartDepth: MAX_DEFINITION_DEPTH })) {
    const c = candidate(m);
    if (!c) continue;
    if (!c.name) unnamed.push(c);
    else if ((byName.get(c.name.startIndex)?.pattern ?? Number.POSITIVE_INFINITY) > c.pattern) byName.set(c.name.startIndex, c);
  }
  const all = [...byName.values(), ...unnamed].sort(
    (a, b) => a.node.startIndex - b.node.startIndex || b.end - a.end || a.pattern - b.pattern,
  );
  const lines = source.split('\n');
  const defs: IndexedDef[] = [];
  const open: { id: number; end: number; index: number; container: boolean; opaque: boolean }[] = [];
  for (const c of all) {
    while (open.length > 0 && open[open.length - 1]!.end <= c.node.startIndex) open.pop();
    const top = open[open.length - 1];
    const outer = top?.id === c.node.id ? open[open.length - 2] : top;
    if (open.some((o) => o.opaque)) continue;
    if (c.kind === 'scope') {
      open.push({ id: c.node.id, end: c.end, index: -1, container: false, opaque: true });
      continue;
    }
    if (!c.name) continue;
    const inClass = outer?.container === true && defs[outer.index]?.kind !== 'module';
    const name = c.kind === 'group' ? source.slice(c.name.startIndex, c.name.endIndex) : nameText(source, c.name.startIndex);
    const kind = c.kind === 'group' ? 'other' : refine(c.kind as CodeSymbolKind, name, inClass);
    const row = c.name.startPosition.row;
    const flat = (lines[row] ?? '').trim().replace(/\s+/g, ' ');
    const def: IndexedDef = {
      name,
      kind,
      line: row + 1,
      column: c.name.startPosition.column + 1,
      endLine: source.slice(0, Math.max(0, c.end - 1)).split('\n').length,
      parent: outer?.index ?? -1,
      signature: flat.length > SIGNATURE_CHARS ? `${flat.slice(0, SIGNATURE_CHARS - 1)}…` : flat,
      defines: c.kind !== 'group',
    };
    if (c.receiver) def.container = nameText(source, c.receiver.startIndex);
    defs.push(def);
    const container = c.kind === 'group' || ['class', 'interface', 'enum', 'module'].includes(kind);
    const opaque = ['function', 'method', 'constructor'].includes(kind);
    if (container || opaque) open.push({ id: c.node.id, end: c.end, index: defs.length - 1, container, opaque });
  }
  return defs;
}

function refine(kind: CodeSymbolKind, name: string, inClass: boolean): CodeSymbolKind {
  if (kind === 'method' && name === 'constructor') return 'constructor';
  if (inClass && kind === 'function') return 'method';
  if (inClass && kind === 'variable') return 'field';
  if (!inClass && kind === 'variable' && /^[A-Z][A-Z0-9_]*$/.test(name)) return 'constant';
  return kind;
}

/** The identifier at `index`, or the text of a quoted name. */
function nameText(source: string, index: number): string {
  const quote = source[index];
  if (quote === '"' || quote === "'") {
    const close = source.indexOf(quote, index + 1);
    return source.slice(index + 1, close < 0 ? index + 1 : close);
  }
  return /^[\s\S][\p{ID_Continue}$]*/u.exec(source.slice(index))?.[0] ?? '';
}
