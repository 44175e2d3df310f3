// The allowlist of programs that only read: for each, the options that keep it so (with whether
// they take a value) and what its operands are. Left out on purpose, so they make a command ask:
// options that write (sort -o/-T, and -S/--batch-size, which spill into $TMPDIR even on small
// input; uniq's second operand, date -s), run programs (sort
// --compress-program, rg --pre/-z, file -z, diff -l), read a list of names from a file
// (--files0-from, md5sum -c) or follow links out of the tree (ls -L, du -L, grep -R, rg -L).
import type { CommandPath } from './command-class.js';
import {
  atMost,
  fixedOperands,
  GNU,
  notReadOnly,
  options,
  type OptionTable,
  type ParsedArgs,
  type ParseStyle,
  parseArgs,
  pathOperands,
  POSIX,
} from './program-args.js';
import { staticValue, type Word } from './shell-word.js';

export interface ProgramResult {
  paths: CommandPath[];
  /** The static directory a `cd` changes to. */
  cd?: string;
}

export interface ProgramSpec {
  /** The files the arguments name; throws NotReadOnly for anything not on the list. */
  judge(args: readonly Word[]): ProgramResult;
  /** Programs it executes in turn (Debian's egrep is a script that runs grep). */
  runs?: readonly string[];
  /** A bash builtin with no program of that name: env, exec, nice… cannot run it. */
  builtinOnly?: boolean;
  /** The options it knows, for checking against the program's own option list. */
  options?: OptionTable;
}

const HELP = '--help, --version';

type Operands = (a: ParsedArgs) => CommandPath[];

function spec(defs: string, operands: Operands, style: ParseStyle = GNU, extra: Partial<ProgramSpec> = {}): ProgramSpec {
  const table: OptionTable = options(defs, HELP);
  return {
    judge(args) {
      const a = parseArgs(args, table, style);
      return { paths: [...a.paths, ...operands(a)] };
    },
    options: table,
    ...extra,
  };
}

const files: Operands = (a) => pathOperands(a.operands);
const noOperands: Operands = (a) => {
  atMost(a.operands, 0, 'it takes no operands here');
  return [];
};
const fixed: Operands = (a) => {
  fixedOperands(a.operands);
  return [];
};
const upTo =
  (n: number, why: string): Operands =>
  (a) => {
    atMost(a.operands, n, why);
    return pathOperands(a.operands);
  };

const CHECKSUM = '-b --binary, -t --text, -z --zero, --tag';
const HEAD_TAIL = '-c --bytes =num, -n --lines =num, -q --quiet --silent, -v --verbose, -z --zero-terminated';

const LS = `
  -a --all, -A --almost-all, --author, -b --escape, --block-size =text, -B --ignore-backups, -c, -C,
  --color =?, -d --directory, -D --dired, -f, -F, --classify =?, --file-type, --format =text,
  --full-time, -g, --group-directories-first, -G --no-group, -h --human-readable, --si,
  -H --dereference-command-line, --dereference-command-line-symlink-to-dir, --hide =text, --hyperlink =?,
  --indicator-style =text, -i --inode, -I --ignore =text, -k --kibibytes, -l, -m, -n --numeric-uid-gid,
  -N --literal, -o, -p, -q --hide-control-chars, --show-control-chars, -Q --quote-name, --quoting-style =text,
  -r --reverse, -R --recursive, -s --size, -S, --sort =text, -t, --time =text, --time-style =text,
  -T --tabsize =num, -u, -U, -v, -w --width =num, -x, -X, -Z --context, --zero, -1
`;

const GREP = `
  -E --extended-regexp, -F --fixed-strings, -G --basic-regexp, -P --perl-regexp, -e --regexp =text,
  -f --file =path, -i --ignore-case, -y, --no-ignore-case, -v --invert-match, -w --word-regexp,
  -x --line-regexp, -c --count, --color --colour =?, -L --files-without-match, -l --files-with-matches,
  -m --max-count =num, -o --only-matching, -q --quiet --silent, -s --no-messages, -b --byte-offset,
  -H --with-filename, -h --no-filename, --label =text, -n --line-number, --line-buffered, -T --initial-tab,
  -Z --null, -z --null-data, -A --after-context =num, -B --before-context =num, -C --context =num, -a --text,
  --binary-files =text, -I, -r --recursive, -d --directories =text, -D --devices =text, --exclude =text,
  --exclude-from =path, --exclude-dir =text, --include =text, -U --binary, --no-group-separator,
  --group-separator =text
`;

