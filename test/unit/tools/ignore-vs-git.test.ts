// Property test: on random trees with random .gitignore files (seeded, reproducible), the paths
// list_files leaves out are exactly those git ignores (`git check-ignore --no-index`, one batch
// for all cases). The patterns mix names from the tree with wildcards, `**`, brackets (ranges,
// negation, `]` first, POSIX classes, unclosed ones), escapes, negation, anchors, comments and
// trailing spaces and tabs.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { walk } from '../../../src/tools/ignore/walk.js';

const SEED = Number(process.env.KEEL_IGNORE_SEED ?? 20_261_123);
const CASES = 320;

type Tree = { [name: string]: Tree | string };

interface Case {
  dir: string;
  ignoreFiles: Record<string, string>;
  paths: string[];
}

describe('ignore rules agree with git check-ignore', function () {
  this.timeout(60_000);
  let root: string;
  before(() => {
    root = mkdtempSync(path.join(tmpdir(), 'keel-ignore-git-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it(`on ${CASES} random trees and ignore files (seed ${SEED}): no mismatch`, async () => {
    const rand = mulberry32(SEED);
    const cases = Array.from({ length: CASES }, (_, k) => makeCase(rand, `c${k}`));
    for (const c of cases) writeCase(root, c);
    const git = gitIgnored(
      root,
      cases.flatMap((c) => c.paths),
    );
    const ws = await createNodeWorkspace(root);
    const mismatches: string[] = [];
    let compared = 0;
    for (const c of cases) {
      const shown = new Set<string>();
      for await (const e of walk(ws, c.dir, { recursive: true })) shown.add(e.path);
      for (const p of c.paths) {
        compared++;
        const keelIgnores = !shown.has(p);
        if (keelIgnores !== git.has(p) && mismatches.length < 10)
          mismatches.push(
            `${JSON.stringify(p)}: git ${git.has(p) ? 'ignores' : 'keeps'} it, Keel ${keelIgnores ? 'ignores' : 'keeps'} it; ignore files ${JSON.stringify(c.ignoreFiles)}`,
          );
      }
    }
    assert.ok(compared > CASES * 5, `only ${compared} paths compared`);
    assert.deepEqual(mismatches, []);
  });
});

/** Paths git ignores, asked in one batch (NUL-separated, so any file name passes). */
function gitIgnored(root: string, paths: string[]): Set<string> {
  const home = path.join(root, '.home');
  mkdirSync(home, { recursive: true });
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: path.join(home, 'none') };
  execFileSync('git', ['init', '-q'], { cwd: root, env });
  let out = '';
  try {
    out = execFileSync('git', ['check-ignore', '--stdin', '-z', '-v', '-n', '--no-index'], {
      cwd: root,
      env,
      input: `${paths.join('\0')}\0`,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (err) {
    // Exit 1 only says that nothing was ignored.
    out = (err as { stdout?: string }).stdout ?? '';
  }
  const fields = out.split('\0');
  const ignored = new Set<string>();
  for (let i = 0; i + 3 < fields.length; i += 4) {
    const [pattern, p] = [fields[i + 2]!, fields[i + 3]!];
    if (pattern !== '' && !pattern.startsWith('!')) ignored.add(p);
  }
  return ignored;
}

function writeCase(root: string, c: Case): void {
  for (const p of c.paths) {
    const abs = path.join(root, p);
    if (p.endsWith('.gitignore')) continue;
    if (c.paths.some((q) => q.startsWith(`${p}/`))) mkdirSync(abs, { recursive: true });
    else {
      mkdirSync(path.dirname(abs), { recursive: true });
      writeFileSync(abs, 'x\n');
    }
  }
  for (const [rel, text] of Object.entries(c.ignoreFiles)) writeFileSync(path.join(root, c.dir, rel), text);
}

// ——— random cases ———

type Rand = () => number;

function mulberry32(seed: number): Rand {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rand: Rand, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

/** File and folder names, many with characters that patterns treat specially. */
const NAMES = [
  'a',
  'b',
  'ab',
  'A',
  'B.TS',
  'x1',
  '1',
  '9z',
  '.h',
  'a.ts',
  'b.js',
  'c.md',
  ']',
  '[',
  '[a]',
  '!n',
  '#c',
  'sp ',
  't\t',
  'q?',
  'st*',
  'z-9',
  'a b',
  'b\\s',
  'x_y',
  '~',
  'ab.ts',
];

function makeTree(rand: Rand, depth: number): Tree {
  const tree: Tree = {};
  const count = 1 + Math.floor(rand() * (depth === 0 ? 5 : 3));
  for (let i = 0; i < count; i++) {
    const name = pick(rand, NAMES);
    if (name in tree) continue;
    tree[name] = depth < 2 && rand() < 0.4 ? makeTree(rand, depth + 1) : 'file';
  }
  return tree;
}

function pathsOf(tree: Tree, prefix: string): string[] {
  return Object.entries(tree).flatMap(([name, sub]) => {
    const p = `${prefix}/${name}`;
    return typeof sub === 'string' ? [p] : [p, ...pathsOf(sub, p)];
  });
}

function makeCase(rand: Rand, dir: string): Case {
  const tree = makeTree(rand, 0);
  const ignoreFiles: Record<string, string> = { '.gitignore': ignoreText(rand, tree, 1 + Math.floor(rand() * 5)) };
  const subdirs = Object.entries(tree).filter(([, sub]) => typeof sub !== 'string');
  if (subdirs.length && rand() < 0.5) {
    const [name, sub] = pick(rand, subdirs);
    ignoreFiles[`${name}/.gitignore`] = ignoreText(rand, sub as Tree, 1 + Math.floor(rand() * 3));
  }
  const paths = pathsOf(tree, dir);
  paths.push(...Object.keys(ignoreFiles).map((f) => `${dir}/${f}`));
  return { dir, ignoreFiles, paths };
}

const SEGMENTS = [
  '*',
  '**',
  '***',
  '?',
  '*.ts',
  'a*',
  '*b',
  '*s',
  'a**',
  '**b',
  '[ab]*',
  '[!a]*',
  '[^a]*',
  '[]]',
  '[!]]',
  '[]a]*',
  '[!]a]',
  '[a-c]*',
  '[z-a]',
  '[-a]*',
  '[a-]*',
  '[[]',
  '[\\]]',
  '[a',
  '[[:alpha:]]*',
  '[[:digit:]]*',
  '[[:upper:]]*',
  '[[:lower:]]',
  '[[:punct:]]',
  '[[:space:]]*',
  '[[:alnum:]]?',
  '[[:blank:]]*',
  '[[:xdigit:]]*',
  '[![:alpha:]]*',
  '[[:alpha:][:digit:]]*',
  '[[:bogus:]]',
  '[[:alpha:]',
  '[[:al]pha:]]',
  '[a[:]',
  '\\*',
  '\\[a]',
  '\\!n',
  '\\#c',
  'st\\*',
  'q\\?',
  't\t',
  'sp ',
  'sp\\ ',
  'a b',
  'b\\\\s',
];

function ignoreText(rand: Rand, tree: Tree, lines: number): string {
  const names = pathsOf(tree, '').map((p) => p.slice(1));
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(patternLine(rand, names));
  return out.join(rand() < 0.2 ? '\r\n' : '\n') + (rand() < 0.7 ? '\n' : '');
}

function patternLine(rand: Rand, names: string[]): string {
  const r = rand();
  if (r < 0.05) return '# a comment';
  if (r < 0.08) return '';
  const parts: string[] = [];
  const count = rand() < 0.6 ? 1 : rand() < 0.7 ? 2 : 3;
  for (let i = 0; i < count; i++) {
    if (names.length && rand() < 0.45) {
      const name = pick(rand, names);
      parts.push(rand() < 0.5 ? name.split('/').pop()! : name);
    } else parts.push(pick(rand, SEGMENTS));
  }
  let line = parts.join('/');
  if (rand() < 0.15) line = `/${line}`;
  if (rand() < 0.15) line = `${line}/`;
  if (rand() < 0.25) line = `!${line}`;
  if (rand() < 0.15) line += pick(rand, [' ', '  ', '\t', ' \t', '\\ ', '\\  ', '\t ']);
  return line;
}
