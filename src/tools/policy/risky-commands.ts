// Programs judged by what they are rather than by an allowlist: ones that reach the network
// (fetchers, installers, npx), destroy (sudo, dd, rm -rf /), or run code they are given (shells,
// interpreters). Their class decides how firmly the policy asks; none of them is read-only.
import type { CommandClassification, Judgement } from './command-class.js';
import { judgement, own } from './command-class.js';
import { DANGEROUS_COMMANDS, INSTALLERS, INTERPRETERS, NETWORK_COMMANDS, SHELLS } from './command-lists.js';
import { displayText, staticValue, type Word } from './shell-word.js';

export interface RiskContext {
  /** Standard input comes from a pipe (`curl … | sh`). */
  piped: boolean;
  depth: number;
  classifyScript(text: string): CommandClassification;
}

const MAX_DEPTH = 8;
const DANGEROUS_RM_TARGETS = new Set(['/', '/*', '~', '~/', '~/*', '*', '.', './', '..', '../', '../*', '$HOME', '${HOME}']);

/** A judgement for risky programs, or undefined when `name` is none of them. */
export function judgeRisky(name: string, args: readonly Word[], ctx: RiskContext): Judgement | undefined {
  const argv = args.map(displayText);
  const as = (type: Judgement['type'], reason: string) => judgement(type, reason, { programs: [name] });
  if (DANGEROUS_COMMANDS.has(name) || name.startsWith('mkfs'))
    return as('dangerous', DANGEROUS_COMMANDS.get(name) ?? `formats a disk (${name})`);
  if (SHELLS.has(name)) return shell(name, args, ctx);
  if (name === 'npx') return as('network', `npx ${firstOperand(argv)} may download and run a package`);
  const installs = own(INSTALLERS, name);
  if (installs) return installer(name, installs, argv);
  if (INTERPRETERS.has(name)) return interpreter(name, argv, ctx.piped);
  if (NETWORK_COMMANDS.has(name)) return as('network', `${name} uses the network`);
  if (name === 'rm') return rm(argv);
  if (['chmod', 'chown', 'chgrp'].includes(name) && argv.some((a) => DANGEROUS_RM_TARGETS.has(a)))
    return as('dangerous', `${name} on ${argv.find((a) => DANGEROUS_RM_TARGETS.has(a))}`);
  return undefined;
}

function shell(name: string, args: readonly Word[], ctx: RiskContext): Judgement {
  const programs = [name];
  const c = args.findIndex((w) => /^-[a-z]*c[a-z]*$/.test(staticValue(w) ?? ''));
  if (c >= 0) {
    const script = args[c + 1] ? staticValue(args[c + 1]!) : undefined;
    if (script === undefined) return judgement('unparseable', `${name} -c runs text computed at run time`, { programs });
    if (ctx.depth >= MAX_DEPTH) return judgement('unparseable', 'shells nested too deeply', { programs });
    const inner = ctx.classifyScript(script);
    const type = inner.type === 'read_only' || inner.type === 'test_run' ? 'execute' : inner.type;
    return judgement(type, inner.reasons[0] ?? `starts ${name}`, { programs: [name, ...inner.programs], paths: inner.paths });
  }
  const file = args.find((w) => !(staticValue(w) ?? '').startsWith('-'));
  if (file) return judgement('execute', `runs the shell script ${displayText(file)}`, { programs });
  return ctx.piped
    ? judgement('dangerous', `pipes data into ${name}, which runs it as code`, { programs })
    : judgement('execute', `starts ${name}`, { programs });
}

function interpreter(name: string, argv: string[], piped: boolean): Judgement {
  const programs = [name];
  if (name.startsWith('python') && argv[0] === '-m' && argv[1] === 'pip') {
    const sub = argv[2] ?? '';
    return ['install', 'download', 'wheel'].includes(sub)
      ? judgement('network', `pip ${sub} downloads packages`, { programs })
      : judgement('execute', 'runs pip', { programs });
  }
  const script = argv.find((a) => !a.startsWith('-'));
  if (piped && !script && !argv.some((a) => /^(-e|-c|-p|--eval|--print)$/.test(a)))
    return judgement('dangerous', `pipes data into ${name}, which runs it as code`, { programs });
  return judgement('execute', `runs ${name}${script ? ` ${script}` : ''}`, { programs });
}

function installer(name: string, installs: ReadonlySet<string>, argv: string[]): Judgement {
  const sub = firstOperand(argv);
  if (installs.has(sub)) return judgement('network', `${name} ${sub || 'install'} downloads packages`, { programs: [name] });
  return judgement('execute', `${name} ${sub} runs a package script or builds code`.replace(/ {2}/, ' '), { programs: [name] });
}

function rm(argv: string[]): Judgement {
  const recursive = argv.some((a) => /^-[a-zA-Z]*[rR]/.test(a) || a === '--recursive');
  const target = argv.find((a) => DANGEROUS_RM_TARGETS.has(a) || /^\/[^/]*\/?$/.test(a));
  if (recursive && target) return judgement('dangerous', `rm deletes ${target} recursively`, { programs: ['rm'] });
  return judgement('execute', 'rm deletes files', { programs: ['rm'] });
}

function firstOperand(args: readonly string[]): string {
  return args.find((a) => !a.startsWith('-')) ?? '';
}
