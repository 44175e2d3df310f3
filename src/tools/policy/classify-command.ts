// Classifies a whole command line, as `bash --noprofile --norc -c LINE` runs it: every simple
// command (across lists, pipelines, subshells, groups, if/while/for and command substitutions),
// every redirection and assignment is judged, and the worst judgement wins. `cd` is followed:
// each relative path is reported under every directory its command may run in.
import { splitAssignment, unsafeAssignment } from './assignments.js';
import { type CommandRules, judgeArgv } from './classify-argv.js';
import {
  type CommandClass,
  type CommandClassification,
  type CommandPath,
  judgement,
  type Judgement,
  type LocatedProgram,
  RANK,
  readPath,
} from './command-class.js';
import { wordPath } from './program-args.js';
import { judgeRedirect } from './redirects.js';
import { lex } from './shell-lexer.js';
import {
  type CompoundCommand,
  type Pipeline,
  parseLine,
  parseTokens,
  type ShellCommand,
  type ShellList,
  type SimpleCommand,
} from './shell-parser.js';
import { displayText, escapePattern, hasGlob, staticValue, type Word } from './shell-word.js';

export type { CommandClass, CommandClassification } from './command-class.js';

const MAX_REASONS = 5;
/** More directories than this after `cd`s and the command asks rather than multiplying paths. */
const MAX_CWDS = 16;
const NO_RULES: CommandRules = { allow: [], deny: [] };

/** Turns "npm run build" into the word list the rules compare against. */
export function ruleTokens(rule: string): string[] {
  const lexed = lex(rule);
  return lexed.type === 'ok' ? lexed.tokens.flatMap((t) => (t.type === 'word' ? [displayText(t.word)] : [])) : [];
}

export function classifyCommand(commandLine: string, rules: CommandRules = NO_RULES): CommandClassification {
  return classifyAt(commandLine, rules, 0);
}

/** Judges each top-level pipeline as soon as it is parsed, so a long line's structure is never held whole. */
function classifyAt(line: string, rules: CommandRules, depth: number): CommandClassification {
  const walker = new Walker(rules, depth);
  const scope: Scope = { cwds: ['.'], inLoop: false };
  const parsed = parseLine(line, (pipeline) => walker.pipeline(pipeline, scope));
  if (parsed.type === 'refused') return refused(`it uses ${parsed.reason}`);
  if (parsed.pipelines === 0) return refused('the command is empty');
  return walker.result();
}

function refused(why: string): CommandClassification {
  return { type: 'unparseable', reasons: [`cannot be checked: ${why}`], programs: [], paths: [] };
}

interface Scope {
  /** Every directory (relative to the start, lexically normalised as `cd` does) the next command may run in. */
  cwds: string[];
  inLoop: boolean;
}

const fork = (s: Scope): Scope => ({ cwds: s.cwds, inLoop: s.inLoop });

class Walker {
  private type: CommandClass = 'read_only';
  /** Why, by how much it matters: the worst reasons are the ones shown. */
  private readonly reasons = new Map<string, number>();
  private readonly programs = new Set<string>();
  private readonly paths = new Map<string, CommandPath>();
  private readonly located = new Map<string, LocatedProgram>();
  private sandboxOnly: string | undefined;

  constructor(
    private readonly rules: CommandRules,
    private readonly depth: number,
  ) {}

  result(): CommandClassification {
    const reasons = [...this.reasons].sort((a, b) => b[1] - a[1]).slice(0, MAX_REASONS);
    return {
      type: this.type,
      reasons: reasons.map(([r]) => r),
      programs: [...this.programs],
      paths: [...this.paths.values()],
      located: [...this.located.values()],
      ...(this.sandboxOnly ? { sandboxOnly: this.sandboxOnly } : {}),
    };
  }

  list(list: ShellList, scope: Scope): void {
    for (const item of list.items) {
      const s = item.background ? fork(scope) : scope;
      for (const p of item.pipelines) this.pipeline(p, s);
    }
  }

  pipeline(p: Pipeline, scope: Scope): void {
    // Each part of a real pipeline runs in a subshell of its own: its `cd` stays there.
    const many = p.commands.length > 1;
    for (const [i, c] of p.commands.entries()) this.command(c, many ? fork(scope) : scope, i > 0);
  }

  private command(c: ShellCommand, scope: Scope, piped: boolean): void {
    if (c.type === 'simple') return this.simple(c, scope, piped);
    this.compound(c, scope);
  }

  private compound(c: CompoundCommand, scope: Scope): void {
    for (const r of c.redirects) this.substitutions(r.target, scope);
    for (const r of c.redirects) this.record(judgeRedirect(r), scope);
    for (const w of c.words) this.loopWord(w, scope);
    const looping = c.kind === 'while' || c.kind === 'until' || c.kind === 'for';
    const inner = c.kind === 'subshell' || looping ? { ...fork(scope), inLoop: scope.inLoop || looping } : scope;
    for (const l of c.lists) this.list(l, inner);
  }

