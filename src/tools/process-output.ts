// Rendering captured process output for the model: head and tail, and how much was cut.
import type { CapturedStream, ProcessResult } from '../kernel/index.js';

export function renderCaptured(s: CapturedStream): string {
  if (s.totalChars === 0) return '(no output)';
  if (s.omittedChars <= 0) return s.head + s.tail;
  return `${s.head}\n[… ${s.omittedChars} characters of output cut (${s.totalChars} in all) …]\n${s.tail}`;
}

export function describeExit(r: ProcessResult, timeoutMs: number): string {
  const secs = (r.durationMs / 1000).toFixed(1);
  if (r.timedOut) return `timed out after ${Math.round(timeoutMs / 1000)}s; the process group was killed`;
  if (r.cancelled) return `cancelled after ${secs}s; the process group was killed`;
  if (r.exitCode === null) return `ended by signal ${r.signal ?? 'unknown'} after ${secs}s`;
  return `exit code ${r.exitCode} in ${secs}s`;
}

/** What the host did about the run (a sandbox undoing a change to a protected path), one line each, or nothing. */
export function renderNotices(r: ProcessResult): string {
  return (r.notices ?? []).map((n) => `\n[${n}]`).join('');
}
