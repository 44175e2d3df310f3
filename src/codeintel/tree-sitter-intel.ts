// The code-intelligence port on syntax trees alone (the CLI, and VS Code's fallback when no
// language server answers). It knows names, not types: a definition is any definition of the
// name in files of the same language family, a reference any identifier of that name in code
// (never in a string or a comment). Each question refreshes the index first, so an edit made a
// moment ago is seen; unchanged files are not parsed again.
import type {
  CodeIntel,
  CodeIntelAnswer,
  CodeLocation,
  CodeSymbol,
  RepoMap,
  RepoMapRequest,
  SymbolQuery,
  Workspace,
} from '../kernel/index.js';
import { decodeText } from '../tools/text/encoding.js';
import { CodeIndex, type CodeIndexOptions, type IndexedFile } from './code-index.js';
import { type IndexedDef, type Occurrence, occurrencesOf, packPosition, type ParsedFile, parseSource, unpackPosition } from './extract.js';
import { deadlineIn, ParseRefused } from './parse-limits.js';
import { isMemberAccess, isMemberDef } from './members.js';
import { type LanguageSpec, languageOf } from './languages.js';
import { buildRepoMap } from './repo-map.js';
import { GraphCache } from './rank.js';

/** Larger files are not parsed for a question about them (generated or minified code). */
const MAX_PARSE_BYTES = 4 * 1024 * 1024;
/** How long a question may spend parsing the file it is about. */
const ASKED_PARSE_MS = 1000;

const answer = <T>(items: T[]): CodeIntelAnswer<T> => ({ engine: 'tree-sitter', items });

export class TreeSitterIntel implements CodeIntel {
  readonly index: CodeIndex;
  /** The reference graph of the last map, so an update recomputes only what changed. */
  private readonly graphs = new GraphCache();

  constructor(
    private readonly ws: Pick<Workspace, 'root' | 'readFile' | 'stat'>,
    options: CodeIndexOptions = {},
  ) {
    this.index = new CodeIndex(ws, options);
  }

  async findSymbols(query: SymbolQuery, signal: AbortSignal): Promise<CodeIntelAnswer<CodeSymbol>> {
    await this.index.refresh(signal);
    const wanted = query.name.toLowerCase();
    const scored: { rank: number; symbol: CodeSymbol }[] = [];
    for (const file of this.index.files()) {
      for (const d of file.defs) {
        if (!d.defines || (query.kind && d.kind !== query.kind)) continue;
        const name = d.name.toLowerCase();
        const rank = d.name === query.name ? 0 : name === wanted ? 1 : name.startsWith(wanted) ? 2 : name.includes(wanted) ? 3 : -1;
        if (rank >= 0) scored.push({ rank, symbol: toSymbol(file, d) });
      }
    }
    scored.sort((a, b) => a.rank - b.rank || a.symbol.path.localeCompare(b.symbol.path) || a.symbol.line - b.symbol.line);
    return answer(scored.slice(0, query.limit).map((s) => s.symbol));
  }

  async definitions(at: CodeLocation, signal: AbortSignal): Promise<CodeIntelAnswer<CodeLocation>> {
    const found = await this.nameAt(at);
    if ('unsupported' in found) return found.unsupported;
    await this.index.refresh(signal);
    const all: { symbol: CodeSymbol; member: boolean }[] = [];
    for (const file of this.index.files()) {
      if (file.spec.family !== found.spec.family) continue;
      for (const d of file.defs)
        if (d.defines && d.name === found.name) all.push({ symbol: toSymbol(file, d), member: isMemberDef(file.defs, d) });
    }
    // A member use (`x.area`) means a member; a free-standing one a free-standing definition, when there is one.
    const sameSort = all.filter((d) => d.member === found.member);
    const out = (sameSort.length > 0 ? sameSort : all).map((d) => d.symbol);
    // The file asked about first: a name is most often defined where it is used.
    out.sort((a, b) => Number(b.path === at.path) - Number(a.path === at.path) || a.path.localeCompare(b.path) || a.line - b.line);
    return answer(out);
  }

  async references(at: CodeLocation, signal: AbortSignal): Promise<CodeIntelAnswer<CodeLocation>> {
    const found = await this.nameAt(at);
    if ('unsupported' in found) return found.unsupported;
    await this.index.refresh(signal);
    const files = [...this.index.files()].filter((f) => f.spec.family === found.spec.family && f.uses.has(found.name));
    files.sort((a, b) => a.path.localeCompare(b.path));
    const out: CodeLocation[] = [];
    for (const file of files) {
      // Definitions of a same-named symbol of the other sort (member or not) are not uses of this one.
      const others = new Set(
        file.defs
          .filter((d) => d.name === found.name && isMemberDef(file.defs, d) !== found.member)
          .map((d) => packPosition(d.line, d.column)),
      );
      for (const at of file.uses.get(found.name)!) if (!others.has(at)) out.push({ path: file.path, ...unpackPosition(at) });
    }
    return answer(out);
  }

