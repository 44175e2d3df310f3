// Writes test/fixtures/shell-corpus/generated.txt: random but reproducible (fixed seed)
// compositions of the programs a classifier may call read-only, with their flags, operands,
// quoting forms, expansions, redirections, wrappers and assignments. About half the lines are
// ordinary read-only work dressed in harmless variations (quotes, pipes, 2>/dev/null, env
// wrappers); the rest add one or two hostile changes (a flag that writes or runs code, an
// operand outside the workspace, a write or /dev/tcp redirection, a hidden substitution, a
// wrapper option that carries a command, a path-qualified program, an unmodelled quoting form).
// Payloads only write relative files (pwned-gen-N) or connect to 127.0.0.1:9.
//
//   node --import=tsx test/support/shell-proof/generate-corpus.ts   # rewrites generated.txt
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CORPUS_DIR, corpusLine } from './corpus.js';

export const SEED = 0x6b65656c;
export const LINES = 900;

type Rng = () => number;

/** mulberry32: a tiny PRNG whose sequence is the same on every machine. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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
const OUTSIDE = [
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
interface Cmd {
  words: string[];
  input?: boolean;
}

interface Spec {
  name: string;
  flags: string[];
  operands: (r: Pick<Gen, 'pick' | 'some'>) => string[];
  /** Flags or operand forms that write, run code or read outside: a hostile change for this program. */
  risky: string[];
  /** Reads stdin when given no file operand. */
  filter?: boolean;
}

const files =
  (n = 1) =>
  (g: Pick<Gen, 'some'>) =>
    g.some(FILES, n);
const dirs = (g: Pick<Gen, 'some'>) => g.some(DIRS, 1);

