// One file through its grammar: the definitions it makes (flat, each naming its parent) and
// where each identifier occurs in its code. Identifiers are matched in the source text and
// filtered by the syntax tree, so text inside strings and comments never counts. Definitions
// inside a function body are locals and are left out. Every question to the tree crosses into
// WebAssembly, so each file is asked twice in all (its non-code nodes, the definitions query)
// and names are read from the source text.
import type { CodeSymbolKind } from '../kernel/index.js';
import type { Node, Query, QueryMatch, Tree } from '@vscode/tree-sitter-wasm';
import type { LanguageSpec } from './languages.js';
import { definitionQuery, parserFor } from './grammars.js';

export interface IndexedDef {
  name: string;
  kind: CodeSymbolKind;
  /** 1-based line and column (UTF-16 units) of the name. */
  line: number;
  column: number;
  endLine: number;
  /** Index of the enclosing definition in the file's list; -1 at top level. */
  parent: number;
  /** The definition's first line, trimmed: what the repo map shows. */
  signature: string;
  /** False for a grouping that only names what it extends (a Rust impl block). */
  defines: boolean;
  /** The type a Go method belongs to (its receiver); others take their parent's name. */
  container?: string;
}

export interface ParsedFile {
  defs: IndexedDef[];
  /** Identifier → where it occurs in the file's code (packPosition), in order. */
  uses: Map<string, number[]>;
}

/** An identifier in the code: its text and 1-based position. */
export interface Occurrence {
  name: string;
  line: number;
  column: number;
}

const SIGNATURE_CHARS = 120;
/** How deep in the tree a definition may start (a method in a class in a namespace is about 8). */
const MAX_DEFINITION_DEPTH = 12;
const NAME_TAIL = /[\p{ID_Continue}$]*/uy;

export async function parseSource(source: string, spec: LanguageSpec): Promise<ParsedFile> {
  const query = await definitionQuery(spec);
  return withTree(source, spec, { defs: [], uses: new Map() }, (tree) => {
    const uses = new Map<string, number[]>();
    for (const o of identifiersIn(tree, source, spec)) {
      const at = packPosition(o.line, o.column);
      const list = uses.get(o.name);
      if (list) list.push(at);
      else uses.set(o.name, [at]);
    }
    return { defs: definitionsIn(tree, query, source), uses };
  });
}

/** A position in one number (a column past 65535 is kept as 65535: generated code). */
export function packPosition(line: number, column: number): number {
  return line * 65536 + Math.min(column, 65535);
}

export function unpackPosition(at: number): { line: number; column: number } {
  return { line: Math.floor(at / 65536), column: at % 65536 };
}

/** Every identifier of the file's code, in order (what find_references matches, headless). */
export async function occurrencesIn(source: string, spec: LanguageSpec): Promise<Occurrence[]> {
  return withTree(source, spec, [], (tree) => identifiersIn(tree, source, spec));
}

async function withTree<T>(source: string, spec: LanguageSpec, empty: T, use: (tree: Tree) => T): Promise<T> {
  const tree = (await parserFor(spec.grammar)).parse(source);
  if (!tree) return empty;
  try {
    return use(tree);
  } finally {
    tree.delete();
  }
}

/**
 * The file's identifiers: every name-shaped word of the source outside the nodes that hold no
 * code (comments, literals), reserved words left out. One question to the tree (those nodes,
 * a handful a file) instead of one per identifier.
 */
function identifiersIn(tree: Tree, source: string, spec: LanguageSpec): Occurrence[] {
  const skip = tree.rootNode.descendantsOfType([...spec.nonCode]).map((n) => [n!.startIndex, n!.endIndex] as const);
  const out: Occurrence[] = [];
  let line = 1;
  let lineStart = 0;
  let s = 0;
  WORD.lastIndex = 0;
  for (let m = WORD.exec(source); m; m = WORD.exec(source)) {
    const at = m.index;
    while (s < skip.length && skip[s]![1] <= at) s++;
    if (s < skip.length && skip[s]![0] <= at) {
      WORD.lastIndex = skip[s]![1];
      continue;
    }
    // `${` opens a template's code; a lone `$` there is no name.
    if (spec.keywords.has(m[0]) || (m[0] === '$' && source[at + 1] === '{')) continue;
    for (let nl = source.indexOf('\n', lineStart); nl >= 0 && nl < at; nl = source.indexOf('\n', lineStart)) {
      line++;
      lineStart = nl + 1;
    }
    out.push({ name: m[0], line, column: at - lineStart + 1 });
  }
  return out;
}

