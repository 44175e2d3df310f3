// git, read-only: no global options but `-C DIR`, `--no-pager` and `--no-optional-locks` (-c,
// --exec-path, --git-dir, --work-tree, --namespace, -p/--paginate and the rest change what git
// runs or where it writes); only the subcommands below, each with its listed flags. Unlisted on
// purpose: --output, --ext-diff, --textconv, --show-signature and signature placeholders (%G…)
// in formats (they run gpg), -O (a pager), --no-index, --untracked, describe --dirty (writes
// the index), --exclude-per-directory (a file name read in every folder, `../` included).
// `-U`/`--unified` take their value attached only, as git's own parser does. `git config` only
// reads, and only the repository's own file (--local).
import { type CommandPath, type Judgement, judgement, own, readPath } from './command-class.js';
import {
  fixedOperands,
  GNU,
  literalPath,
  NotReadOnly,
  notReadOnly,
  options,
  type OptionTable,
  type ParsedArgs,
  parseArgs,
  pathOperands,
  wordPath,
  wordText,
} from './program-args.js';
import { escapePattern, hasGlob, staticValue, type Word } from './shell-word.js';

type SubcommandJudge = (args: readonly Word[]) => CommandPath[];

const DIFF = `
  -p -u --patch, -s --no-patch, -U --unified =?, --raw, --patch-with-raw, --patch-with-stat, -z, --numstat,
  --shortstat, --stat =?, --compact-summary, --dirstat =?, --summary, --name-only, --name-status,
  --submodule =?, --color =?, --no-color, --word-diff =?, --word-diff-regex =text, --color-words =?,
  --color-moved =?, --no-color-moved, --no-renames, -M --find-renames =?, -C --find-copies =?,
  --find-copies-harder, -D --irreversible-delete, -l =num, --diff-filter =text, -S =text, -G =text,
  --pickaxe-all, --pickaxe-regex, -R, --relative =?, -a --text, --ignore-cr-at-eol, --ignore-space-at-eol,
  -b --ignore-space-change, -w --ignore-all-space, --ignore-blank-lines, -W --function-context, --minimal,
  --patience, --histogram, --diff-algorithm =text, --anchored =text, --indent-heuristic, --no-indent-heuristic,
  --abbrev =?, --full-index, --binary, --src-prefix =text, --dst-prefix =text, --no-prefix,
  --inter-hunk-context =num, --exit-code, --quiet, --no-ext-diff, --no-textconv, --ignore-submodules =?,
  --check, --stat-width =num, --stat-name-width =num, --stat-count =num, --cached --staged, --merge-base
`;

/** Revision traversal (setup_revisions): what log, rev-list and shortlog all take. */
const REVS = `
  -n --max-count =num, --skip =num, --since --after =text, --until --before =text, --author =text,
  --committer =text, --grep =text, --all-match, --invert-grep, -i --regexp-ignore-case, -E --extended-regexp,
  -F --fixed-strings, --all, --branches =?, --tags =?, --remotes =?, --glob =text, --exclude =text, --graph,
  --oneline, --format =text, --pretty =?, --abbrev-commit, --no-abbrev-commit,
  --first-parent, --merges, --no-merges, --min-parents =num, --max-parents =num, --reverse, --date =text,
  --relative-date, --topo-order, --date-order, --author-date-order, --left-right, --cherry-pick,
  --cherry-mark, --cherry, --boundary, --ancestry-path, --simplify-by-decoration, --full-history, --parents,
  --children, --left-only, --right-only, -g --walk-reflogs, --encoding =text, --expand-tabs =?, --no-expand-tabs,
  -m, --diff-merges =text, --no-diff-merges, --count, --no-walk =?
`;

/** What only git log (and show, whatchanged) takes besides. */
const LOG = `${REVS},
  --decorate =?, --no-decorate, --follow, --source, --use-mailmap --mailmap, --no-mailmap, --notes =?, --no-notes, -c, --cc
`;

