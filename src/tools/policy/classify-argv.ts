// Judges one simple command's words (after its assignments): deny and allow rules, the program
// by the name written (a path-qualified program is whatever that file holds), wrappers unwrapped,
// test runners, risky programs, then the read-only allowlist. Unknown programs execute.
import { type CommandClassification, type Judgement, judgement, own, RANK, worst } from './command-class.js';
import { FIND } from './find-spec.js';
import { judgeGit } from './git-spec.js';
import { NotReadOnly, wordPath } from './program-args.js';
import { FILE_PROGRAMS, type ProgramSpec, TEXT_PROGRAMS } from './read-only-programs.js';
import { judgeRisky } from './risky-commands.js';
import { BUILTIN_PROGRAMS } from './shell-builtins.js';
import { displayText, hasGlob, isDynamic, staticValue, type Word } from './shell-word.js';
import { judgeTestRunner } from './test-runners.js';
import { unwrap } from './wrappers.js';

export interface CommandRules {
  /** Word prefixes ("npm run build") that are allowed like read-only commands. */
  allow: readonly (readonly string[])[];
  /** Word prefixes ("git push") that are refused outright. */
  deny: readonly (readonly string[])[];
}

export interface ArgvContext {
  rules: CommandRules;
  /** Standard input comes from a pipe. */
  piped: boolean;
  depth: number;
  /** Whether the program may be a bash builtin (false under env, exec, nice…, which run executables). */
  builtins: boolean;
  classifyScript(text: string): CommandClassification;
}

const MAX_DEPTH = 8;

const READ_ONLY: Record<string, ProgramSpec> = { ...FILE_PROGRAMS, ...TEXT_PROGRAMS, ...BUILTIN_PROGRAMS, find: FIND };

/** Builtins whose arguments bash evaluates in ways we do not model (subscripts, arithmetic, code). */
const NOT_MODELLED = new Map([
  ['eval', 'eval runs text as a command'],
  ['source', 'source runs a file as shell code'],
  ['.', '. runs a file as shell code'],
  ['let', 'let evaluates arithmetic'],
  ['declare', 'declare evaluates subscripts and arithmetic'],
  ['typeset', 'typeset evaluates subscripts and arithmetic'],
  ['local', 'local evaluates subscripts and arithmetic'],
  ['readonly', 'readonly evaluates subscripts and arithmetic'],
  ['read', 'read assigns to names whose subscripts run commands'],
  ['mapfile', 'mapfile assigns to names whose subscripts run commands'],
  ['readarray', 'readarray assigns to names whose subscripts run commands'],
  ['unset', 'unset evaluates subscripts'],
]);

/** Why some programs that only seem to read are not on the list. */
const UNLISTED_REASONS = new Map([
  ['printenv', 'printenv prints the environment'],
  ['export', 'export changes the environment of later commands (export -p prints it)'],
  ['jq', 'jq can print the environment ($ENV, env)'],
  ['less', 'less can run commands and open other files'],
  ['more', 'more can run commands'],
  ['tac', 'tac copies its input to a temporary file'],
  ['xxd', 'xxd writes its second operand'],
]);

/** The names of every program on the read-only allowlist (git and find included). */
export const READ_ONLY_PROGRAM_NAMES: readonly string[] = [...Object.keys(READ_ONLY), 'git'].sort();

export function judgeArgv(words: readonly Word[], ctx: ArgvContext): Judgement {
  const hasRules = ctx.rules.deny.length > 0 || ctx.rules.allow.length > 0;
  const argv = hasRules ? words.map(displayText) : [];
  if (startsWithAny(argv, ctx.rules.deny))
    return judgement('denied', `\`${argv.slice(0, 3).join(' ')}\` is denied by a command rule`, { programs: [argv[0]!] });
  const verdict = judgeProgram(words, ctx);
  if (RANK[verdict.type] < RANK.unparseable && startsWithAny(argv, ctx.rules.allow)) return allowedByRule(words, verdict);
  return verdict;
}