  async outline(path: string, _signal?: AbortSignal): Promise<CodeIntelAnswer<CodeSymbol>> {
    const spec = languageOf(path);
    const text = spec && (await this.read(path));
    if (!spec || text === undefined) return { ...answer([]), unsupported: { path } };
    const parsed = await parseAsked(text, spec, path);
    if ('refused' in parsed) return parsed.refused;
    return answer(nest({ path, spec }, parsed.defs));
  }

  /** No types without a compiler: the definitions' own first lines, which often carry them. */
  async hover(at: CodeLocation, signal: AbortSignal): Promise<CodeIntelAnswer<string>> {
    const defs = await this.definitions(at, signal);
    if (defs.unsupported) return { ...answer([]), unsupported: defs.unsupported };
    const lines = (defs.items as CodeSymbol[]).map(
      (d) => `${d.kind} ${d.name} — ${d.path}:${d.line}\n${signatureOf(this.index.file(d.path), d)}`,
    );
    return answer(lines);
  }

  async repoMap(request: RepoMapRequest, signal: AbortSignal): Promise<RepoMap | undefined> {
    await this.index.refresh(signal);
    if (this.index.size === 0) return undefined;
    return buildRepoMap([...this.index.files()], request, this.graphs, this.index.skipped());
  }

  /** The identifier at a position, read from the file as it is now. */
  private async nameAt(
    at: CodeLocation,
  ): Promise<{ name: string; spec: LanguageSpec; member: boolean } | { unsupported: CodeIntelAnswer<never> }> {
    const spec = languageOf(at.path);
    const text = spec && (await this.read(at.path));
    if (!spec || text === undefined) return { unsupported: { ...answer([]), unsupported: { path: at.path } } };
    const parsed = await parseAsked(text, spec, at.path);
    if ('refused' in parsed) return { unsupported: parsed.refused };
    const hit = occurrencesOf(parsed).find((o) => covers(o, at));
    if (!hit) return { unsupported: answer([]) };
    const { defs } = parsed;
    const def = defs.find((d) => d.line === hit.line && d.column === hit.column);
    const member = def ? isMemberDef(defs, def) : isMemberAccess(text.split('\n')[hit.line - 1] ?? '', hit.column);
    return { name: hit.name, spec, member };
  }

  /** A file's text as it is now; undefined when unreadable or too large to parse on demand. */
  private async read(path: string): Promise<string | undefined> {
    try {
      if (((await this.ws.stat(path))?.size ?? 0) > MAX_PARSE_BYTES) return undefined;
      return decodeText(await this.ws.readFile(path)).text;
    } catch {
      return undefined;
    }
  }
}

/**
 * A file parsed for a question about it, on this thread: within a second, or the answer says
 * why not (parse-limits.ts), so a hostile file cannot hold the host up.
 */
async function parseAsked(text: string, spec: LanguageSpec, path: string): Promise<ParsedFile | { refused: CodeIntelAnswer<never> }> {
  try {
    return await parseSource(text, spec, deadlineIn(ASKED_PARSE_MS));
  } catch (err) {
    if (err instanceof ParseRefused) return { refused: { ...answer([]), unsupported: { path, reason: err.message } } };
    throw err;
  }
}

function covers(o: Occurrence, at: CodeLocation): boolean {
  return o.line === at.line && at.column >= o.column && at.column <= o.column + o.name.length;
}

function toSymbol(
  file: Pick<IndexedFile, 'path'> & { defs?: IndexedDef[] },
  d: IndexedDef,
  defs: IndexedDef[] = file.defs ?? [],
): CodeSymbol {
  const container = d.container ?? (d.parent >= 0 ? defs[d.parent]?.name : undefined);
  return {
    path: file.path,
    line: d.line,
    column: d.column,
    name: d.name,
    kind: d.kind,
    endLine: d.endLine,
    ...(container ? { container } : {}),
  };
}

/** A file's flat definitions as an outline tree (a Rust impl block shown as `impl Type`). */
function nest(file: { path: string; spec: LanguageSpec }, defs: IndexedDef[]): CodeSymbol[] {
  const symbols = defs.map((d) => {
    const s = toSymbol({ path: file.path }, d, defs);
    return d.defines ? s : { ...s, name: `impl ${d.name}` };
  });
  const roots: CodeSymbol[] = [];
  defs.forEach((d, i) => {
    const parent = d.parent >= 0 ? symbols[d.parent] : undefined;
    if (parent) (parent.children ??= []).push(symbols[i]!);
    else roots.push(symbols[i]!);
  });
  return roots;
}

function signatureOf(file: IndexedFile | undefined, at: CodeSymbol): string {
  const def = file?.defs.find((d) => d.line === at.line && d.column === at.column);
  return def?.signature ?? '';
}