/** A name (or a JavaScript private name): not preceded by a name character, so `0x1F` and `1e9` hold none. */
const WORD = /(?<![\p{ID_Continue}$#])#?[\p{ID_Start}$_][\p{ID_Continue}$]*/gu;

/** The name starting at `index`: one identifier character, then identifier characters. */
function nameAt(source: string, index: number): string {
  const first = source.codePointAt(index) ?? 0;
  NAME_TAIL.lastIndex = index + (first > 0xffff ? 2 : 1);
  NAME_TAIL.exec(source);
  return source.slice(index, NAME_TAIL.lastIndex);
}

interface Candidate {
  node: Node;
  /** Where the definition node ends (UTF-16 index): what it encloses. */
  end: number;
  kind: CodeSymbolKind | 'group' | 'scope';
  name: Node | undefined;
  receiver: Node | undefined;
  pattern: number;
}

interface Open {
  id: number;
  end: number;
  /** The definition's index in the list; -1 for a scope that is no definition (a lambda). */
  index: number;
  container: boolean;
  opaque: boolean;
}

const CONTAINERS = new Set<string>(['class', 'interface', 'enum', 'module', 'group']);
const OPAQUE = new Set<string>(['function', 'method', 'constructor', 'scope']);
const MEMBER_KIND = new Map<CodeSymbolKind, CodeSymbolKind>([
  ['function', 'method'],
  ['variable', 'field'],
]);

function definitionsIn(tree: Tree, query: Query, source: string): IndexedDef[] {
  const lines = lineStarts(source);
  const defs: IndexedDef[] = [];
  const open: Open[] = [];
  for (const c of candidates(tree, query)) {
    while (open.length > 0 && open[open.length - 1]!.end <= c.node.startIndex) open.pop();
    // Two names of one definition (`const a, b`) are siblings, not parent and child.
    const top = open[open.length - 1];
    const outer = top?.id === c.node.id ? open[open.length - 2] : top;
    if (open.some((o) => o.opaque)) continue;
    const made = record(c, outer, defs, source, lines);
    if (made) open.push({ id: c.node.id, end: c.end, ...made });
  }
  return defs;
}

/** The query's captures per match, one per name (the first pattern wins), enclosing nodes first. */
function candidates(tree: Tree, query: Query): Candidate[] {
  const byName = new Map<number, Candidate>();
  const unnamed: Candidate[] = [];
  // Definitions sit near the top of the tree; deep nodes are inside function bodies (locals).
  for (const m of query.matches(tree.rootNode, { maxStartDepth: MAX_DEFINITION_DEPTH })) {
    const c = fromMatch(m);
    if (!c) continue;
    if (!c.name) unnamed.push(c);
    else if ((byName.get(c.name.startIndex)?.pattern ?? Number.POSITIVE_INFINITY) > c.pattern) byName.set(c.name.startIndex, c);
  }
  const out = [...byName.values(), ...unnamed];
  for (const c of out) c.end = c.node.endIndex;
  return out.sort((a, b) => a.node.startIndex - b.node.startIndex || b.end - a.end || a.pattern - b.pattern);
}

function fromMatch(m: QueryMatch): Candidate | undefined {
  let node: Node | undefined;
  let kind: Candidate['kind'] | undefined;
  let name: Node | undefined;
  let receiver: Node | undefined;
  for (const cap of m.captures) {
    if (cap.name === 'name' || cap.name === 'label') name = cap.node;
    else if (cap.name === 'receiver') receiver = cap.node;
    else [node, kind] = [cap.node, cap.name.startsWith('def.') ? (cap.name.slice(4) as CodeSymbolKind) : (cap.name as 'group' | 'scope')];
  }
  return node && kind ? { node, kind, name, receiver, end: 0, pattern: m.patternIndex } : undefined;
}

/** Adds the candidate's definition; returns what it opens for the nodes inside, if anything. */
function record(
  c: Candidate,
  outer: Open | undefined,
  defs: IndexedDef[],
  source: string,
  lines: number[],
): Omit<Open, 'id' | 'end'> | undefined {
  if (c.kind === 'scope') return SCOPE;
  if (!c.name) return undefined;
  // Members of a class-like definition take their member kind; a module's stay what they are.
  const inClass = outer?.container === true && defs[outer.index]?.kind !== 'module';
  const group = c.kind === 'group';
  const name = c.kind === 'group' ? source.slice(c.name.startIndex, c.name.endIndex) : nameText(source, c.name);
  const kind = c.kind === 'group' ? 'other' : refine(c.kind, name, inClass);
  const p = c.name.startPosition;
  const def: IndexedDef = {
    name,
    kind,
    line: p.row + 1,
    column: p.column + 1,
    endLine: lineOf(lines, c.end),
    parent: outer?.index ?? -1,
    signature: signatureOf(source, lines, p.row),
    defines: !group,
  };
  if (c.receiver) def.container = nameAt(source, c.receiver.startIndex);
  defs.push(def);
  const container = group || CONTAINERS.has(kind);
  const opaque = OPAQUE.has(kind);
  return container || opaque ? { index: defs.length - 1, container, opaque } : undefined;
}

const SCOPE = { index: -1, container: false, opaque: true };

function refine(kind: CodeSymbolKind, name: string, inClass: boolean): CodeSymbolKind {
  if (kind === 'method' && name === 'constructor') return 'constructor';
  if (inClass) return MEMBER_KIND.get(kind) ?? kind;
  if (kind === 'variable' && /^[A-Z][A-Z0-9_]*$/.test(name)) return 'constant';
  return kind;
}

function nameText(source: string, n: Node): string {
  const first = source[n.startIndex];
  if (first !== '"' && first !== "'") return nameAt(source, n.startIndex);
  const close = source.indexOf(first, n.startIndex + 1);
  return source.slice(n.startIndex + 1, close < 0 ? n.startIndex + 1 : close);
}

/** The UTF-16 index where each line starts. */
function lineStarts(source: string): number[] {
  const starts = [0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The 1-based line holding the character before `end`. */
function lineOf(starts: number[], end: number): number {
  let [lo, hi] = [0, starts.length - 1];
  const at = Math.max(0, end - 1);
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

function signatureOf(source: string, starts: number[], row: number): string {
  const line = source.slice(starts[row] ?? 0, (starts[row + 1] ?? source.length + 1) - 1);
  const flat = line.trim().replace(/\s+/g, ' ');
  return flat.length > SIGNATURE_CHARS ? `${flat.slice(0, SIGNATURE_CHARS - 1)}…` : flat;
}
