// Judges one simple command (its words after assignments) by what the program is and does.
import type { Word } from './shell-lexer.js';
import {
  DANGEROUS_COMMANDS,
  GIT_NETWORK,
  GIT_READ_ONLY,
  INSTALLERS,
  INTERPRETERS,
  NETWORK_COMMANDS,
  READ_ONLY,
  SHELLS,
  TEST_RUNNERS,
  WRAPPERS,
} from './command-lists.js';
import type { CommandClassification } from './classify-command.js';

export interface ArgvVerdict {
  type: CommandClassification['type'];
  reason: string;
}

export interface CommandRules {
  /** Word prefixes ("npm run build") that are allowed like read-only commands. */
  allow: readonly (readonly string[])[];
  /** Word prefixes ("git push") that are refused outright. */
  deny: readonly (readonly string[])[];
}

export interface ArgvContext {
  piped: boolean;
  rules: CommandRules;
  depth: number;
  classifyLine(text: string): CommandClassification;
}

const MAX_DEPTH = 8;
const OPTION_ARGS: Record<string, Set<string>> = {
  env: new Set(['-u', '--unset', '-C', '--chdir', '-S']),
  xargs: new Set(['-I', '-n', '-P', '-d', '-L', '-s', '-E', '-a']),
  nice: new Set(['-n']),
  ionice: new Set(['-c', '-n', '-p']),
  stdbuf: new Set(['-o', '-e', '-i']),
  timeout: new Set(['-s', '--signal', '-k', '--kill-after']),
};
const DANGEROUS_RM_TARGETS = new Set(['/', '/*', '~', '~/', '~/*', '*', '.', './', '..', '../', '../*', '$HOME', '${HOME}']);

const ok = (reason = ''): ArgvVerdict => ({ type: 'read_only', reason });
const exec = (reason: string): ArgvVerdict => ({ type: 'execute', reason });
const net = (reason: string): ArgvVerdict => ({ type: 'network', reason });
const danger = (reason: string): ArgvVerdict => ({ type: 'dangerous', reason });

export function classifyArgv(words: readonly Word[], ctx: ArgvContext): ArgvVerdict {
  const argv = words.map((w) => w.value);
  if (startsWithAny(argv, ctx.rules.deny))
    return { type: 'denied', reason: `\`${argv.slice(0, 3).join(' ')}\` is denied by a command rule` };
  if (words[0]!.dynamic) return exec(`runs a command whose name is computed at run time (${argv[0]})`);
  const verdict = judgeProgram(words, argv, ctx);
  if (verdict.type !== 'dangerous' && verdict.type !== 'denied' && startsWithAny(argv, ctx.rules.allow)) return ok();
  return verdict;
}

function judgeProgram(words: readonly Word[], argv: string[], ctx: ArgvContext): ArgvVerdict {
  const name = argv[0]!.slice(argv[0]!.lastIndexOf('/') + 1);
  const args = argv.slice(1);
  if (DANGEROUS_COMMANDS.has(name) || name.startsWith('mkfs')) return danger(DANGEROUS_COMMANDS.get(name) ?? `formats a disk (${name})`);
  if (WRAPPERS.has(name)) return wrapped(name, words.slice(1), ctx);
  if (SHELLS.has(name)) return shell(name, words.slice(1), ctx);
  if (name === 'eval') return { type: 'unparseable', reason: 'eval runs text as a command' };
  if (name === 'source' || name === '.') return exec(`runs a shell script (${name})`);
  if (name === 'git') return git(args);
  if (name === 'npx') return npx(args);
  if (name === 'npm' || name === 'yarn' || name === 'pnpm' || name === 'bun') return packageScript(name, args);
  if (name === 'go' || name === 'cargo') return toolchain(name, args);
  if (INTERPRETERS.has(name)) return interpreter(name, args, ctx.piped);
  if (INSTALLERS[name])
    return INSTALLERS[name]!.has(firstOperand(args)) ? net(`${name} ${firstOperand(args)} downloads packages`) : exec(`runs ${name}`);
  if (NETWORK_COMMANDS.has(name)) return net(`${name} uses the network`);
  if (TEST_RUNNERS.has(name)) return ok();
  if (name === 'tsc') return args.includes('--noEmit') ? ok() : exec('tsc writes compiled files');
  if (name === 'find') return find(args);
  if (name === 'sort') return args.some((a) => a === '-o' || a.startsWith('--output')) ? exec('sort -o writes a file') : ok();
  if (name === 'rm') return rm(args);
  if (['chmod', 'chown', 'chgrp'].includes(name) && args.some((a) => DANGEROUS_RM_TARGETS.has(a)))
    return danger(`${name} on ${args.find((a) => DANGEROUS_RM_TARGETS.has(a))}`);
  if (READ_ONLY.has(name)) return ok();
  return exec(`runs ${name}`);
}

function wrapped(name: string, rest: readonly Word[], ctx: ArgvContext): ArgvVerdict {
  const withArg = OPTION_ARGS[name] ?? new Set<string>();
  let i = 0;
  while (i < rest.length) {
    const v = rest[i]!.value;
    if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(v)) i++;
    else if (v.startsWith('-') && v !== '-') i += withArg.has(v) ? 2 : 1;
    else break;
  }
  if (name === 'timeout' && i < rest.length) i++; // the duration
  const inner = rest.slice(i);
  if (inner.length === 0) return ok();
  if (ctx.depth >= MAX_DEPTH) return { type: 'unparseable', reason: 'wrappers nested too deeply' };
  return classifyArgv(inner, { ...ctx, depth: ctx.depth + 1 });
}

