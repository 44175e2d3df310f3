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

export async function parseSource(source: string, spec: LanguageSpec): Promise<ParsedFile> {
  const { query, rootOffset } = await fileQuery(spec);
  const tree = (await parserFor(spec.grammar)).parse(source);
  if (!tree) return { defs: [], uses: new Map() };
  try {
    const { definitions, skip } = splitMatches(query.matches(tree.rootNode));
    const lines = lineStarts(source);
    const depth = depthCounter();
    const shallow = (node: Node, pattern: number) => depth(node) - rootOffset[pattern]! <= MAX_DEFINITION_DEPTH;
    return { defs: definitionsIn(definitions, source, lines, shallow), uses: collectIdentifiers(source, skip, spec.keywords, lines) };
  } finally {
    tree.delete();
  }
}

/** Every identifier of the file's code, in order (what find_references matches, headless). */
export async function occurrencesIn(source: string, spec: LanguageSpec): Promise<Occurrence[]> {
  const { uses } = await parseSource(source, spec);
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

/** A node's depth below the root, remembering every node it passes (siblings share their parents). */
function depthCounter(): (node: Node) => number {
  const known = new Map<number, number>();
  const depth = (node: Node): number => {
    const seen = known.get(node.id);
    if (seen !== undefined) return seen;
    const parent = node.parent;
    const d = parent ? depth(parent) + 1 : 0;
    known.set(node.id, d);
    return d;
  };
  return depth;
}
