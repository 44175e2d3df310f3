// The repo map: the workspace's most relevant source files, best first, each with the first
// line of its top-level definitions (and its members' names), cut to a token budget. What the
// model reads instead of listing a large workspace. Ranked by the reference graph and the task's
// focus (rank.ts); keys of object literals and object types are left out (members.ts). Rendered
// the same for the same index, so it is byte-stable between folds.
import { estimateTokens, type RepoMap, type RepoMapRequest, tokensForChars } from '../kernel/index.js';
import type { IndexedFile } from './code-index.js';
import type { IndexedDef } from './extract.js';
import { isLiteralKey } from './members.js';
import type { SkipReason } from './parse-limits.js';
import { type GraphCache, rankFiles } from './rank.js';

/** Member names shown per definition, at most. */
const MEMBERS_SHOWN = 8;
const HEADER_TOKENS = 60;

/** Files given up named in the map's header, at most (the count is always given). */
const GIVEN_UP_NAMED = 3;

export function buildRepoMap(
  files: readonly IndexedFile[],
  request: RepoMapRequest,
  graphs?: GraphCache,
  givenUp: ReadonlyMap<string, SkipReason> = new Map(),
): RepoMap | undefined {
  if (files.length === 0 || request.budgetTokens <= HEADER_TOKENS) return undefined;
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const scores = rankFiles(sorted, { paths: new Set(request.focusPaths), names: wordsOf(request.focusText) }, graphs);
  const order = sorted.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b);
  const blocks: string[] = [];
  let used = HEADER_TOKENS;
  for (const i of order) {
    // A block costs at least its path and its definitions' first lines: one that cannot fit is
    // never rendered (once the budget is nearly spent, most files are passed over this way).
    if (tokensForChars(leastLength(sorted[i]!)) + 1 > request.budgetTokens - used) {
      if (request.budgetTokens - used < 40) break;
      continue;
    }
    const block = renderFile(sorted[i]!);
    const cost = estimateTokens(block) + 1;
    if (used + cost > request.budgetTokens) {
      // A long file may not fit where a short one still does; stop once little room is left.
      if (request.budgetTokens - used < 40) break;
      continue;
    }
    blocks.push(block);
    used += cost;
  }
  if (blocks.length === 0) return undefined;
  const header =
    `Repo map: ${blocks.length} of the ${files.length} source files Keel's syntax index reads, most relevant first ` +
    '(ranked by how the code refers to them and by this task); each line is a definition: its line number, then its first line.' +
    givenUpNote(givenUp);
  return { text: `${header}\n${blocks.join('\n')}`, files: blocks.length, totalFiles: files.length };
}

/** What the map leaves out because parsing was given up (parse-limits.ts), so the model knows to read those files itself. */
function givenUpNote(givenUp: ReadonlyMap<string, SkipReason>): string {
  if (givenUp.size === 0) return '';
  const paths = [...givenUp.keys()].sort();
  const named = paths
    .slice(0, GIVEN_UP_NAMED)
    .map((p) => `${p} (${givenUp.get(p) === 'nesting' ? 'nested too deeply' : 'too slow to parse'})`);
  const more = paths.length > GIVEN_UP_NAMED ? `, and ${paths.length - GIVEN_UP_NAMED} more` : '';
  const files = givenUp.size === 1 ? '1 file' : `${givenUp.size} files`;
  return ` Not in the map: ${files} the index gave up on: ${named.join(', ')}${more}.`;
}

/** A lower bound of a file's block length: its path, and per top-level definition its first line and indentation. */
function leastLength(file: IndexedFile): number {
  let n = file.path.length;
  for (const d of file.defs) if (d.parent < 0 && !isLiteralKey(file.spec, d)) n += 4 + d.signature.length;
  return n;
}

function renderFile(file: IndexedFile): string {
  const lines = [file.path];
  const members = new Map<number, IndexedDef[]>();
  for (const d of file.defs) {
    if (d.parent < 0) continue;
    const list = members.get(d.parent);
    if (list) list.push(d);
    else members.set(d.parent, [d]);
  }
  file.defs.forEach((d, i) => {
    // A literal's keys say what a value holds, not where code is: the map's lines go to definitions.
    if (d.parent >= 0 || isLiteralKey(file.spec, d)) return;
    lines.push(`  ${d.line} ${d.signature}`);
    const inner = members.get(i);
    if (inner?.length) lines.push(`    ${memberLine(inner)}`);
  });
  return lines.join('\n');
}

function memberLine(members: IndexedDef[]): string {
  const names = members.map((m) => m.name);
  const shown = names.slice(0, MEMBERS_SHOWN).join(', ');
  return names.length > MEMBERS_SHOWN ? `members: ${shown}, … (${names.length - MEMBERS_SHOWN} more)` : `members: ${shown}`;
}

/** Words of the task that could name code: three characters or more. */
function wordsOf(text: string): Set<string> {
  return new Set(text.split(/[^\p{L}\p{N}_$]+/u).filter((w) => w.length >= 3));
}