const RG = `
  -e --regexp =text, -f --file =path, -i --ignore-case, -S --smart-case, -s --case-sensitive,
  -v --invert-match, -w --word-regexp, -x --line-regexp, -F --fixed-strings, -n --line-number,
  -N --no-line-number, -H --with-filename, -I --no-filename, -l --files-with-matches, --files-without-match,
  -c --count, --count-matches, -o --only-matching, -q --quiet, -m --max-count =num, -A --after-context =num,
  -B --before-context =num, -C --context =num, --context-separator =text, --no-context-separator,
  -g --glob =text, --iglob =text, --glob-case-insensitive, -t --type =text, -T --type-not =text, --type-list,
  --files, -. --hidden, -u --unrestricted, --no-ignore, --no-ignore-vcs, --no-ignore-dot, --no-ignore-parent,
  --no-ignore-global, --no-ignore-exclude, --no-ignore-files, --ignore-file =path, --max-depth =num,
  --max-filesize =text, --json, --vimgrep, --heading, --no-heading, --color =text, --colors =text, -p --pretty,
  --column, --no-column, -0 --null, --sort =text, --sortr =text, --trim, -U --multiline, --multiline-dotall,
  -P --pcre2, --engine =text, -E --encoding =text, --stats, --passthru, --no-messages,
  --no-config, -a --text, --binary, --crlf, -b --byte-offset, -r --replace =text, -M --max-columns =num,
  --max-columns-preview, --include-zero, --null-data, -j --threads =num
`;

const DIFF = `
  -i --ignore-case, --ignore-file-name-case, --no-ignore-file-name-case, -E --ignore-tab-expansion,
  -Z --ignore-trailing-space, -b --ignore-space-change, -w --ignore-all-space, -B --ignore-blank-lines,
  -I --ignore-matching-lines =text, -a --text, --strip-trailing-cr, -c, -C =num, --context =?, -u,
  -U =num, --unified =?, -e --ed, -n --rcs, -y --side-by-side, -W --width =num, --left-column,
  --suppress-common-lines, -p --show-c-function, -F --show-function-line =text, --label =text,
  -t --expand-tabs, -T --initial-tab, --tabsize =num, --suppress-blank-empty, -q --brief,
  -s --report-identical-files, -N --new-file, --unidirectional-new-file, --no-dereference, --color =?,
  --palette =text, -d --minimal, --speed-large-files, --horizon-lines =num, --normal, --from-file =path,
  --to-file =path
`;

const SORT = `
  -b --ignore-leading-blanks, -d --dictionary-order, -f --ignore-case, -g --general-numeric-sort,
  -i --ignore-nonprinting, -M --month-sort, -h --human-numeric-sort, -n --numeric-sort, -R --random-sort,
  --random-source =path, -r --reverse, --sort =text, -V --version-sort, -c, --check =?, -C,
  --debug, -k --key =text, -m --merge, -s --stable, -t --field-separator =text,
  -u --unique, -z --zero-terminated, --parallel =num
`;

/** grep: the first operand is the pattern unless -e or -f gave one; -r reads whole folders. */
const grepOperands: Operands = (a) => {
  const d = a.options.find((o) => o.name === '-d' || o.name === '-D')?.value;
  if (d !== undefined && !['read', 'skip', 'recurse'].includes(d)) notReadOnly(`grep -d/-D ${d} is not a read-only mode`);
  const files = a.has('-e') || a.has('-f') ? a.operands : a.operands.slice(1);
  if (!(a.has('-e') || a.has('-f'))) fixedOperands(a.operands.slice(0, 1));
  const recursive = a.has('-r') || a.options.some((o) => o.name === '-d' && o.value === 'recurse');
  if (!recursive) return pathOperands(files);
  return files.length ? pathOperands(files, { recursive: true }) : [{ path: '.', access: 'read', recursive: true }];
};

/** rg searches folders recursively; any whitelisting glob or ignore file can make it read hidden files. */
const rgOperands: Operands = (a) => {
  const patternGiven = a.has('-e') || a.has('-f') || a.has('--files') || a.has('--type-list');
  if (!patternGiven) fixedOperands(a.operands.slice(0, 1));
  const files = patternGiven ? a.operands : a.operands.slice(1);
  return files.length ? pathOperands(files, { recursive: true }) : [{ path: '.', access: 'read', recursive: true }];
};

