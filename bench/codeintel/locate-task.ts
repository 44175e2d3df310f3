// The scripted task behind tokensToLocateRatio: find a function's definition and every call of
// it, two ways, and count the tokens each way reads and writes (call inputs + results, the
// kernel's one estimate). Each way is checked against the generator's truth (where it wrote the
// definition and the calls), never against the other way or Keel's own answer: a way that
// misses a call fails the task instead of scoring well.
//
// - symbol tools: find_symbol (kind function) for the definition, then find_references from it,
//   following the cursor to the end;
// - baseline: search_files for the name as a word (split by folder when the answer is capped,
//   as an agent narrows a search), then read_file of the file whose line defines it.
import { estimateTokens, type ToolContext, type ToolResult } from '../../src/kernel/index.js';
import { findReferencesTool } from '../../src/tools/code/find-references.js';
import { findSymbolTool } from '../../src/tools/code/find-symbol.js';
import { listFilesTool } from '../../src/tools/list-files.js';
import { readFileTool } from '../../src/tools/read-file.js';
import { searchFilesTool } from '../../src/tools/search-files.js';
import type { GeneratedRepo } from './generate-repo.js';

export interface LocateOutcome {
  tokens: number;
  calls: number;
  /** Every true call found, and the definition. */
  complete: boolean;
  /** Lines reported as uses that are no use (comments, strings, another symbol's definition). */
  noise: number;
}

type Name = keyof GeneratedRepo['truth'];

class Counter {
  tokens = 0;
  calls = 0;
  async call(tool: { execute(input: never, ctx: ToolContext): Promise<ToolResult> }, input: object, ctx: ToolContext): Promise<ToolResult> {
    const result = await tool.execute(input as never, ctx);
    this.tokens += estimateTokens(JSON.stringify(input)) + estimateTokens(result.content);
    this.calls++;
    return result;
  }
}

const LOCATION = /^(?:.* — )?([\w./-]+):(\d+):\d+/gm;

export async function withSymbolTools(ctx: ToolContext, repo: GeneratedRepo, name: Name): Promise<LocateOutcome> {
  const c = new Counter();
  const found = await c.call(findSymbolTool, { query: name, kind: 'function' }, ctx);
  const [def] = [...found.content.matchAll(LOCATION)].map((m) => ({ path: m[1]!, line: Number(m[2]) }));
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await c.call(
      findReferencesTool,
      { symbol: name, ...(def ? { path: def.path, line: def.line } : {}), ...(cursor ? { cursor } : {}) },
      ctx,
    );
    for (const m of page.content.matchAll(LOCATION)) seen.add(`${m[1]}:${m[2]}`);
    cursor = /cursor "(\d+)"/.exec(page.content)?.[1];
  } while (cursor);
  return score(c, repo, name, def, seen);
}

export async function withSearch(ctx: ToolContext, repo: GeneratedRepo, name: Name): Promise<LocateOutcome> {
  const c = new Counter();
  const query = `\\b${name}\\b`;
  const lines = new Map<string, string>();
  const collect = (r: ToolResult) => {
    let file = '';
    for (const row of r.content.split('\n')) {
      const hit = /^ {2}(\d+): (.*)$/.exec(row);
      if (hit) lines.set(`${file}:${hit[1]}`, hit[2]!);
      else if (/^[\w./-]+$/.test(row)) file = row;
    }
  };
  const first = await c.call(searchFilesTool, { query }, ctx);
  collect(first);
  if (/More than \d+ matches/.test(first.content)) {
    const listing = await c.call(listFilesTool, { path: 'src' }, ctx);
    for (const folder of listing.content.split('\n').filter((l) => /^src\/[\w.-]+\/$/.test(l.trim()))) {
      collect(await c.call(searchFilesTool, { query, path: folder.trim() }, ctx));
    }
  }
  // The definition as a reader would spot it, then its file read to see it whole.
  const defLine = [...lines].find(([, text]) => new RegExp(`\\bfunction ${name}\\b`).test(text));
  const def = defLine ? { path: defLine[0].slice(0, defLine[0].lastIndexOf(':')), line: Number(defLine[0].split(':').pop()) } : undefined;
  if (def) await c.call(readFileTool, { path: def.path }, ctx);
  return score(c, repo, name, def, new Set(lines.keys()));
}

function score(
  c: Counter,
  repo: GeneratedRepo,
  name: Name,
  def: { path: string; line: number } | undefined,
  seen: Set<string>,
): LocateOutcome {
  const truth = repo.truth[name];
  const calls = [...truth.callers].flatMap(([path, lines]) => lines.map((l) => `${path}:${l}`));
  const defined = def?.path === truth.definition.path && def.line === truth.definition.line;
  const complete = defined && calls.every((k) => seen.has(k));
  // Anything reported that is neither the definition, a call, nor an import line of a caller.
  const real = new Set([...calls, `${truth.definition.path}:${truth.definition.line}`]);
  const noise = [...seen].filter((k) => !real.has(k) && !truth.imports.has(k)).length;
  return { tokens: c.tokens, calls: c.calls, complete, noise };
}
