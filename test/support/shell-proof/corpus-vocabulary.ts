// The words the corpus generator composes (generate-corpus.ts): the programs a classifier may
// call read-only, each with its ordinary flags and operands and the flags that would make it
// write, run code or read outside; and the hostile pieces a line may gain (wrapper options
// carrying a command, assignments, write and /dev/tcp redirections, hidden substitutions,
// quoting forms bash reads differently, chained commands, path-qualified programs).

/** What a spec's operand function may ask of the generator. */
interface Picker {
  pick<T>(xs: readonly T[]): T;
  some<T>(xs: readonly T[], max: number): T[];
}

const FILES = [
  'README.md',
  'package.json',
  'src/app.js',
  'src/lib/math.js',
  'src/util.ts',
  'data/numbers.txt',
  'data/table.csv',
  'docs/guide.md',
];
const DIRS = ['.', 'src', 'src/lib', 'docs', 'data', 'test'];
const PATTERNS = ['TODO', 'add', 'exports', 'name', 'a', '3', 'Demo', 'test'];
export const OUTSIDE = [
  '../outside/secret.txt',
  '~/.ssh/id_rsa',
  '$HOME/.npmrc',
  '~/.gitconfig',
  'link-to-secret',
  'link-to-home/.npmrc',
  '../ws-evil/x.txt',
  '/etc/passwd',
  '.env',
  '.env.local',
  'src/../../outside/secret.txt',
  '~+/../outside/secret.txt',
  '..',
  '../outside',
  '/proc/self/environ',
];

/** A simple command: the program, its arguments; `input` marks programs that read stdin. */
export interface Cmd {
  words: string[];
  input?: boolean;
}

interface Spec {
  name: string;
  flags: string[];
  operands: (r: Picker) => string[];
  /** Flags or operand forms that write, run code or read outside: a hostile change for this program. */
  risky: string[];
  /** Reads stdin when given no file operand. */
  filter?: boolean;
}

const files =
  (n = 1) =>
  (g: Pick<Picker, 'some'>) =>
    g.some(FILES, n);
const dirs = (g: Pick<Picker, 'some'>) => g.some(DIRS, 1);

