// The diff `keel review` reviews: `git diff` of the workspace for a base (`--base REF`: what
// HEAD adds since it left REF), a pull request's range (`A...B`) or the staged changes, and the
// lines of each file a finding may be anchored to — the new side's lines inside the diff's hunks,
// as a pull request's review comments are. Refs are checked before git sees them: no option-like
// or revision-expression text.
import { execFile } from 'node:child_process';
import { InputError } from './args.js';

export type DiffSource = { type: 'base'; ref: string } | { type: 'range'; from: string; to: string } | { type: 'staged' };

export interface ReviewDiff {
  /** The unified diff as git printed it. */
  text: string;
  /** For each changed file (its new path), the new-side line numbers inside its hunks. */
  lines: Map<string, Set<number>>;
}

const REF = /^(?!-)[\w./@^~-]{1,200}$/;

/** `--base REF`, `A...B` or `--staged` as a diff source; a bad ref is a usage error naming it. */
export function diffSource(base: string | undefined, range: string | undefined, staged: boolean): DiffSource {
  const given = [base !== undefined, range !== undefined, staged].filter(Boolean).length;
  if (given !== 1) throw new InputError('Give one of --base REF, a range A...B, or --staged.');
  if (staged) return { type: 'staged' };
  if (base !== undefined) return { type: 'base', ref: checkedRef(base) };
  const [from, to, ...rest] = range!.split('...');
  if (from === undefined || to === undefined || rest.length) throw new InputError(`A range is A...B (got "${range}").`);
  return { type: 'range', from: checkedRef(from), to: checkedRef(to) };
}

function checkedRef(ref: string): string {
  if (!REF.test(ref) || ref.includes('..')) throw new InputError(`"${ref}" is not a branch, tag or commit name.`);
  return ref;
}

export async function readDiff(root: string, source: DiffSource): Promise<ReviewDiff> {
  const what =
    source.type === 'staged' ? ['--cached'] : source.type === 'base' ? [`${source.ref}...HEAD`] : [`${source.from}...${source.to}`];
  const text = await git(root, ['diff', '--no-color', '--no-ext-diff', '--unified=3', ...what, '--']);
  return { text, lines: hunkLines(text) };
}

function git(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, maxBuffer: 32 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new InputError(`git diff failed: ${(stderr || err.message).trim().split('\n')[0]}`));
      else resolve(stdout);
    });
  });
}

/** The new-side lines in each file's hunks (added and context lines). Pure. */
export function hunkLines(diff: string): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  let lines: Set<number> | undefined;
  let next = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ')) {
      const file = line.slice(4).replace(/^b\//, '');
      lines = file === '/dev/null' ? undefined : new Set();
      if (lines) out.set(file, lines);
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      next = Number(hunk[1]);
      continue;
    }
    if (!lines || next === 0) continue;
    if (line.startsWith('+') || line.startsWith(' ')) lines.add(next++);
    else if (line.startsWith('diff --git')) next = 0;
  }
  return out;
}