/** Revisions and paths alike may name files; `REV:path` names one in the repository. */
function gitOperands(words: readonly Word[]): CommandPath[] {
  const paths = pathOperands(words);
  for (const w of words) {
    const text = hasGlob(w) ? undefined : staticValue(w);
    const colon = text?.indexOf(':') ?? -1;
    if (text && colon >= 0 && colon < text.length - 1) paths.push(literalPath(text.slice(colon + 1)));
  }
  return paths;
}

/** `%G?`, `%GS`, `%GK`… ask git to verify signatures, which runs gpg. */
function checkFormats(a: ParsedArgs): void {
  for (const o of a.options) {
    if ((o.name === '--format' || o.name === '--pretty') && o.value?.includes('%G'))
      notReadOnly('a signature placeholder (%G…) in the format runs gpg');
  }
}

/** Each subcommand's options by name (`stash list`), for checking against git's own documentation. */
export const GIT_OPTIONS = new Map<string, OptionTable>();

function judged(
  defs: string,
  operands: (a: ParsedArgs) => CommandPath[] = (a) => gitOperands(a.operands),
): SubcommandJudge & { table: OptionTable } {
  const table: OptionTable = options(defs);
  const judge: SubcommandJudge = (args) => {
    const a = parseArgs(args, table, { ...GNU, numeric: true });
    checkFormats(a);
    return [...a.paths, ...operands(a)];
  };
  return Object.assign(judge, { table });
}

const noOperands = (a: ParsedArgs): CommandPath[] => {
  if (a.operands.length) notReadOnly('it takes no operands here');
  return [];
};

/** `git grep PATTERN [REV…] [-- PATH…]`: the pattern names no file. */
const grepOperands = (a: ParsedArgs): CommandPath[] => {
  const patternGiven = a.has('-e') || a.has('-f');
  if (!patternGiven) fixedOperands(a.operands.slice(0, 1));
  return gitOperands(patternGiven ? a.operands : a.operands.slice(1));
};

/** Listing forms only: without --list, a name operand creates a branch or tag. */
const listOperands =
  (...listFlags: string[]) =>
  (a: ParsedArgs): CommandPath[] => {
    if (a.operands.length && !listFlags.some((f) => a.has(f))) notReadOnly('a name without --list creates it');
    fixedOperands(a.operands);
    return [];
  };

const CONFIG = options(`
  --local, --get, --get-all, --get-regexp, -l --list, --show-origin, --show-scope, --name-only, -z --null,
  --type =text, --bool, --int, --bool-or-int, --path, --default =text, --includes, --no-includes
`);

/** Reads of the repository's own config only: other scopes live outside the workspace. */
function config(args: readonly Word[]): CommandPath[] {
  const a = parseArgs(args, CONFIG);
  const modes = ['--get', '--get-all', '--get-regexp', '-l'].filter((m) => a.has(m));
  if (modes.length !== 1) notReadOnly('git config changes settings unless it is given one of --get, --get-all, --get-regexp, --list');
  if (!a.has('--local')) notReadOnly('git config reads settings outside the workspace without --local');
  const names = fixedOperands(a.operands);
  if (modes[0] === '-l' ? names.length > 0 : names.length === 0 || names.length > 2) notReadOnly('git config with unexpected operands');
  return [];
}

const REMOTE_VERBOSE = options('-v --verbose');
const GET_URL = options('--push', '--all');

function remote(args: readonly Word[]): CommandPath[] {
  if (args[0] && staticValue(args[0]) === 'get-url') {
    fixedOperands(parseArgs(args.slice(1), GET_URL).operands);
    return [];
  }
  if (parseArgs(args, REMOTE_VERBOSE).operands.length) notReadOnly('git remote with a subcommand changes or contacts remotes');
  return [];
}

/** `git stash list` / `git stash show`, `git reflog [show]`, `git worktree list`: the reading subcommands. */
function nested(readers: Record<string, SubcommandJudge>, bare?: SubcommandJudge): SubcommandJudge {
  return (args) => {
    const sub = args[0] ? staticValue(args[0]) : undefined;
    if (sub === undefined && args.length === 0 && bare) return bare([]);
    const reader = sub === undefined ? undefined : own(readers, sub);
    if (reader) return reader(args.slice(1));
    if (bare && sub?.startsWith('-')) return bare(args);
    return notReadOnly(`it is not one of ${Object.keys(readers).join(', ')}`);
  };
}