export const SPECS: Spec[] = [
  { name: 'cat', flags: ['-n', '-A', '-s', '-b', '-E'], operands: files(2), risky: ['-', '/dev/stdin'], filter: true },
  { name: 'head', flags: ['-n 2', '-n2', '-c 10', '-3', '-q'], operands: files(2), risky: ['-n -1'], filter: true },
  { name: 'tail', flags: ['-n 2', '-3', '-c 5', '-n +2'], operands: files(1), risky: ['--pid=1', '-s 1'], filter: true },
  { name: 'wc', flags: ['-l', '-w', '-c', '-m', '-L'], operands: files(2), risky: ['--files0-from=../outside/secret.txt'], filter: true },
  { name: 'ls', flags: ['-l', '-a', '-la', '-1', '-R', '-d', '--color=never', '-h', '-t', '-S'], operands: dirs, risky: ['~', '-R ..'] },
  {
    name: 'grep',
    flags: ['-n', '-i', '-c', '-v', '-l', '-w', '-E', '-F', '-h', '-o'],
    operands: (g) => [g.pick(PATTERNS), ...g.some(FILES, 2)],
    risky: ['-r', '-f ../outside/secret.txt', '--include=*', '-R'],
    filter: true,
  },
  {
    name: 'rg',
    flags: ['-n', '-i', '-l', '-c', '-w', '-F', '--no-heading'],
    operands: (g) => [g.pick(PATTERNS), g.pick(['src', 'docs', 'README.md', '.'])],
    risky: ['--pre=./cat', '--hidden', '-L', '-uu', '--pre touch', '--ignore-file=../outside/secret.txt'],
  },
  {
    name: 'sort',
    flags: ['-n', '-r', '-u', '-rn', '-k1', '-f'],
    operands: files(1),
    risky: ['-o pwned-gen-sort', '--output=pwned-gen-sort', '--compress-program=touch', '-T ..'],
    filter: true,
  },
  { name: 'uniq', flags: ['-c', '-d', '-u', '-i'], operands: files(1), risky: ['data/numbers.txt pwned-gen-uniq'], filter: true },
  { name: 'cut', flags: ['-c1-3', '-d, -f1', '-f1'], operands: files(1), risky: ['--output-delimiter=x'], filter: true },
  { name: 'nl', flags: ['-ba', '-w3'], operands: files(1), risky: [], filter: true },
  { name: 'tac', flags: ['-b'], operands: files(1), risky: [], filter: true },
  { name: 'rev', flags: [], operands: files(1), risky: [], filter: true },
  { name: 'od', flags: ['-c', '-x', '-An'], operands: files(1), risky: [], filter: true },
  { name: 'md5sum', flags: ['-b'], operands: files(2), risky: ['-c ../outside/secret.txt'] },
  { name: 'sha256sum', flags: ['--tag'], operands: files(2), risky: [] },
  { name: 'stat', flags: ['-c %s', '-L'], operands: files(1), risky: [] },
  { name: 'file', flags: ['-b', '-i'], operands: files(1), risky: ['-C -m README.md', '-L link-to-secret'] },
  { name: 'du', flags: ['-sh', '-a', '-s'], operands: dirs, risky: ['--files0-from=../outside/secret.txt'] },
  { name: 'basename', flags: [], operands: files(1), risky: [] },
  { name: 'dirname', flags: [], operands: files(1), risky: [] },
  { name: 'realpath', flags: ['-e', '-s'], operands: files(1), risky: [] },
  {
    name: 'diff',
    flags: ['-u', '-q', '-b'],
    operands: files(2),
    risky: ['--to-file=../outside/secret.txt', '--from-file=../outside/secret.txt'],
  },
  { name: 'cmp', flags: ['-s', '-l'], operands: files(2), risky: [] },
  { name: 'fold', flags: ['-w 20', '-s'], operands: files(1), risky: [], filter: true },
  { name: 'expand', flags: ['-t 4'], operands: files(1), risky: [], filter: true },
  { name: 'paste', flags: ['-s', '-d,'], operands: files(2), risky: [], filter: true },
  { name: 'column', flags: ['-t', '-t -s,'], operands: () => ['data/table.csv'], risky: [], filter: true },
  {
    name: 'jq',
    flags: ['-r', '-c', '-S'],
    operands: (g) => [g.pick(["'.'", "'.[0]'", "'.[].name'", "'length'"]), 'data/people.json'],
    risky: ["-n '$ENV'", '-n env', '--rawfile s ../outside/secret.txt'],
    filter: true,
  },
  { name: 'echo', flags: ['-n', '-e'], operands: (g) => g.some(['hello', 'world', 'a b', 'x'], 2), risky: [] },
  { name: 'printf', flags: [], operands: (g) => ["'%s\\n'", ...g.some(['a', 'b', 'c'], 2)], risky: ['-v x'] },
  { name: 'seq', flags: ['-s,', '-w'], operands: () => ['1', '3'], risky: [] },
  {
    name: 'date',
    flags: ['+%F', '-u', '+%s'],
    operands: () => [],
    risky: ['-s 2001-01-01', '-f ../outside/secret.txt', '-r ../outside/secret.txt'],
  },
  { name: 'uname', flags: ['-a', '-s', '-m'], operands: () => [], risky: [] },
  { name: 'pwd', flags: ['-P', '-L'], operands: () => [], risky: [] },
  { name: 'true', flags: [], operands: () => [], risky: [] },
  { name: 'test', flags: [], operands: (g) => ['-f', g.pick(FILES)], risky: ["-v 'a[$(touch pwned-gen-test)0]'"] },
  {
    name: 'find',
    flags: ["-name '*.js'", '-type f', '-maxdepth 1', "-name '*.md'"],
    operands: dirs,
    risky: ['-delete', '-exec touch pwned-gen-find \\;', '-fprint pwned-gen-find', '-L'],
  },
];

export const GIT: { sub: string; flags: string[]; risky: string[] }[] = [
  { sub: 'status', flags: ['-s', '--short', '-sb', '--porcelain'], risky: ['--ignored'] },
  {
    sub: 'log',
    flags: ['--oneline', '-3', '-n 2', '--stat', '-p', '--format=%h', '--graph'],
    risky: ['--output=pwned-gen-git', '--ext-diff -p', '--show-signature'],
  },
  {
    sub: 'diff',
    flags: ['--stat', '--name-only', 'HEAD~1', '--cached', 'main feature'],
    risky: ['--output=pwned-gen-git', '--ext-diff', '--no-index ../outside/secret.txt README.md'],
  },
  { sub: 'show', flags: ['HEAD', '--stat', 'HEAD:README.md', 'v1.0'], risky: ['--output=pwned-gen-git', '--textconv HEAD'] },
  { sub: 'branch', flags: ['-a', '-v', '--show-current', '--list'], risky: ['pwned-gen-branch', '-D feature', '-m x'] },
  { sub: 'tag', flags: ['-l', "-l 'v*'"], risky: ['pwned-gen-tag', '-d v1.0'] },
  { sub: 'rev-parse', flags: ['HEAD', '--abbrev-ref HEAD', '--show-toplevel'], risky: ['--git-path hooks'] },
  { sub: 'ls-files', flags: ['', 'src', '-m'], risky: ['--others'] },
  { sub: 'blame', flags: ['README.md', '-L1,2 README.md'], risky: ['--contents ../outside/secret.txt README.md'] },
  { sub: 'grep', flags: ['TODO', '-n add', '-c a'], risky: ["-O'touch pwned-gen-git' TODO", '--no-index TOKEN', '--untracked TOKEN'] },
  {
    sub: 'config',
    flags: ['--get user.name', '--get core.bare'],
    risky: ['core.fsmonitor touch', '--list', '--global --list', 'alias.x !touch'],
  },
  { sub: 'shortlog', flags: ['-sn HEAD'], risky: [] },
  { sub: 'ls-tree', flags: ['HEAD', '-r --name-only HEAD'], risky: [] },
  { sub: 'cat-file', flags: ['-p HEAD', '-t HEAD'], risky: ['--textconv HEAD:README.md'] },
];
export const GIT_RISKY_GLOBAL = [
  "-c core.fsmonitor='touch pwned-gen-git'",
  '-C ..',
  '--git-dir=../outside',
  '--namespace x',
  '--exec-path=bin',
  '-c alias.status=!touch',
  '--work-tree=..',
  '-p',
];

