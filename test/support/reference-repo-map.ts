// The repo map built the plain way, as the yardstick for the optimised build: every source file
// read and extracted by the reference extraction (reference-extract.ts), ranked by the same
// ranking, and every file's block rendered before asking whether it fits.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IndexedFile } from '../../src/codeintel/code-index.js';
import { languageOf } from '../../src/codeintel/languages.js';
import { isLiteralKey } from '../../src/codeintel/members.js';
import { rankFiles } from '../../src/codeintel/rank.js';
import type { RepoMapRequest } from '../../src/kernel/index.js';
import { referenceParse } from './reference-extract.js';

/** The reference index of these workspace files (paths relative to `root`). */
export async function referenceIndex(root: string, paths: readonly string[]): Promise<IndexedFile[]> {
  const out: IndexedFile[] = [];
  for (const p of paths) {
    const spec = languageOf(p)!;
    out.push({ path: p, spec, size: 0, mtimeMs: 0, hash: '', ...(await referenceParse(readFileSync(path.join(root, p), 'utf8'), spec)) });
  }
  return out;
}

/** The map's file blocks, best first, as the plain build renders them. */
export function referenceMapBlocks(files: readonly IndexedFile[], request: RepoMapRequest): string[] {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const words = new Set(request.focusText.split(/[^\p{L}\p{N}_$]+/u).filter((w) => w.length >= 3));
  const scores = rankFiles(sorted, { paths: new Set(request.focusPaths), names: words });
  const order = sorted.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b);
  const blocks: string[] = [];
  let used = 60;
  for (const i of order) {
    const block = render(sorted[i]!);
    const cost = Math.ceil(block.length / 4) + 1;
    if (used + cost <= request.budgetTokens) {
      blocks.push(block);
      used += cost;
    } else if (request.budgetTokens - used < 40) break;
  }
  return blocks;
}

function render(file: IndexedFile): string {
  const lines = [file.path];
  file.defs.forEach((d, i) => {
    if (d.parent >= 0 || isLiteralKey(file.spec, d)) return;
    lines.push(`  ${d.line} ${d.signature}`);
    const members = file.defs.filter((m) => m.parent === i).map((m) => m.name);
    if (members.length > 8) lines.push(`    members: ${members.slice(0, 8).join(', ')}, … (${members.length - 8} more)`);
    else if (members.length > 0) lines.push(`    members: ${members.join(', ')}`);
  });
  return lines.join('\n');
}