const log = judged(`${LOG},${DIFF}`);

const SUBCOMMANDS: Record<string, SubcommandJudge & { table?: OptionTable }> = {
  status: judged(`
  -s --short, -b --branch, --porcelain =?, --long, -v --verbose, -u --untracked-files =?, --ignored =?,
  --ignore-submodules =?, -z, --no-column, --ahead-behind, --no-ahead-behind, --renames, --no-renames,
  --find-renames =?, --show-stash
`),
  diff: judged(DIFF),
  log,
  show: log,
  whatchanged: log,
  // shortlog's own -c/--committer is a flag and its --format takes its value attached only.
  shortlog: judged(`${REVS}, -c --committer, -n --numbered, -s --summary, -e --email, -w =?, --group =text, --format =?`),
  'rev-list': judged(`${REVS}, --objects, --timestamp, --header, --disk-usage`),
  'rev-parse': judged(`
  --abbrev-ref =?, --short =?, --verify, -q --quiet, --show-toplevel, --show-prefix, --show-cdup, --git-dir,
  --git-common-dir, --absolute-git-dir, --is-inside-work-tree, --is-inside-git-dir, --is-bare-repository,
  --is-shallow-repository, --symbolic, --symbolic-full-name, --all, --branches =?, --tags =?, --remotes =?,
  --show-object-format =?
`),
  'ls-files': judged(`
  -c --cached, -d --deleted, -m --modified, -o --others, -i --ignored, -s --stage, -u --unmerged, -k --killed,
  -z, -t, -v, -f, --directory, --no-empty-directory, --eol, --exclude-standard, -x --exclude =text,
  -X --exclude-from =path, --error-unmatch, --full-name, --abbrev =?,
  --deduplicate, --format =text
`),
  'ls-tree': judged(`
  -d, -r, -t, -l --long, -z, --name-only --name-status, --object-only, --full-name, --full-tree, --abbrev =?,
  --format =text
`),
  blame: judged(`
  -b, --root, --show-stats, -L =text, -l, -t, --first-parent, -p --porcelain, --line-porcelain, --incremental,
  --encoding =text, --date =text, --no-progress, -M =?, -C =?, --ignore-rev =text, --abbrev =?, -c, -s,
  -e --show-email, -w, -f --show-name, -n --show-number, --color-lines, --color-by-age
`),
  grep: judged(
    `
  -a --text, --no-textconv, -i --ignore-case, -I, --max-depth =num, -r --recursive, --no-recursive,
  -w --word-regexp, -v --invert-match, -h, -H, --full-name, -E --extended-regexp, -G --basic-regexp,
  -F --fixed-strings, -P --perl-regexp, -n --line-number, --column, -l --files-with-matches --name-only,
  -L --files-without-match, -z --null, -o --only-matching, -c --count, --color =?, --no-color, --break,
  --heading, -p --show-function, -A --after-context =num, -B --before-context =num, -C --context =num,
  -W --function-context, -m --max-count =num, --threads =num, -f =path, -e =text, --and, --or, --not,
  -q --quiet, --all-match, --cached
`,
    grepOperands,
  ),
  describe: judged(`
  --all, --tags, --contains, --abbrev =?, --candidates =num, --exact-match, --long, --match =text,
  --exclude =text, --always, --first-parent
`),
  'cat-file': judged('-t, -s, -p, -e, --batch =?, --batch-check =?, --batch-all-objects, --buffer, --unordered'),
  'merge-base': judged('-a --all, --octopus, --independent, --is-ancestor, --fork-point'),
  'show-ref': judged(`
  --head, --heads, --tags, -d --dereference, -s --hash =?, --verify, --abbrev =?, -q --quiet
`),
  'check-ignore': judged('-q --quiet, -v --verbose, -n --non-matching, --no-index, -z'),
  'count-objects': judged('-v --verbose, -H --human-readable', noOperands),
  version: judged('--build-options', noOperands),
  branch: judged(
    `
  -a --all, -r --remotes, -v --verbose, -l --list, --show-current, --no-color, --color =?, --sort =text,
  --no-column, -i --ignore-case, --abbrev =?, --no-abbrev, --points-at =text
`,
    listOperands('-l'),
  ),
  tag: judged(
    `
  -l --list, -n =?, --sort =text, --points-at =text, -i --ignore-case, --no-column, --color =?
`,
    listOperands('-l', '-n'),
  ),
  remote,
  config,
  stash: nested({ list: log, show: judged(DIFF) }),
  reflog: nested({ show: log, exists: judged('') }, log),
  worktree: nested({
    list: judged('--porcelain, -v --verbose, -z', noOperands),
  }),
};

