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
import {
  BENIGN_ASSIGN,
  BENIGN_WRAPPERS,
  CHAINED,
  type Cmd,
  GIT,
  GIT_RISKY_GLOBAL,
  HARMLESS_REDIRECTS,
  HOSTILE_ASSIGN,
  HOSTILE_WRAPPERS,
  NET_REDIRECTS,
  OUTSIDE,
  PATH_PROGRAMS,
  PAYLOADS,
  SPECS,
  UNMODELLED,
  WRITE_REDIRECTS,
} from './corpus-vocabulary.js';

export const SEED = 0x6b65656c;
const LINES = 900;

type Rng = () => number;

/** mulberry32: a tiny PRNG whose sequence is the same on every machine. */
function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
