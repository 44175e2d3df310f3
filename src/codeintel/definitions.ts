// A file's definitions from the matches of its language's query: flat, each naming its parent
// (the enclosing class, module or impl block), its kind refined by where it sits (a function in a
// class is a method). Definitions inside a function body or a lambda are locals and left out.
// When two patterns capture the same name, the first one listed wins.
import type { CodeSymbolKind } from '../kernel/index.js';
import type { Node, QueryMatch } from '@vscode/tree-sitter-wasm';

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

const SIGNATURE_CHARS = 120;
const NAME_TAIL = /[\p{ID_Continue}$]*/uy;

/** The name starting at `index`: one identifier character, then identifier characters. */
function nameAt(source: string, index: number): string {
  const first = source.codePointAt(index) ?? 0;
  NAME_TAIL.lastIndex = index + (first > 0xffff ? 2 : 1);
  NAME_TAIL.exec(source);
  return source.slice(index, NAME_TAIL.lastIndex);
}

interface Candidate {
  node: Node;
  kind: CodeSymbolKind | 'group' | 'scope';
  name: Node | undefined;
  receiver: Node | undefined;
  pattern: number;
}

/** The matches of one name (or one unnamed scope), the first-listed pattern first. */
interface Group {
  matches: Candidate[];
  /** Where the definition node ends (UTF-16 index): what it encloses; read when first needed. */
  end: number;
}

interface Open {
  id: number;
  end: number;
  /** The definition's index in the list; -1 for a scope that is no definition (a lambda). */
  index: number;
  container: boolean;
  opaque: boolean;
}

/**
 * Whether a match's pattern starts shallow enough to count (file-query.ts). `atLeast` is a depth
 * the node is known to have (the definitions around it), so a node inside too many needs no trip
 * into the tree.
 */
export type DepthCheck = (node: Node, pattern: number, atLeast: number) => boolean;

const CONTAINERS = new Set<string>(['class', 'interface', 'enum', 'module', 'group']);
const OPAQUE = new Set<string>(['function', 'method', 'constructor', 'scope']);
const MEMBER_KIND = new Map<CodeSymbolKind, CodeSymbolKind>([
  ['function', 'method'],
  ['variable', 'field'],
]);

/**
 * The definitions the query's matches name, in document order; `lines` holds where each line of
 * `source` starts. Of the patterns matching one name, the first listed whose start is shallow
 * enough wins; the depth is asked only for a name outside every function body (a local is left
 * out whichever pattern names it, and asking costs a trip into the tree).
 */
export function definitionsIn(matches: readonly QueryMatch[], source: string, lines: readonly number[], shallow: DepthCheck): IndexedDef[] {
  const defs: IndexedDef[] = [];
  const around = new Enclosing();
  for (const g of groupsOf(matches)) {
    const first = g.matches[0]!;
    around.closeBefore(first.node.startIndex);
    if (around.inOpaque()) continue;
    const outer = around.outerOf(first.node);
    // A lambda deeper than the limit holds only deeper nodes: opening it changes nothing.
    const atLeast = around.depthOf(first.node);
    const c = first.kind === 'scope' ? first : g.matches.find((m) => shallow(m.node, m.pattern, atLeast));
    if (!c) {
      around.passOver(first.node, endOf(g));
      continue;
    }
    const made = record(c, endOf(g), outer, defs, source, lines);
    if (made) around.open({ id: c.node.id, end: endOf(g), ...made });
  }
  return defs;
}

/**
 * The definitions around the name the walk is at, opened and closed in document order. Counts
 * are kept, not searched, so a file nested thousands of levels deep costs no more per name; the
 * definitions passed over as too deep are kept too, since all they hold is deeper still and a
 * name inside enough of them needs no trip into the tree (each costs about the node's depth).
 */
class Enclosing {
  private readonly opened: Open[] = [];
  private readonly passed: { id: number; end: number }[] = [];
  private opaque = 0;

  closeBefore(start: number): void {
    while (this.opened.length > 0 && this.opened[this.opened.length - 1]!.end <= start) if (this.opened.pop()!.opaque) this.opaque--;
    while (this.passed.length > 0 && this.passed[this.passed.length - 1]!.end <= start) this.passed.pop();
  }

  inOpaque(): boolean {
    return this.opaque > 0;
  }

  /** The definition this node's belongs to; two names of one definition (`const a, b`) are siblings, not parent and child. */
  outerOf(node: Node): Open | undefined {
    const top = this.opened[this.opened.length - 1];
    return top?.id === node.id ? this.opened[this.opened.length - 2] : top;
  }

  /** How many definitions enclose the node (not counting its own): a depth it has at least. */
  depthOf(node: Node): number {
    const self = (list: readonly { id: number }[]) => (list[list.length - 1]?.id === node.id ? 1 : 0);
    return this.opened.length - self(this.opened) + this.passed.length - self(this.passed);
  }

  open(entry: Open): void {
    this.opened.push(entry);
    if (entry.opaque) this.opaque++;
  }

  passOver(node: Node, end: number): void {
    this.passed.push({ id: node.id, end });
  }
}

/**
 * The matches grouped by the name they capture (each unnamed scope alone), enclosing nodes
 * first. The patterns matching one name all capture the same definition node (a `const` arrow
 * function is a function, a constant and a variable), so a group sorts by its first match.
 */
function groupsOf(matches: readonly QueryMatch[]): Group[] {
  const byName = new Map<number, Group>();
  const out: Group[] = [];
  for (const m of matches) {
    const c = fromMatch(m);
    if (!c) continue;
    const known = c.name ? byName.get(c.name.startIndex) : undefined;
    if (known) known.matches.push(c);
    else {
      const g = { matches: [c], end: -1 };
      if (c.name) byName.set(c.name.startIndex, g);
      out.push(g);
    }
  }
  for (const g of out) if (g.matches.length > 1) g.matches.sort((a, b) => a.pattern - b.pattern);
  return out.sort(
    (a, b) =>
      a.matches[0]!.node.startIndex - b.matches[0]!.node.startIndex ||
      endOf(b) - endOf(a) ||
      a.matches[0]!.pattern - b.matches[0]!.pattern ||
      nameStart(a) - nameStart(b),
  );
}

function endOf(g: Group): number {
  if (g.end < 0) g.end = g.matches[0]!.node.endIndex;
  return g.end;
}

const nameStart = (g: Group): number => g.matches[0]!.name?.startIndex ?? -1;

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
  return node && kind ? { node, kind, name, receiver, pattern: m.patternIndex } : undefined;
}

/** Adds the candidate's definition; returns what it opens for the nodes inside, if anything. */
function record(
  c: Candidate,
  end: number,
  outer: Open | undefined,
  defs: IndexedDef[],
  source: string,
  lines: readonly number[],
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
    endLine: lineOf(lines, end),
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
export function lineStarts(source: string): number[] {
  const starts = [0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The 1-based line holding the character before `end`. */
function lineOf(starts: readonly number[], end: number): number {
  let [lo, hi] = [0, starts.length - 1];
  const at = Math.max(0, end - 1);
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

function signatureOf(source: string, starts: readonly number[], row: number): string {
  const line = source.slice(starts[row] ?? 0, (starts[row + 1] ?? source.length + 1) - 1);
  const flat = line.trim().replace(/\s+/g, ' ');
  return flat.length > SIGNATURE_CHARS ? `${flat.slice(0, SIGNATURE_CHARS - 1)}…` : flat;
}
