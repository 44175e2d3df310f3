// The code-intelligence port: symbols, definitions, references, outlines and hover text, asked
// of whatever the host has — VS Code's language servers, or a syntax-tree index headless. The
// tools (src/tools/code) are written once against it, so both hosts give the model one contract.
// Positions are 1-based lines and columns (columns count UTF-16 code units, as editors do);
// paths are workspace-relative POSIX paths.

/** Every kind a symbol may have, as data: a tool's schema and the index cache's checks read it. */
export const CODE_SYMBOL_KINDS = [
  'class',
  'interface',
  'enum',
  'type',
  'function',
  'method',
  'constructor',
  'property',
  'field',
  'variable',
  'constant',
  'module',
  'other',
] as const;

export type CodeSymbolKind = (typeof CODE_SYMBOL_KINDS)[number];

export interface CodeLocation {
  path: string;
  line: number;
  column: number;
}

export interface CodeSymbol extends CodeLocation {
  name: string;
  kind: CodeSymbolKind;
  /** The last line of the symbol's body (its range), when known. */
  endLine?: number;
  /** The enclosing symbol's name (a method's class), when known. */
  container?: string;
  /** Nested symbols (document outlines only). */
  children?: CodeSymbol[];
}

/** Which engine answered: a language server in the editor, or Keel's syntax trees. */
type CodeIntelEngine = 'language-server' | 'tree-sitter';

/**
 * Why the syntax trees answered in the editor: no language server gave an answer for this
 * file's language (none installed, none started yet, or it found nothing), or it failed.
 */
type CodeIntelFallback = 'no_language_server' | 'language_server_failed';

export interface CodeIntelAnswer<T> {
  engine: CodeIntelEngine;
  items: T[];
  fallback?: CodeIntelFallback;
  /**
   * Set when the file's language has no grammar or server at all, or its parse was given up
   * (`reason`, for the model: "nested more than 256 levels deep"): nothing could be asked.
   */
  unsupported?: { path: string; reason?: string };
}

export interface SymbolQuery {
  /** A name or the start of one (case-insensitive); exact matches rank first. */
  name: string;
  kind?: CodeSymbolKind;
  /** At most this many. */
  limit: number;
}

/** A token budgeted map of the workspace's most relevant files and their top-level symbols. */
export interface RepoMap {
  text: string;
  /** Files shown in the map, of `totalFiles` indexed. */
  files: number;
  totalFiles: number;
  /** Not ready within the wait the host allows (no text yet): asked again at the next turn. */
  pending?: boolean;
}

export interface RepoMapRequest {
  /** Workspace paths the task names or has touched, and files open in the editor: ranked first. */
  focusPaths: readonly string[];
  /** The task's own words: identifiers named there rank the files defining them higher. */
  focusText: string;
  budgetTokens: number;
}

export interface CodeIntel {
  findSymbols(query: SymbolQuery, signal: AbortSignal): Promise<CodeIntelAnswer<CodeSymbol>>;
  definitions(at: CodeLocation, signal: AbortSignal): Promise<CodeIntelAnswer<CodeLocation>>;
  /** Every use of the symbol at `at`, its declaration included. */
  references(at: CodeLocation, signal: AbortSignal): Promise<CodeIntelAnswer<CodeLocation>>;
  outline(path: string, signal: AbortSignal): Promise<CodeIntelAnswer<CodeSymbol>>;
  /** Hover text (type, signature, documentation) as markdown/plain text paragraphs. */
  hover(at: CodeLocation, signal: AbortSignal): Promise<CodeIntelAnswer<string>>;
  /** The repo map; undefined when there is nothing to map (no source file the index reads). */
  repoMap?(request: RepoMapRequest, signal: AbortSignal): Promise<RepoMap | undefined>;
}
