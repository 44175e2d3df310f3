// One hooks file, read: Keel's `.keel/hooks.json` (and the user's `hooks.json`) or Claude Code's
// `.claude/settings.json` / `settings.local.json`, unchanged. Both have the same shape —
// `{"hooks": {"Point": [{"matcher": "Bash|Edit", "hooks": [{"type": "command", "command": "…",
// "timeout": 30}]}]}}` — Keel's with Keel's point names, Claude Code's with its event names,
// mapped here (SessionStart → TaskStart, Stop → TaskEnd, PreCompact → PreFold). Anything Keel
// cannot run (another event, a hook type other than command) is a problem with its line, and the
// rest of the file still loads; a file that is not JSON loads nothing. A matcher that is not a
// pattern is a problem too, but its hooks are kept, marked: a guard whose matcher Keel cannot
// read blocks every call (fails closed) rather than vanishing. `*` and '' mean every tool.
import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { HookPointSchema, type HookPoint } from '../../kernel/index.js';

export type HookFileFormat = 'keel' | 'claude';

/** A hook as defined: where it runs, what it matches, the command line and its time limit. */
export interface HookDefinition {
  point: HookPoint;
  /** The tool matcher as written (absent or '*': every tool); only tool points use it. */
  matcher?: string;
  /** Why the matcher is not a pattern: the hook then selects every tool and blocks (hook-port.ts). */
  brokenMatcher?: string;
  command: string;
  /** Seconds, as written (capped when run). */
  timeout?: number;
  format: HookFileFormat;
  /** The file, as people see it, and the line of the command. */
  file: string;
  line: number;
}

export interface HookFileProblem {
  line?: number;
  message: string;
}

const CLAUDE_POINTS: Readonly<Record<string, HookPoint>> = {
  PreToolUse: 'PreToolUse',
  PostToolUse: 'PostToolUse',
  UserPromptSubmit: 'UserPromptSubmit',
  SessionStart: 'TaskStart',
  Stop: 'TaskEnd',
  PreCompact: 'PreFold',
};

const HandlerSchema = z.object({ type: z.string(), command: z.string().optional(), timeout: z.number().positive().optional() });
const GroupSchema = z.object({ matcher: z.string().optional(), hooks: z.array(z.unknown()) });

export function parseHookFile(
  text: string,
  format: HookFileFormat,
  file: string,
): { hooks: HookDefinition[]; problems: HookFileProblem[] } {
  const problems: HookFileProblem[] = [];
  const hooks: HookDefinition[] = [];
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { hooks, problems: [{ ...syntaxLine(text), message: `not valid JSON (${(err as Error).message.split('\n')[0]})` }] };
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const lineOf = (path: readonly (string | number)[]): number | undefined => {
    const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
    return node?.range ? lines.linePos(node.range[0]).line : undefined;
  };
  const at = (path: readonly (string | number)[], message: string) => problems.push({ ...lineAt(lineOf(path)), message });
  if (!isObject(data)) return { hooks, problems: [{ line: 1, message: 'must be a JSON object' }] };
  const points = data.hooks;
  if (points === undefined) return { hooks, problems };
  if (!isObject(points)) return { hooks, problems: [{ ...lineAt(lineOf(['hooks'])), message: '"hooks" must be an object of points' }] };
  for (const [name, groups] of Object.entries(points)) {
    const point = pointOf(name, format);
    if (!point) {
      at(['hooks', name], `"${name}" is not a point Keel runs hooks at (${pointNames(format)}); skipped`);
      continue;
    }
    if (!Array.isArray(groups)) {
      at(['hooks', name], `"${name}" must be a list of {"matcher", "hooks"} entries`);
      continue;
    }
    for (const [g, group] of groups.entries()) {
      const parsed = GroupSchema.safeParse(group);
      if (!parsed.success) {
        at(['hooks', name, g], 'an entry must be {"matcher": "…", "hooks": [ … ]}');
        continue;
      }
      const matcher = parsed.data.matcher;
      const broken = matcher === undefined ? undefined : matcherProblem(matcher);
      if (broken) at(['hooks', name, g, 'matcher'], `matcher "${matcher}" is not a valid pattern (${broken}); its hooks block every call`);
      for (const [i, handler] of parsed.data.hooks.entries()) {
        const path = ['hooks', name, g, 'hooks', i];
        const problem = handlerProblem(handler);
        if (problem) {
          at(problem.type ? [...path, 'type'] : path, problem.message);
          continue;
        }
        const h = handler as z.infer<typeof HandlerSchema> & { command: string };
        hooks.push({
          point,
          ...(matcher !== undefined ? { matcher } : {}),
          ...(broken ? { brokenMatcher: broken } : {}),
          command: h.command,
          ...(h.timeout !== undefined ? { timeout: h.timeout } : {}),
          format,
          file,
          line: lineOf([...path, 'command']) ?? 1,
        });
      }
    }
  }
  return { hooks, problems };
}

/** What is wrong with one hook entry (`type`: the problem is its type), or undefined when Keel runs it. */
function handlerProblem(handler: unknown): { message: string; type?: true } | undefined {
  const h = HandlerSchema.safeParse(handler);
  if (!h.success) return { message: 'a hook must be {"type": "command", "command": "…", "timeout": seconds}' };
  if (h.data.type !== 'command') return { message: `hook type "${h.data.type}" is not run by Keel (only "command"); skipped`, type: true };
  if (!h.data.command?.trim()) return { message: 'a command hook needs a "command"' };
  return undefined;
}

function pointOf(name: string, format: HookFileFormat): HookPoint | undefined {
  if (format === 'claude') return Object.hasOwn(CLAUDE_POINTS, name) ? CLAUDE_POINTS[name] : undefined;
  const parsed = HookPointSchema.safeParse(name);
  return parsed.success ? parsed.data : undefined;
}

function pointNames(format: HookFileFormat): string {
  return (format === 'claude' ? Object.keys(CLAUDE_POINTS) : HookPointSchema.options).join(', ');
}

/** Every tool, as Claude Code writes it. */
const EVERY_TOOL = new Set(['', '*']);

/**
 * A matcher is Claude Code's: `*` or empty for every tool, else a pattern matched against the
 * whole name. What is wrong with one that is neither, or undefined.
 */
function matcherProblem(matcher: string): string | undefined {
  if (EVERY_TOOL.has(matcher.trim())) return undefined;
  try {
    new RegExp(`^(?:${matcher})$`);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** Whether a matcher selects a tool: by Keel's name, or by one of its Claude Code names. */
export function matcherSelects(matcher: string | undefined, names: readonly string[]): boolean {
  if (matcher === undefined || EVERY_TOOL.has(matcher.trim())) return true;
  const pattern = new RegExp(`^(?:${matcher})$`);
  return names.some((n) => pattern.test(n));
}

function syntaxLine(text: string): { line?: number } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const error = doc.errors[0];
  return error ? { line: error.linePos?.[0].line ?? lines.linePos(error.pos[0]).line } : {};
}

function lineAt(line: number | undefined): { line?: number } {
  return line === undefined ? {} : { line };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
