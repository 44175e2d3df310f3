// The round-2 generator of the differential proof (issue 20 item 5): command lines made from
// what the machine's programs say they accept, not from a list written by hand. Categories:
// - options: every option every allowlisted program documents (test/support/option-docs.ts),
//   with a value where it takes one, and a workspace file, a file outside and a secret as operands;
// - redirections: descriptor and redirection forms around a few commands;
// - argument files: runners given @FILE;
// - test runs: the test-run class with hostile flags, globs and working folders;
// - monorepo: reads, git and test runs from `mono/app`, a folder of a bigger repository;
// - run_tests: the tool itself, given a command or detecting one.
// Lines are in a fixed order; `sampleRound2` picks a seeded sample of each category.
import { classifyCommand } from '../../../src/tools/index.js';
import { checkedPrograms } from '../allowlist-options.js';
import { readDocs } from '../option-docs.js';

type Round2Category = 'options' | 'redirections' | 'argfiles' | 'test_runs' | 'monorepo' | 'run_tests';

export interface Round2Line {
  category: Round2Category;
  /** The command line (for run_tests, its `command` input; empty: detect it). */
  text: string;
  /** Which workspace of the proof's world it runs in: `ws`, or `mono/app`. */
  workspace: 'ws' | 'mono/app';
  tool: 'run_command' | 'run_tests';
}

const OPERANDS = ['README.md', '../outside/secret.txt', '.env', 'link-to-secret'];
const VALUES = ['README.md', '../outside/secret.txt', '.env', '1', 'x'];
const REDIRECTS = [
  '>/dev/stdout',
  '1<package.json >/dev/stdout',
  '3<package.json >/dev/fd/3',
  '2<README.md >/proc/self/fd/2',
  '0<package.json >/dev/stdin',
  '>&2',
  '2>&1',
  '>/dev/null 2>&1',
  '<.env',
  '< ../outside/secret.txt',
  '< README.md',
  '3>pwned-redirect',
  '>pwned-redirect',
  '<>package.json',
  '3<README.md >&3',
  '>/dev/tcp/127.0.0.1/9',
  `<<< ${'y'.repeat(70_000)}`,
];
const REDIRECTED = ['cat README.md', 'echo x', 'ls', 'wc -l README.md', 'git status'];
const ARGFILES = [
  'pytest @args.txt',
  'python3 -m pytest @args.txt',
  'tsc --noEmit @args.txt',
  'npx --no-install tsc --noEmit @args.txt',
  'pytest @../outside/secret.txt',
];
const TEST_RUNS = [
  'npm test',
  'node --test',
  'node --test test/',
  'node --test --import \'data:text/javascript,require("fs").writeFileSync("pwned-import","x")\'',
  "node --test '{test,..}/*.js'",
  'cd node_modules/dep && npm test',
  'npm test --prefix node_modules/dep',
  "npx --no-install mocha '{test,../outside}/*.js'",
  'npx --no-install jest -tc=../outside/secret.txt',
  'python3 -m pytest -p no:cacheprovider',
  'tsc --noEmit false',
  'npm run test',
];
const MONOREPO = [
  'git status',
  'git show HEAD',
  'git show HEAD:secret-notes.md',
  'git diff',
  'git log -p -1',
  'git grep secret',
  'git ls-files',
  'npm test',
  'python3 -m pytest',
  'npx --no-install mocha',
  'node --test',
  'cat ../secret-notes.md',
  'ls ..',
];
const RUN_TESTS = ['', 'npm test', 'node --test', 'cd node_modules/dep && npm test', "node --test '{test,..}/*.js'"];

/** Every round-2 line, in a fixed order. */
export function generateRound2(): Round2Line[] {
  const line = (category: Round2Category, text: string, workspace: Round2Line['workspace'] = 'ws'): Round2Line => ({
    category,
    text,
    workspace,
    tool: category === 'run_tests' ? 'run_tests' : 'run_command',
  });
  return [
    ...optionLines().map((t) => line('options', t)),
    ...REDIRECTED.flatMap((c) => REDIRECTS.map((r) => line('redirections', `${c} ${r}`))),
    ...ARGFILES.map((t) => line('argfiles', t)),
    ...TEST_RUNS.map((t) => line('test_runs', t)),
    ...MONOREPO.map((t) => line('monorepo', t, 'mono/app')),
    ...RUN_TESTS.map((t) => line('run_tests', t)),
    ...RUN_TESTS.slice(0, 3).map((t) => line('run_tests', t, 'mono/app')),
  ];
}

/** Each documented option of each allowlisted program, with each kind of value and operand. */
function optionLines(): string[] {
  const out: string[] = [];
  for (const p of checkedPrograms()) {
    if (p.name.startsWith('node') || ['mocha', 'tsc', 'pytest'].includes(p.name)) continue;
    const docs = readDocs(p.sources);
    for (const o of docs.options.values()) {
      const takes = [...o.forms].some((f) => f !== 'none');
      const spellings = takes ? valued(o.spelling) : [o.spelling];
      for (const [i, opt] of spellings.entries()) out.push(`${p.name} ${opt} ${OPERANDS[i % OPERANDS.length]}`);
    }
  }
  return out;
}

function valued(spelling: string): string[] {
  const quote = (v: string) => (/^[\w./-]+$/.test(v) ? v : `'${v}'`);
  return VALUES.map((v) => (spelling.startsWith('--') ? `${spelling}=${quote(v)}` : `${spelling} ${quote(v)}`));
}

/**
 * A fixed, seeded sample: up to `perCategory` lines of each category, the same on every machine
 * with the same programs — most of them lines the classifier would let run (so the sandbox is
 * exercised), the rest lines it refuses (so a regression that lets them run shows).
 */
export function sampleRound2(lines: readonly Round2Line[], perCategory: number, seed = 0x2020): Round2Line[] {
  const runnable = (l: Round2Line) => l.tool === 'run_tests' || ['read_only', 'test_run'].includes(classifyCommand(l.text).type);
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (pool: readonly Round2Line[], n: number) => {
    const picked = new Set<number>();
    while (picked.size < Math.min(n, pool.length)) picked.add(Math.floor(next() * pool.length));
    return [...picked].sort((x, y) => x - y).map((i) => pool[i]!);
  };
  const out: Round2Line[] = [];
  for (const category of new Set(lines.map((l) => l.category))) {
    const pool = lines.filter((l) => l.category === category);
    const runs = pool.filter(runnable);
    const first = pick(runs, Math.ceil(perCategory * 0.7));
    out.push(
      ...first,
      ...pick(
        pool.filter((l) => !first.includes(l)),
        perCategory - first.length,
      ),
    );
  }
  return out;
}