export const BENIGN_WRAPPERS = ['env', 'env LC_ALL=C', 'nice', 'nice -n 5', 'timeout 5', 'command', 'time', 'stdbuf -oL', 'env -u FOO'];
// Wrappers that carry a command: the carried command ignores the words that follow it (they
// become `sh`'s positional parameters), so no generated line can touch an operand like /etc/passwd.
export const HOSTILE_WRAPPERS = [
  'env -S \'sh -c "touch pwned-gen-env" sh\'',
  "env -S sh -c 'touch pwned-gen-env' sh",
  "timeout -s 5 sh -c 'touch pwned-gen-timeout' sh",
  'nice -n -S',
  'exec',
  'env -C ..',
  'env PATH=.',
  'xargs -a ../outside/secret.txt',
  'nohup',
  'setsid',
  'env --split-string=\'sh -c "touch pwned-gen-split" sh\'',
];
export const BENIGN_ASSIGN = ['LC_ALL=C', 'TZ=UTC', 'FOO=1', 'COLUMNS=80', 'LANG=C'];
export const HOSTILE_ASSIGN = [
  'PATH=.',
  'PATH=.:$PATH',
  'LD_PRELOAD=./pwned.so',
  "NODE_OPTIONS='--require ./bin/tool.sh'",
  'GIT_DIR=../outside',
  "GIT_PAGER='touch pwned-gen-pager'",
  "PAGER='touch pwned-gen-pager'",
  'BASH_ENV=bin/tool.sh',
  'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=touch',
  'HOME=../outside',
  'GIT_TRACE=pwned-gen-trace',
  'TMPDIR=..',
];
export const HARMLESS_REDIRECTS = ['2>/dev/null', '>/dev/null', '2>&1', '>&2', '2>/dev/null >/dev/null', '1>/dev/null'];
export const WRITE_REDIRECTS = [
  '> pwned-gen-out',
  '>> pwned-gen-log',
  '2> pwned-gen-err',
  '> ~/pwned-gen',
  '> ../outside/pwned-gen',
  '> link-to-secret',
  '&> pwned-gen-all',
  '<> pwned-gen-rw',
  '>| pwned-gen-clobber',
  '> .git/config',
  '>> .env',
];
export const NET_REDIRECTS = [
  '< /dev/tcp/127.0.0.1/9',
  '> /dev/udp/127.0.0.1/9',
  '3<>/dev/tcp/127.0.0.1/9',
  '2>/dev/tcp/127.0.0.1/9',
  '>& /dev/tcp/127.0.0.1/9',
];
export const PAYLOADS = [
  '$(touch pwned-gen-sub)',
  '`touch pwned-gen-tick`',
  '<(touch pwned-gen-proc)',
  '${x:-$(touch pwned-gen-param)}',
  '$((a[$(touch pwned-gen-arith)0]))',
  '"$(touch pwned-gen-dq)"',
  '`echo \\`touch pwned-gen-nested\\``',
];
export const UNMODELLED = [
  (w: string) => `$'${w}'`,
  (w: string) => `$"${w}"`,
  (w: string) => `$'${w.replace(/^./, (c) => `\\x${c.charCodeAt(0).toString(16)}`)}'`,
];
export const CHAINED = [
  '; touch pwned-gen-chain',
  '&& touch pwned-gen-and',
  '|| touch pwned-gen-or',
  '| tee pwned-gen-tee',
  '& touch pwned-gen-bg',
  '| xargs -I{} touch pwned-gen-xargs',
  '; printenv',
  '; env',
  '; echo $GITHUB_TOKEN',
  '; cat ~/.ssh/id_rsa',
];
export const PATH_PROGRAMS = ['./cat', './ls', './git', './grep', 'bin/tool.sh', './/cat', 'src/../cat'];
