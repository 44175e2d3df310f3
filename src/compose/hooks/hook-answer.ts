// How a hook's process answers, read as Claude Code documents it: exit 2 blocks with stderr as
// the reason; exit 0 is no objection, and a JSON object on stdout may say more — `decision:
// "block"` with a `reason`, `continue: false` with a `stopReason`, or `hookSpecificOutput` with
// `permissionDecision` (deny blocks, ask asks the user, allow is no objection: a hook never
// approves) and `additionalContext`; plain stdout of a TaskStart or UserPromptSubmit hook is
// context. Any other exit, a time-out, a cut JSON answer: the hook failed (an `error`, which
// blocks at the guarding points — Keel fails closed where Claude Code would go on).
import type { HookOutcome, HookPoint, ProcessResult } from '../../kernel/index.js';

/** How much of each output stream Keel keeps (head and tail). */
export const HOOK_OUTPUT_CHARS = 8000;
/** How much of a reason or context is logged and shown. */
const TEXT_MAX_CHARS = 4000;

interface Answer {
  outcome: HookOutcome;
  reason?: string;
  context?: string;
  truncated?: boolean;
}

export function hookAnswer(result: ProcessResult, point: HookPoint, seconds: number): Answer {
  const truncated = result.stdout.omittedChars > 0 || result.stderr.omittedChars > 0 ? { truncated: true } : {};
  const stderr = capped(whole(result.stderr));
  if (result.timedOut) return { outcome: 'error', reason: `timed out after ${seconds} s`, ...truncated };
  if (result.cancelled) return { outcome: 'error', reason: 'cancelled', ...truncated };
  if (result.exitCode === 2) return { outcome: 'block', reason: stderr || 'exit status 2 (no reason on stderr)', ...truncated };
  if (result.exitCode !== 0) {
    const how = result.exitCode === null ? `ended by ${result.signal}` : `exit status ${result.exitCode}`;
    return { outcome: 'error', reason: `${how}${stderr ? `: ${stderr}` : ''}`, ...truncated };
  }
  const stdout = whole(result.stdout).trim();
  if (stdout.startsWith('{')) {
    if (result.stdout.omittedChars > 0) return { outcome: 'error', reason: 'its JSON answer was too long and was cut', truncated: true };
    const json = parseObject(stdout);
    if (json) return { ...jsonAnswer(json), ...truncated };
  }
  const plainContext = (point === 'UserPromptSubmit' || point === 'TaskStart') && stdout !== '';
  return plainContext ? { outcome: 'context', context: capped(stdout), ...truncated } : { outcome: 'allow', ...truncated };
}

function jsonAnswer(json: Record<string, unknown>): Answer {
  const specific = isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  const context = text(specific.additionalContext) ?? text(json.additionalContext);
  const withContext = context ? { context: capped(context) } : {};
  if (json.continue === false)
    return { outcome: 'block', reason: capped(text(json.stopReason) ?? 'the hook said not to continue'), ...withContext };
  const permission = specific.permissionDecision;
  const why = text(specific.permissionDecisionReason) ?? text(json.reason);
  if (json.decision === 'block' || permission === 'deny')
    return { outcome: 'block', reason: capped(why ?? 'no reason given'), ...withContext };
  if (permission === 'ask') return { outcome: 'ask', reason: capped(why ?? 'the hook wants the user to decide'), ...withContext };
  return context ? { outcome: 'context', ...withContext } : { outcome: 'allow' };
}

function whole(s: ProcessResult['stdout']): string {
  return s.omittedChars > 0 ? `${s.head}\n…\n${s.tail}` : s.head + s.tail;
}

function capped(s: string): string {
  const t = s.trim();
  return t.length > TEXT_MAX_CHARS ? `${t.slice(0, TEXT_MAX_CHARS)}… (cut: ${t.length} characters)` : t;
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

function parseObject(s: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(s);
    return isObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