/** tail reads `+N…` as its obsolete option syntax (`tail +1f` follows forever), not as a file. */
const tailFiles: Operands = (a) => {
  if (a.operands.some((w) => /^\+/.test(staticValue(w) ?? '+'))) notReadOnly('tail reads an operand starting with + as an option');
  return pathOperands(a.operands);
};

/** date prints; an operand that is not +FORMAT would set the clock. */
const dateOperands: Operands = (a) => {
  const [format, ...rest] = fixedOperands(a.operands);
  if (rest.length || (format !== undefined && !format.startsWith('+')))
    notReadOnly('date with an operand other than +FORMAT sets the clock');
  return [];
};

/** diff reads both operands; given folders it compares the files in them, following links. */
const diffOperands: Operands = (a) => pathOperands(a.operands, { recursive: true, followsLinks: true });

const cmpOperands: Operands = (a) => {
  atMost(a.operands, 4, 'cmp takes at most four operands');
  fixedOperands(a.operands.slice(2));
  return pathOperands(a.operands.slice(0, 2));
};

export const FILE_PROGRAMS: Record<string, ProgramSpec> = {
  ls: spec(LS, files),
  cat: spec(
    `
  -A --show-all, -b --number-nonblank, -e, -E --show-ends, -n --number, -s --squeeze-blank, -t, -T --show-tabs,
  -u, -v --show-nonprinting
`,
    files,
  ),
  head: spec(HEAD_TAIL, files, { ...GNU, numeric: true }),
  tail: spec(HEAD_TAIL, tailFiles, { ...GNU, numeric: true }),
  wc: spec('-c --bytes, -m --chars, -l --lines, -L --max-line-length, -w --words', files),
  grep: spec(GREP, grepOperands, { ...GNU, numeric: true }),
  egrep: spec(GREP, grepOperands, { ...GNU, numeric: true }, { runs: ['grep'] }),
  fgrep: spec(GREP, grepOperands, { ...GNU, numeric: true }, { runs: ['grep'] }),
  rg: spec(RG, rgOperands),
  stat: spec(
    `
  -L --dereference, -f --file-system, -c --format =text, --printf =text, -t --terse, --cached =text
`,
    files,
  ),
  file: spec(
    `
  -b --brief, -i --mime, --mime-type, --mime-encoding, -L --dereference, -h --no-dereference, -k --keep-going,
  -E, -N --no-pad, -r --raw, -0 --print0, --extension
`,
    files,
  ),
  du: spec(
    `
  -a --all, -b --bytes, -c --total, -h --human-readable, --si, -k, -m, -s --summarize, -x --one-file-system,
  --max-depth =num, --apparent-size, --exclude =text, -X --exclude-from =path, --time =?,
  --time-style =text, -S --separate-dirs, -0 --null, -t --threshold =text, -B --block-size =text,
  -D -H --dereference-args, -l --count-links, --inodes, -P --no-dereference
`,
    files,
  ),
  df: spec(
    `
  -a --all, -h --human-readable, -H --si, -i --inodes, -k, -l --local, -P --portability, -T --print-type,
  -t --type =text, -x --exclude-type =text, --total, -B --block-size =text
`,
    files,
  ),
  tree: spec(
    `
  -a, -d, -f, -i, -L =num, -P =text, -I =text, --gitignore, --ignore-case, --matchdirs, --prune,
  --filelimit =num, --noreport, --dirsfirst, -s, -h, --si, --du, -D, -F, -Q, -N, -p, -u, -g, -t, -r, -v, -U,
  -c, -C, -n, -x, -J, --charset =text
`,
    files,
    { ...GNU, valuesFromNextWords: true },
  ),
  diff: spec(DIFF, diffOperands),
  cmp: spec(
    `
  -b --print-bytes, -i --ignore-initial =text, -l --verbose, -n --bytes =text, -s --quiet --silent
`,
    cmpOperands,
  ),
  uniq: spec(
    `
  -c --count, -d --repeated, -D, --all-repeated =?, -f --skip-fields =num, --group =?, -i --ignore-case,
  -s --skip-chars =num, -u --unique, -z --zero-terminated, -w --check-chars =num
`,
    upTo(1, "uniq's second operand is a file it writes"),
  ),
  cut: spec(
    `
  -b --bytes =text, -c --characters =text, -d --delimiter =text, -f --fields =text, -n, --complement,
  -s --only-delimited, --output-delimiter =text, -z --zero-terminated
`,
    files,
  ),
  realpath: spec(
    `
  -e --canonicalize-existing, -m --canonicalize-missing, -L --logical, -P --physical, -q --quiet,
  -s --strip --no-symlinks, -z --zero, --relative-to =path, --relative-base =path
`,
    files,
  ),
  readlink: spec(
    `
  -f --canonicalize, -e --canonicalize-existing, -m --canonicalize-missing, -n --no-newline, -q --quiet,
  -s --silent, -v --verbose, -z --zero
`,
    files,
  ),
  md5sum: spec(CHECKSUM, files),
  sha1sum: spec(CHECKSUM, files),
  sha224sum: spec(CHECKSUM, files),
  sha256sum: spec(CHECKSUM, files),
  sha384sum: spec(CHECKSUM, files),
  sha512sum: spec(CHECKSUM, files),
  b2sum: spec(`${CHECKSUM}, -l --length =num`, files),
  cksum: spec('-a --algorithm =text, -l --length =num, --tag, --untagged, -z --zero', files),
  base64: spec('-d --decode, -i --ignore-garbage, -w --wrap =num', upTo(1, 'base64 takes one file')),
  nl: spec(
    `
  -b --body-numbering =text, -d --section-delimiter =text, -f --footer-numbering =text,
  -h --header-numbering =text, -i --line-increment =num, -l --join-blank-lines =num, -n --number-format =text,
  -p --no-renumber, -s --number-separator =text, -v --starting-line-number =num, -w --number-width =num
`,
    files,
  ),
  column: spec(
    `
  -t --table, -s --separator =text, -o --output-separator =text, -c --output-width =num, -x --fillrows,
  -N --table-columns =text, -R --table-right =text, -J --json, -L --keep-empty-lines, -d --table-noheadings
`,
    files,
  ),
  comm: spec(
    `
  -1, -2, -3, --check-order, --nocheck-order, --output-delimiter =text, --total, -z --zero-terminated
`,
    upTo(2, 'comm compares two files'),
  ),
  rev: spec('', files),
  od: spec(
    `
  -A --address-radix =text, -j --skip-bytes =text, -N --read-bytes =text, -S =text, --strings =?,
  -t --format =text, -v --output-duplicates, -w =?, --width =?, -a, -b, -c, -d, -f, -i, -l, -o, -s, -x,
  --endian =text, --traditional
`,
    files,
  ),
  hexdump: spec(
    `
  -b, -c, -C --canonical, -d, -o, -x, -e --format =text, -n --length =num, -s --skip =text, -v --no-squeezing
`,
    files,
  ),
  fold: spec('-b --bytes, -s --spaces, -w --width =num', files),
  paste: spec('-d --delimiters =text, -s --serial, -z --zero-terminated', files),
  join: spec(
    `
  -a =text, -e =text, -i --ignore-case, -j =text, -o =text, -t =text, -v =text, -1 =text, -2 =text,
  --check-order, --nocheck-order, --header, -z --zero-terminated
`,
    upTo(2, 'join reads two files'),
  ),
  sort: spec(SORT, files),
};