function judgeProgram(words: readonly Word[], ctx: ArgvContext): Judgement {
  const first = words[0]!;
  const name = staticValue(first);
  if (name === undefined)
    return judgement('execute', `runs a program whose name is computed at run time (${displayText(first)})`, {
      programs: [displayText(first)],
    });
  const args = words.slice(1);
  // `c?t` runs whatever file name it matches; a lone `[` matches only itself.
  if (hasGlob(first) && name !== '[')
    return judgement('execute', `the program name ${name} is a pattern bash expands to a file name`, { programs: [name] });
  if (name.includes('/')) return pathQualified(name, args, ctx);
  const refused = NOT_MODELLED.get(name);
  if (refused) return judgement('unparseable', refused, { programs: [name] });
  const wrapped = unwrap(name, args);
  if (!wrapped) return judgeNamed(name, args, ctx);
  if (wrapped.type !== 'unwrapped') return wrapped;
  if (ctx.depth >= MAX_DEPTH) return judgement('unparseable', 'wrappers nested too deeply', { programs: [name] });
  const inner = judgeArgv(wrapped.inner, { ...ctx, builtins: wrapped.builtins, depth: ctx.depth + 1 });
  const floor = wrapped.notReadOnly ? 'execute' : wrapped.sandboxOnly ? 'test_run' : 'read_only';
  const self = judgement(floor, wrapped.notReadOnly, {
    programs: [name],
    ...(wrapped.sandboxOnly ? { sandboxOnly: wrapped.sandboxOnly } : {}),
  });
  return { ...worst(self, inner), ...(inner.cd ? { cd: inner.cd } : {}) };
}

function judgeNamed(name: string, args: readonly Word[], ctx: ArgvContext): Judgement {
  const runner = judgeTestRunner(name, args);
  if (runner) return runner;
  const risky = judgeRisky(name, args, ctx);
  if (risky) return risky;
  if (name === 'git') return judgeGit(args);
  const spec = own(READ_ONLY, name);
  if (!spec) return judgement('execute', UNLISTED_REASONS.get(name) ?? `runs ${name}`, { programs: [name] });
  const programs = [name, ...(spec.runs ?? [])];
  if (spec.builtinOnly && !ctx.builtins)
    return judgement('execute', `${name} here is not the shell builtin but a program of that name`, { programs });
  try {
    const r = spec.judge(args);
    return judgement('read_only', undefined, { programs, paths: r.paths, ...(r.cd ? { cd: r.cd } : {}) });
  } catch (err) {
    if (!(err instanceof NotReadOnly)) throw err;
    return judgement(err.type, `${name}: ${err.message}`, { programs });
  }
}

/**
 * `./cat`, `bin/ls`, `/usr/bin/env`: only the network and danger of its name count; it never
 * reads only. A test runner the workspace holds (`.venv/bin/python -m pytest`,
 * `node_modules/.bin/jest`, `./gradlew --offline test`) is a test run, inside the sandbox only:
 * an earlier sandboxed run could have written the file.
 */
function pathQualified(name: string, args: readonly Word[], ctx: ArgvContext): Judgement {
  const named = judgeNamed(name.slice(name.lastIndexOf('/') + 1), args, ctx);
  if (RANK[named.type] >= RANK.network) return { ...named, programs: [name] };
  if (named.type === 'test_run' && inWorkspaceSpelling(name))
    return {
      ...named,
      programs: [name],
      sandboxOnly: named.sandboxOnly ?? `runs ${name}, a program in the workspace that an earlier run could have written`,
    };
  return judgement('execute', `runs ${name}, a program named by its path (whatever that file holds)`, { programs: [name] });
}

/** A path that stays in the folder the command starts in by its spelling: relative, no `..`. */
function inWorkspaceSpelling(name: string): boolean {
  return !name.startsWith('/') && !name.startsWith('~') && !name.split('/').includes('..');
}

/** A command the user allowed by rule: its operands may still name files outside the workspace. */
function allowedByRule(words: readonly Word[], verdict: Judgement): Judgement {
  const operands = words.slice(1).filter((w) => !(staticValue(w) ?? '').startsWith('-'));
  if (operands.some(isDynamic)) return judgement('execute', 'an argument is computed at run time', { programs: verdict.programs });
  try {
    return judgement('read_only', undefined, { programs: verdict.programs, paths: operands.map((w) => wordPath(w)) });
  } catch (err) {
    if (!(err instanceof NotReadOnly)) throw err;
    return judgement('execute', err.message, { programs: verdict.programs });
  }
}

function startsWithAny(argv: readonly string[], rules: readonly (readonly string[])[]): boolean {
  return rules.some((r) => r.length > 0 && r.length <= argv.length && r.every((t, i) => argv[i] === t));
}
