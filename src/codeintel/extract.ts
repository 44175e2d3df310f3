// One file through its grammar: the definitions it makes (flat, each naming its parent) and
// where each identifier occurs in its code. Every question to the tree crosses into WebAssembly
// and walks it, so a file is parsed once and asked once: one query names its definitions and the
// nodes that hold no code (file-query.ts); identifiers are found in the source text outside those
// nodes (identifiers.ts), and names are read from the text.
import type { Node, QueryMatch } from '@vscode/tree-sitter-wasm';
import { definitionsIn, type IndexedDef, lineStarts } from './definitions.js';
import { fileQuery, MAX_DEFINITION_DEPTH, SKIP_CAPTURE } from './file-query.js';
import { parserFor } from './grammars.js';
import { collectIdentifiers, type UsesByName, unpackPosition } from './identifiers.js';
import type { LanguageSpec } from './languages.js';
import { checkDeadline, checkNesting, type Deadline, deadlineIn, PARSE_FILE_MS } from './parse-limits.js';

export type { IndexedDef } from './definitions.js';
export { packPosition, unpackPosition } from './identifiers.js';

export interface ParsedFile {
  defs: IndexedDef[];
  /** Identifier → where it occurs in the file's code (packPosition), in order. */
  uses: UsesByName;
}

/** An identifier in the code: its text and 1-based position. */
export interface Occurrence {
  name: string;
  line: number;
  column: number;
}

/**
 * The file's definitions and identifiers, within the caps of parse-limits.ts: a file nested too
 * deep is refused before it is parsed, and the parse, the query and the depth questions stop at
 * the deadline (each throws ParseRefused).
 */
export async function parseSource(source: string, spec: LanguageSpec, deadline: Deadline = deadlineIn(PARSE_FILE_MS)): Promise<ParsedFile> {
  checkNesting(source, spec.family === 'python');
  const { query, rootOffset } = await fileQuery(spec);
  const stop = () => deadline.passed();
  const parser = await parserFor(spec.grammar);
  const tree = parser.parse(source, null, { progressCallback: stop });
  if (!tree || deadline.passed()) {
    // A parse stopped part-way resumes on the next call, on the next file's text, unless reset.
    tree?.delete();
    parser.reset();
    checkDeadline(deadline);
    return { defs: [], uses: new Map() };
  }
  try {
    const matches = query.matches(tree.rootNode, { progressCallback: stop });
    checkDeadline(deadline);
    const { definitions, skip } = splitMatches(matches);
    const lines = lineStarts(source);
    const depth = depthWithin(MAX_DEFINITION_DEPTH + Math.max(0, ...rootOffset));
    const shallow = (node: Node, pattern: number, atLeast: number) => {
      if (atLeast - rootOffset[pattern]! > MAX_DEFINITION_DEPTH) return false;
      checkDeadline(deadline);
      return depth(node) - rootOffset[pattern]! <= MAX_DEFINITION_DEPTH;
    };
    return { defs: definitionsIn(definitions, source, lines, shallow), uses: collectIdentifiers(source, skip, spec.keywords, lines) };
  } finally {
    tree.delete();
  }
}

/** Every identifier of the file's code, in order (what find_references matches, headless). */
export async function occurrencesIn(source: string, spec: LanguageSpec): Promise<Occurrence[]> {
  return occurrencesOf(await parseSource(source, spec));
}

/** The identifiers of a parsed file, in order. */
export function occurrencesOf({ uses }: ParsedFile): Occurrence[] {
  const out: { name: string; at: number }[] = [];
  for (const [name, positions] of uses) for (const at of positions) out.push({ name, at });
  out.sort((a, b) => a.at - b.at);
  return out.map(({ name, at }) => ({ name, ...unpackPosition(at) }));
}

/**
 * The query's matches that name definitions, and the ranges of the nodes holding no code as
 * (start, end) pairs in UTF-16 units, in the order a walk meets them (enclosing nodes first).
 */
function splitMatches(matches: readonly QueryMatch[]): { definitions: QueryMatch[]; skip: Int32Array } {
  const definitions: QueryMatch[] = [];
  const nodes: Node[] = [];
  for (const m of matches) {
    const only = m.captures.length === 1 ? m.captures[0]! : undefined;
    if (only?.name === SKIP_CAPTURE) nodes.push(only.node);
    else definitions.push(m);
  }
  const ranges = nodes.map((n) => ({ start: n.startIndex, end: n.endIndex })).sort((a, b) => a.start - b.start || b.end - a.end);
  const skip = new Int32Array(ranges.length * 2);
  ranges.forEach((r, i) => {
    skip[2 * i] = r.start;
    skip[2 * i + 1] = r.end;
  });
  return { definitions, skip };
}

/**
 * A node's depth below the root when it is at most `limit`, else Infinity. It climbs at most
 * `limit + 1` parents and remembers every node it passes (siblings share their parents): asking
 * the tree for a parent costs about the node's depth, so climbing all the way from deep inside a
 * file nested thousands of levels cost the square of its depth.
 */
function depthWithin(limit: number): (node: Node) => number {
  const known = new Map<number, number>();
  return (node: Node): number => {
    const path: Node[] = [];
    // The depth of the node above `path` (-1 above the root); Infinity while unknown.
    let base = Number.POSITIVE_INFINITY;
    for (let n: Node | null = node; n && path.length <= limit; ) {
      const seen = known.get(n.id);
      if (seen !== undefined) {
        base = seen;
        break;
      }
      path.push(n);
      n = n.parent;
      if (!n) base = -1;
    }
    // Climbed past the limit without reaching a known node or the root: only `node` is known to be too deep.
    if (base === Number.POSITIVE_INFINITY) {
      known.set(node.id, base);
      return base;
    }
    for (let k = 0; k < path.length; k++) known.set(path[k]!.id, base + path.length - k);
    return known.get(node.id)!;
  };
}
