// Classifies a whole command line by parsing it: every simple command (across chains, pipes,
// subshells and substitutions) and every redirection is judged, and the worst one wins.
import { classifyArgv, type ArgvVerdict, type CommandRules } from './classify-argv.js';
import { parseCommandLine, type Redirect, type SimpleCommand } from './shell-parser.js';
import { lex } from './shell-lexer.js';
import { DANGEROUS_ENV } from './command-lists.js';

export type CommandClass = 'read_only' | 'execute' | 'network' | 'unparseable' | 'dangerous' | 'denied';

export interface CommandClassification {
  type: CommandClass;
  /** Why, for people: "curl uses the network", "writes to ~/.ssh/x". */
  reasons: string[];
}

const RANK: Record<CommandClass, number> = { read_only: 0, execute: 1, network: 2, unparseable: 3, dangerous: 4, denied: 5 };
const MAX_REASONS = 5;
const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);
const WRITE_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);

/** Turns "npm run build" into the word list the rules compare against. */
export function ruleTokens(rule: string): string[] {
  return lex(rule).tokens.flatMap((t) => (t.type === 'word' ? [t.word.value] : []));
}

export function classifyCommand(line: string, rules: CommandRules = { allow: [], deny: [] }, depth = 0): CommandClassification {
  const parsed = parseCommandLine(line);
  if (parsed.type === 'unparseable') return { type: 'unparseable', reasons: [`cannot be checked: it ${parsed.reason}`] };
  if (parsed.commands.length === 0) return { type: 'unparseable', reasons: ['the command is empty'] };
  let worst: CommandClass = 'read_only';
  const reasons = new Set<string>();
  for (const cmd of parsed.commands) {
    for (const v of judge(cmd, rules, depth)) {
      if (RANK[v.type] > RANK[worst]) worst = v.type;
      if (v.type !== 'read_only' && reasons.size < MAX_REASONS) reasons.add(v.reason);
    }
  }
  return { type: worst, reasons: [...reasons] };
}

function judge(cmd: SimpleCommand, rules: CommandRules, depth: number): ArgvVerdict[] {
  const verdicts = cmd.redirects.map(redirectVerdict);
  let i = 0;
  for (; i < cmd.words.length; i++) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(cmd.words[i]!.value);
    if (!m) break;
    if (DANGEROUS_ENV.has(m[1]!)) verdicts.push({ type: 'execute', reason: `sets ${m[1]} for the command` });
  }
  const words = cmd.words.slice(i);
  if (words.length) {
    const inner = (text: string) => classifyCommand(text, rules, depth + 1);
    verdicts.push(classifyArgv(words, { piped: cmd.pipedInto, rules, depth, classifyLine: inner }));
  }
  return verdicts.length ? verdicts : [{ type: 'read_only', reason: '' }];
}

function redirectVerdict(r: Redirect): ArgvVerdict {
  if (!WRITE_OPS.has(r.op)) return { type: 'read_only', reason: '' };
  const t = r.target;
  if (!t) return { type: 'unparseable', reason: 'has a redirection without a target' };
  if (r.op === '>&' && /^(\d+|-)$/.test(t.value)) return { type: 'read_only', reason: '' };
  if (HARMLESS_TARGETS.has(t.value)) return { type: 'read_only', reason: '' };
  if (isSensitivePath(t.value)) return { type: 'dangerous', reason: `writes to ${t.value}` };
  if (t.dynamic) return { type: 'execute', reason: `writes to a path computed at run time (${t.value})` };
  return { type: 'execute', reason: `writes to ${t.value}` };
}

/** Home and system locations a command in a workspace has no business writing to. */
function isSensitivePath(p: string): boolean {
  return (
    /^(~|\$HOME|\$\{HOME\})(\/|$)/.test(p) ||
    /(^|\/)\.ssh(\/|$)/.test(p) ||
    /^\/(etc|usr|bin|sbin|boot|dev|lib|var|root|sys|proc)(\/|$)/.test(p) ||
    /(^|\/)\.(bashrc|zshrc|profile|bash_profile|zprofile|gitconfig|npmrc)$/.test(p)
  );
}