const SPECS: Spec[] = [
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

const GIT: { sub: string; flags: string[]; risky: string[] }[] = [
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
const GIT_RISKY_GLOBAL = [
  "-c core.fsmonitor='touch pwned-gen-git'",
  '-C ..',
  '--git-dir=../outside',
  '--namespace x',
  '--exec-path=bin',
  '-c alias.status=!touch',
  '--work-tree=..',
  '-p',
];

const BENIGN_WRAPPERS = ['env', 'env LC_ALL=C', 'nice', 'nice -n 5', 'timeout 5', 'command', 'time', 'stdbuf -oL', 'env -u FOO'];
// Wrappers that carry a command: the carried command ignores the words that follow it (they
// become `sh`'s positional parameters), so no generated line can touch an operand like /etc/passwd.
const HOSTILE_WRAPPERS = [
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
const BENIGN_ASSIGN = ['LC_ALL=C', 'TZ=UTC', 'FOO=1', 'COLUMNS=80', 'LANG=C'];
const HOSTILE_ASSIGN = [
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
const HARMLESS_REDIRECTS = ['2>/dev/null', '>/dev/null', '2>&1', '>&2', '2>/dev/null >/dev/null', '1>/dev/null'];
const WRITE_REDIRECTS = [
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
const NET_REDIRECTS = [
  '< /dev/tcp/127.0.0.1/9',
  '> /dev/udp/127.0.0.1/9',
  '3<>/dev/tcp/127.0.0.1/9',
  '2>/dev/tcp/127.0.0.1/9',
  '>& /dev/tcp/127.0.0.1/9',
];
const PAYLOADS = [
  '$(touch pwned-gen-sub)',
  '`touch pwned-gen-tick`',
  '<(touch pwned-gen-proc)',
  '${x:-$(touch pwned-gen-param)}',
  '$((a[$(touch pwned-gen-arith)0]))',
  '"$(touch pwned-gen-dq)"',
  '`echo \\`touch pwned-gen-nested\\``',
];
const UNMODELLED = [
  (w: string) => `$'${w}'`,
  (w: string) => `$"${w}"`,
  (w: string) => `$'${w.replace(/^./, (c) => `\\x${c.charCodeAt(0).toString(16)}`)}'`,
];
const CHAINED = [
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
const PATH_PROGRAMS = ['./cat', './ls', './git', './grep', 'bin/tool.sh', './/cat', 'src/../cat'];

class Gen {
  private n = 0;
  constructor(private readonly rng: Rng) {}

  chance(p: number): boolean {
    return this.rng() < p;
  }
  int(n: number): number {
    return Math.floor(this.rng() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  /** Up to `max` distinct items (at least one). */
  some<T>(xs: readonly T[], max: number): T[] {
    const count = 1 + this.int(max);
    const out: T[] = [];
    for (let i = 0; i < count; i++) {
      const x = this.pick(xs);
      if (!out.includes(x)) out.push(x);
    }
    return out;
  }
  marker(): string {
    return `pwned-gen-${++this.n}`;
  }

  line(): string {
    return this.chance(0.5) ? this.benignLine() : this.hostileLine();
  }

  benignLine(): string {
    const cmds = [this.command()];
    while (cmds.length < 3 && this.chance(0.35)) cmds.push(this.command(true));
    return this.join(cmds.map((c) => this.dress(c)));
  }

  hostileLine(): string {
    const cmds = [this.command()];
    if (this.chance(0.3)) cmds.push(this.command(true));
    const target = this.int(cmds.length);
    const mutations = 1 + (this.chance(0.3) ? 1 : 0);
    for (let i = 0; i < mutations; i++) cmds[target] = this.mutate(cmds[target]!);
    let line = this.join(cmds.map((c) => this.dress(c)));
    if (this.chance(0.12)) line = `${line} ${this.pick(CHAINED).replaceAll('pwned-gen', this.marker())}`;
    return this.wrapLine(line);
  }

  /** An ordinary command of a program that may be read-only; `piped` prefers filters. */
  command(piped = false): Cmd {
    if (!piped && this.chance(0.2)) return this.gitCommand();
    const pool = piped ? SPECS.filter((s) => s.filter) : SPECS;
    const spec = this.pick(pool);
    const words = [spec.name];
    if (spec.flags.length && this.chance(0.6)) words.push(...this.pick(spec.flags).split(' '));
    if (!piped || !spec.filter) words.push(...spec.operands(this));
    return { words, input: piped && !!spec.filter };
  }

  gitCommand(): Cmd {
    const g = this.pick(GIT);
    const flags = this.pick(g.flags);
    return { words: ['git', g.sub, ...(flags ? flags.split(' ') : [])] };
  }

  /** One hostile change to a command. */
  mutate(c: Cmd): Cmd {
    const w = [...c.words];
    const kind = this.int(10);
    if (kind === 0) {
      const spec = SPECS.find((s) => s.name === w[0]);
      const g = GIT.find((x) => w[0] === 'git' && x.sub === w[1]);
      const risky = g ? [...g.risky, ...GIT_RISKY_GLOBAL] : (spec?.risky ?? []);
      if (risky.length) {
        const r = this.pick(risky).split(' ');
        if (g && GIT_RISKY_GLOBAL.includes(r.join(' '))) w.splice(1, 0, ...r);
        else w.splice(w[0] === 'git' ? 2 : 1, 0, ...r);
        return { words: w.map((x) => x.replaceAll('pwned-gen', this.marker())) };
      }
    }
    if (kind <= 1) return { words: [...w.filter((x, i) => i === 0 || x.startsWith('-') || w[0] === 'git'), this.pick(OUTSIDE)] };
    if (kind === 2) return { words: [...w, ...this.pick(WRITE_REDIRECTS).replaceAll('pwned-gen', this.marker()).split(' ')] };
    if (kind === 3) return { words: [...w, ...this.pick(NET_REDIRECTS).split(' ')] };
    if (kind === 4) return { words: [...w, this.pick(PAYLOADS).replaceAll('pwned-gen', this.marker())] };
    if (kind === 5) return { words: [...this.pick(HOSTILE_WRAPPERS).split(' '), ...w] };
    if (kind === 6) return { words: [...this.pick(HOSTILE_ASSIGN).split(' '), ...w] };
    if (kind === 7 && ['cat', 'ls', 'git', 'grep'].includes(w[0]!)) return { words: [this.pick(PATH_PROGRAMS), ...w.slice(1)] };
    if (kind === 8) {
      const i = this.int(w.length);
      w[i] = this.pick(UNMODELLED)(w[i]!);
      return { words: w };
    }
    return { words: [...w, this.pick(PAYLOADS).replaceAll('pwned-gen', this.marker())] };
  }

  /** Harmless variations: quoting of words, a harmless redirection, a wrapper or an assignment. */
  dress(c: Cmd): string {
    let words = c.words.map((w, i) => (this.chance(0.25) ? this.quote(w, i === 0) : w));
    if (this.chance(0.12)) words = [...this.pick(BENIGN_WRAPPERS).split(' '), ...words];
    if (this.chance(0.08)) words = [this.pick(BENIGN_ASSIGN), ...words];
    if (this.chance(0.2)) words.push(this.pick(HARMLESS_REDIRECTS));
    if (!c.input && this.chance(0.05)) words.push('<', 'README.md');
    return words.join(' ');
  }

  /** The same word in another quoting form; only words without quotes or expansions are requoted. */
  quote(w: string, program: boolean): string {
    if (!/^[A-Za-z0-9_./,:%+=-]+$/.test(w) || w.length < 2) return w;
    const forms = [
      () => `'${w}'`,
      () => `"${w}"`,
      () => `'${w[0]}'${w.slice(1)}`,
      () => `${w.slice(0, 1)}\\${w.slice(1)}`,
      () => `${w.slice(0, 1)}''${w.slice(1)}`,
      () => `${w.slice(0, 1)}""${w.slice(1)}`,
      () => `"${w.slice(0, -1)}"${w.slice(-1)}`,
    ];
    // A backslash before these letters would make another character in $'…' but not here; keep all forms.
    return program && this.chance(0.5) ? forms[this.int(3)]!() : this.pick(forms)();
  }

  join(parts: string[]): string {
    let line = parts[0]!;
    for (const p of parts.slice(1)) line += ` ${this.pick(['|', '|', '|', '&&', ';', '||'])} ${p}`;
    return line;
  }

  /** Sometimes the whole line goes in a subshell, a group, a loop or a condition. */
  wrapLine(line: string): string {
    const k = this.int(14);
    if (k === 0) return `(${line})`;
    if (k === 1) return `{ ${line}; }`;
    if (k === 2) return `for f in README.md; do ${line}; done`;
    if (k === 3) return `if true; then ${line}; fi`;
    if (k === 4) return `eval '${line.replaceAll("'", `'\\''`)}'`;
    if (k === 5) return `bash -c '${line.replaceAll("'", `'\\''`)}'`;
    if (k === 6) return `${line}\n`;
    if (k === 7) return `echo ${this.marker()} | ${line}`;
    return line;
  }
}

export function generateCorpus(seed = SEED, count = LINES): string[] {
  const g = new Gen(mulberry32(seed));
  const seen = new Set<string>();
  const out: string[] = [];
  for (let i = 0; out.length < count && i < count * 20; i++) {
    const line = g.line();
    if (seen.has(line)) continue;
    seen.add(line);
    out.push(line);
  }
  return out;
}

export function generatedFileText(): string {
  const header = [
    '# Generated by test/support/shell-proof/generate-corpus.ts (seed 0x6b65656c); do not edit.',
    '# Regenerate: node --import=tsx test/support/shell-proof/generate-corpus.ts',
  ];
  return `${[...header, ...generateCorpus().map(corpusLine)].join('\n')}\n`;
}

if (require.main === module) {
  const file = path.join(CORPUS_DIR, 'generated.txt');
  fs.writeFileSync(file, generatedFileText());
  console.log(`wrote ${file}`);
}