for (const [name, judge] of Object.entries(SUBCOMMANDS)) if (judge.table) GIT_OPTIONS.set(name, judge.table);

/** Subcommands that reach other machines. */
const NETWORK = new Set(['clone', 'fetch', 'pull', 'push', 'ls-remote', 'submodule', 'archive', 'request-pull', 'send-email']);

/** git with its arguments; paths are relative to the directory git starts in. */
export function judgeGit(args: readonly Word[]): Judgement {
  let dir: string | undefined;
  // Where git looks for its repository: the policy checks it is inside the workspace and names no program.
  const git = (type: Judgement['type'], reason?: string, paths: CommandPath[] = []) =>
    judgement(type, reason, { programs: ['git'], paths, located: [{ kind: 'git', name: 'git', cwd: dir ?? '.' }] });
  try {
    const paths: CommandPath[] = [];
    let i = 0;
    for (; i < args.length && wordText(args[i]!).startsWith('-'); i++) {
      const flag = wordText(args[i]!);
      if (flag === '--version') return git('read_only');
      if (flag === '--no-pager' || flag === '-P' || flag === '--no-optional-locks') continue;
      if (flag !== '-C') return git('execute', `git ${flag} changes what git runs or where it reads and writes`);
      const value = args[++i] ?? notReadOnly('git -C needs a folder');
      if (hasGlob(value)) notReadOnly('the folder of git -C has a glob bash would expand');
      const d = wordPath(value).path;
      dir = dir && !d.startsWith('/') && !d.startsWith('~') ? `${dir}/${d}` : d;
      paths.push(readPath(dir));
    }
    const sub = args[i] ? wordText(args[i]!) : '';
    const rest = args.slice(i + 1);
    const risky = riskyGit(sub, rest);
    if (risky) return git(risky.type, risky.reason);
    if (sub === '') return git('read_only', undefined, paths);
    const judge = own(SUBCOMMANDS, sub) ?? notReadOnly(`git ${sub} is not on the read-only list`);
    const operands = judge(rest).map((p) => (dir ? underDir(dir, p) : p));
    return git('read_only', undefined, [...paths, ...operands]);
  } catch (err) {
    if (!(err instanceof NotReadOnly)) throw err;
    return git(err.type, `git: ${err.message}`);
  }
}

function riskyGit(sub: string, rest: readonly Word[]): { type: Judgement['type']; reason: string } | undefined {
  const words = rest.map((w) => staticValue(w) ?? '');
  if (NETWORK.has(sub) || (sub === 'remote' && words[0] === 'update')) return { type: 'network', reason: `git ${sub} uses the network` };
  if (sub === 'reset' && words.includes('--hard')) return { type: 'dangerous', reason: 'git reset --hard discards uncommitted work' };
  if (sub === 'clean' && words.some((a) => /^-[a-zA-Z]*f/.test(a) || a === '--force'))
    return { type: 'dangerous', reason: 'git clean -f deletes untracked files' };
  return undefined;
}

/** git -C DIR: relative operands are read from DIR (as the kernel resolves it, links and all). */
function underDir(dir: string, p: CommandPath): CommandPath {
  if (p.path.startsWith('/') || p.path.startsWith('~')) return p;
  return { ...p, path: `${p.glob ? escapePattern(dir) : dir}/${p.path}` };
}