function shell(name: string, rest: readonly Word[], ctx: ArgvContext): ArgvVerdict {
  const c = rest.findIndex((w) => /^-[a-z]*c[a-z]*$/.test(w.value));
  if (c >= 0) {
    const script = rest[c + 1];
    if (!script || script.dynamic) return { type: 'unparseable', reason: `${name} -c runs text computed at run time` };
    if (ctx.depth >= MAX_DEPTH) return { type: 'unparseable', reason: 'shells nested too deeply' };
    const inner = ctx.classifyLine(script.value);
    return { type: inner.type, reason: inner.reasons[0] ?? '' };
  }
  const file = rest.find((w) => !w.value.startsWith('-'));
  if (file) return exec(`runs the shell script ${file.value}`);
  return ctx.piped ? danger(`pipes data into ${name}, which runs it as code`) : exec(`starts ${name}`);
}

function interpreter(name: string, args: string[], piped: boolean): ArgvVerdict {
  if (args.length === 1 && /^(-v|-V|--version)$/.test(args[0]!)) return ok();
  if (name === 'node' && args.includes('--test')) return ok();
  if (name.startsWith('python') && args[0] === '-m') {
    if (args[1] === 'pytest') return ok();
    if (args[1] === 'pip')
      return ['install', 'download', 'wheel'].includes(args[2] ?? '') ? net(`pip ${args[2]} downloads packages`) : exec('runs pip');
  }
  const script = args.find((a) => !a.startsWith('-'));
  if (piped && !script && !args.some((a) => /^(-e|-c|-p|--eval|--print)$/.test(a)))
    return danger(`pipes data into ${name}, which runs it as code`);
  return exec(`runs ${name}${script ? ` ${script}` : ''}`);
}

function git(args: string[]): ArgvVerdict {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) i += args[i] === '-C' || args[i] === '-c' ? 2 : 1;
  const sub = args[i] ?? '';
  const rest = args.slice(i + 1);
  if (GIT_NETWORK.has(sub) || (sub === 'remote' && rest[0] === 'update')) return net(`git ${sub} uses the network`);
  if (sub === 'reset' && rest.includes('--hard')) return danger('git reset --hard discards uncommitted work');
  if (sub === 'clean' && rest.some((a) => /^-[a-zA-Z]*f/.test(a) || a === '--force')) return danger('git clean -f deletes untracked files');
  if (GIT_READ_ONLY.has(sub) || sub === '') return ok();
  const onlyFlags = (allowed: string[]) => rest.every((a) => allowed.includes(a));
  if (sub === 'branch' && onlyFlags(['-a', '-r', '-v', '-vv', '--list', '-l', '--show-current', '--all'])) return ok();
  if ((sub === 'tag' || sub === 'remote') && onlyFlags(['-l', '--list', '-v'])) return ok();
  if (sub === 'stash' && (rest[0] === 'list' || rest[0] === 'show')) return ok();
  if (sub === 'config' && rest.some((a) => ['--get', '--list', '-l', '--get-all'].includes(a))) return ok();
  return exec(`git ${sub} changes the repository`);
}

function npx(args: string[]): ArgvVerdict {
  const target = firstOperand(args.filter((a) => a !== '-y' && a !== '--yes'));
  if (TEST_RUNNERS.has(target)) return ok();
  if (target === 'tsc' && args.includes('--noEmit')) return ok();
  return net(`npx ${target} may download and run a package`);
}

function packageScript(name: string, args: string[]): ArgvVerdict {
  const sub = firstOperand(args);
  if (['test', 't', 'tst'].includes(sub)) return ok();
  if ((sub === 'run' || sub === 'run-script') && firstOperand(args.slice(args.indexOf(sub) + 1)) === 'test') return ok();
  if (INSTALLERS[name]!.has(sub)) return net(`${name} ${sub || 'install'} downloads packages`);
  if (args.length === 1 && /^(-v|--version)$/.test(args[0]!)) return ok();
  if (['ls', 'list', 'why', 'explain'].includes(sub)) return ok();
  return exec(`${name} ${sub} runs a package script`);
}

function toolchain(name: string, args: string[]): ArgvVerdict {
  const sub = firstOperand(args);
  if (sub === 'test' || sub === 'vet' || sub === 'version' || (name === 'go' && sub === 'env')) return ok();
  if (INSTALLERS[name]!.has(sub)) return net(`${name} ${sub} downloads packages`);
  return exec(`${name} ${sub} builds or runs code`);
}

function find(args: string[]): ArgvVerdict {
  const act = args.find((a) => ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'].includes(a));
  return act ? exec(`find ${act} ${act === '-delete' ? 'deletes files' : act.startsWith('-f') ? 'writes a file' : 'runs commands'}`) : ok();
}

function rm(args: string[]): ArgvVerdict {
  const recursive = args.some((a) => /^-[a-zA-Z]*[rR]/.test(a) || a === '--recursive');
  const target = args.find((a) => DANGEROUS_RM_TARGETS.has(a) || /^\/[^/]*\/?$/.test(a));
  if (recursive && target) return danger(`rm deletes ${target} recursively`);
  return exec('rm deletes files');
}

function firstOperand(args: readonly string[]): string {
  return args.find((a) => !a.startsWith('-')) ?? '';
}

function startsWithAny(argv: readonly string[], rules: readonly (readonly string[])[]): boolean {
  return rules.some((r) => r.length > 0 && r.length <= argv.length && r.every((t, i) => argv[i] === t));
}