  private simple(cmd: SimpleCommand, scope: Scope, piped: boolean): void {
    for (const w of cmd.assignments) this.substitutions(w, scope);
    for (const w of cmd.words) this.substitutions(w, scope);
    for (const r of cmd.redirects) this.substitutions(r.target, scope);
    const redirects = cmd.redirects.map(judgeRedirect);
    for (const j of redirects) this.record(j, scope);
    for (const a of cmd.assignments) this.assignment(a, scope);
    if (cmd.words.length === 0) return;
    if (cmd.words.length === 1 && staticValue(cmd.words[0]!) === 'exec') {
      // `exec 3<file`: the descriptors stay open for the rest of the line, out of our sight.
      const network = redirects.some((j) => j.type === 'network');
      const why = 'exec with only redirections changes the open files of the rest of the line';
      this.record(judgement(network ? 'read_only' : 'unparseable', network ? undefined : why, { programs: ['exec'] }), scope);
      return;
    }
    const classifyScript = (text: string) => classifyAt(text, this.rules, this.depth + 1);
    const j = judgeArgv(cmd.words, { rules: this.rules, piped, depth: this.depth, builtins: true, classifyScript });
    this.record(j, scope);
    if (j.cd !== undefined) this.changeDirectory(j.cd, scope);
  }

  private assignment(a: Word, scope: Scope): void {
    const text = staticValue(a);
    const { name, value } = splitAssignment(text ?? displayText(a));
    const unsafe = unsafeAssignment(name, text === undefined ? undefined : value);
    if (unsafe) this.record(judgement('execute', unsafe), scope);
  }

  /** A `for` loop's words are only iterated over, but a glob among them lists a folder. */
  private loopWord(w: Word, scope: Scope): void {
    this.substitutions(w, scope);
    if (hasGlob(w)) this.record(judgement('read_only', undefined, { paths: [wordPath(w)] }), scope);
  }

  /** `$(…)` and backticks run in a subshell, before the command that holds them. */
  private substitutions(w: Word, scope: Scope): void {
    for (const part of w.parts) {
      if (part.type !== 'command') continue;
      const parsed = parseTokens(part.tokens);
      if (parsed.type === 'refused') this.record(judgement('unparseable', `cannot be checked: it uses ${parsed.reason}`), scope);
      else this.list(parsed.list, fork(scope));
    }
  }

  private changeDirectory(target: string, scope: Scope): void {
    if (scope.inLoop) return this.record(judgement('execute', 'changes directory inside a loop'), scope);
    const next = new Set(scope.cwds);
    for (const c of scope.cwds) next.add(normalize(target.startsWith('/') || c === '.' ? target : `${c}/${target}`));
    if (next.size > MAX_CWDS) return this.record(judgement('execute', 'changes directory in too many ways to follow'), scope);
    scope.cwds = [...next];
  }

  private record(j: Judgement, scope: Scope): void {
    if (RANK[j.type] > RANK[this.type]) this.type = j.type;
    if (j.type !== 'read_only' && j.reason && (this.reasons.get(j.reason) ?? -1) < RANK[j.type]) this.reasons.set(j.reason, RANK[j.type]);
    for (const p of j.programs) this.programs.add(p);
    this.sandboxOnly ??= j.sandboxOnly;
    for (const l of j.located ?? []) {
      for (const cwd of scope.cwds) {
        const placed = { ...l, cwd: placeIn(cwd, readPath(l.cwd)).path };
        this.located.set(`${placed.kind} ${placed.name} ${placed.cwd}`, placed);
      }
    }
    for (const p of j.paths) {
      for (const cwd of scope.cwds) {
        const placed = placeIn(cwd, p);
        const key = `${placed.access} ${placed.glob ? 'glob' : 'path'} ${placed.path}`;
        const seen = this.paths.get(key);
        this.paths.set(key, seen ? { ...seen, ...placed } : placed);
      }
    }
  }
}

/** A path as seen from the starting directory, when its command runs in `cwd`. */
function placeIn(cwd: string, p: CommandPath): CommandPath {
  if (cwd === '.' || p.path.startsWith('/') || p.path.startsWith('~')) return p;
  if (p.path === '.' || p.path === '') return { ...p, path: p.glob ? escapePattern(cwd) : cwd };
  return { ...p, path: `${p.glob ? escapePattern(cwd) : cwd}/${p.path}` };
}

/** Lexical normalisation, as `cd` (without -P) does: `a/./b/../c` → `a/c`; leading `..` kept. */
function normalize(path: string): string {
  const absolute = path.startsWith('/');
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..' && out.length && out[out.length - 1] !== '..') out.pop();
    else if (seg !== '..' || !absolute) out.push(seg);
  }
  const joined = out.join('/');
  if (absolute) return `/${joined}`;
  if (joined === '') return '.';
  // A directory literally named `~x` must not read as a home folder later.
  return joined.startsWith('~') ? `./${joined}` : joined;
}
