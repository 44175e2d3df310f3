// The one query each file is asked, compiled once per grammar: the language's definition
// patterns (languages.ts) followed by one pattern per node type that holds no code, captured as
// `@skip`. One walk of the tree answers both; walking a tree twice (a definitions query, then a
// listing of comments and strings) cost about as much again as the definitions alone.
//
// A definition counts only when its pattern starts at most MAX_DEFINITION_DEPTH levels below the
// root: definitions sit near the top of the tree, and deeper ones are inside function bodies or
// type expressions. The walk now goes all the way down (strings deep in a function are still not
// code), so the depth is checked for the matches that would be kept (definitions.ts) instead of
// by the query cursor; `rootOffset` says how far above its definition node a pattern starts.
import { Query } from '@vscode/tree-sitter-wasm';
import { parserFor } from './grammars.js';
import type { GrammarName, LanguageSpec } from './languages.js';

/** How deep in the tree a definition's pattern may start (a method in a class in a namespace is about 8). */
export const MAX_DEFINITION_DEPTH = 12;

/** The capture naming a node whose text is not code. */
export const SKIP_CAPTURE = 'skip';

export interface FileQuery {
  query: Query;
  /** Per definition pattern: how many levels above the captured definition node the pattern starts. */
  rootOffset: readonly number[];
}

const compiled = new Map<GrammarName, Promise<FileQuery>>();

/**
 * The grammar's query. Definition patterns come first and keep their order (the first one listed
 * wins a name). A pattern naming a node type this grammar lacks (JavaScript has no interfaces) is
 * left out. A non-code type is matched both as a named node and as a token of that name
 * (TypeScript's `string` is a string literal and the type keyword), as listing by type does.
 */
export function fileQuery(spec: LanguageSpec): Promise<FileQuery> {
  let query = compiled.get(spec.grammar);
  if (!query) {
    query = parserFor(spec.grammar).then((parser) => {
      const language = parser.language!;
      const named = (type: string) => language.idForNodeType(type, true) !== null;
      const definitions = spec.definitions.filter((pattern) => nodeTypesOf(pattern).every(named));
      const skips = spec.nonCode.flatMap((type) => [
        ...(named(type) ? [`(${type}) @${SKIP_CAPTURE}`] : []),
        ...(language.idForNodeType(type, false) !== null ? [`"${type}" @${SKIP_CAPTURE}`] : []),
      ]);
      return { query: new Query(language, [...definitions, ...skips].join('\n')), rootOffset: definitions.map(rootOffsetOf) };
    });
    compiled.set(spec.grammar, query);
  }
  return query;
}

/** The named node types a query pattern mentions (`(name` but not the wildcard `(_`). */
function nodeTypesOf(pattern: string): string[] {
  return [...pattern.matchAll(/\((\w+)/g)].map((m) => m[1]!).filter((t) => t !== '_');
}

/**
 * How deep inside the pattern its definition capture (`@def.…`, `@group`, `@scope`) sits: the
 * number of parentheses open where it is written (0 when it names the pattern's outermost node).
 */
function rootOffsetOf(pattern: string): number {
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '"') i = pattern.indexOf('"', i + 1);
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === '@' && /^@(def\.|group|scope)/.test(pattern.slice(i))) return depth;
  }
  return 0;
}
