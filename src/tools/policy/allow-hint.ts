// What an ask adds for the two who read it: the model gets the exact command line that asked (so
// a refusal without a terminal still names what was not run), and the user the words that let
// it run unasked from then on — `keel run --allow-command`, or the keel.commands.allow setting —
// for a command an allow rule can cover (never a dangerous or unparseable one, nor a protected path).
import type { PolicyDecision } from '../../kernel/index.js';
import { type CommandClassification, RANK } from './command-class.js';
import { ruleTokens } from './classify-command.js';

/** Rules suggested for one line, at most. */
const MAX_RULES = 3;
/** A rule longer than this is cut to its first words. */
const MAX_RULE_WORDS = 6;

export function withAllowHint(d: PolicyDecision, line: string | undefined, cls: CommandClassification | undefined): PolicyDecision {
  if (d.type !== 'ask' || line === undefined || !cls || d.overridable === false) return d;
  const shown = ` The command line: ${line.length > 200 ? `${line.slice(0, 200)}…` : line}`;
  const rules = RANK[cls.type] < RANK.unparseable ? suggestedRules(line) : [];
  if (rules.length === 0) return { ...d, reason: `${d.reason}${shown}` };
  const flags = rules.map((r) => `--allow-command "${r}"`).join(' ');
  const setting = rules.map((r) => `"${r}"`).join(', ');
  return {
    ...d,
    reason: `${d.reason}${shown} — to let it run unasked: keel run ${flags}, or ${setting} in the keel.commands.allow setting.`,
  };
}

/** One word-prefix rule per simple command of the line: the command as written, up to a few words. */
function suggestedRules(line: string): string[] {
  const parts = line.split(/&&|\|\||[;|\n]/).map((p) => ruleTokens(p.trim()).slice(0, MAX_RULE_WORDS).join(' '));
  const rules = [...new Set(parts.filter(Boolean))];
  return rules.length > MAX_RULES ? [] : rules;
}