export const TEXT_PROGRAMS: Record<string, ProgramSpec> = {
  tr: spec('-c -C --complement, -d --delete, -s --squeeze-repeats, -t --truncate-set1', fixed),
  basename: spec('-a --multiple, -s --suffix =text, -z --zero', fixed),
  dirname: spec('-z --zero', fixed),
  seq: spec('-f --format =text, -s --separator =text, -w --equal-width', fixed),
  expr: spec('', fixed, POSIX),
  sleep: spec('', fixed),
  which: spec('-a, -s', fixed, POSIX),
  whoami: spec('', noOperands),
  // No user operand: looking a user up walks the name services (/run, /etc, /usr), which are not the workspace.
  id: spec('-a, -Z --context, -g --group, -G --groups, -n --name, -r --real, -u --user, -z --zero', noOperands),
  uname: spec(
    `
  -a --all, -s --kernel-name, -n --nodename, -r --kernel-release, -v --kernel-version, -m --machine,
  -p --processor, -i --hardware-platform, -o --operating-system
`,
    noOperands,
  ),
  date: spec(
    `
  -d --date =text, -f --file =path, -I --iso-8601 =?, -R --rfc-email, --rfc-3339 =text, -r --reference =path,
  -u --utc --universal
`,
    dateOperands,
  ),
};
