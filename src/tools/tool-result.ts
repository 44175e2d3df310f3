// Small constructors for tool results, and the mapping from port errors to observation codes.
import { messageOf, type ObservationErrorCode, type ToolResult, type WorkspaceErrorCode } from '../kernel/index.js';

export function failure(code: ObservationErrorCode, content: string, extra: Partial<ToolResult> = {}): ToolResult {
  return { ok: false, code, content, retryable: code !== 'permission_denied', ...extra };
}

const CODES: Record<WorkspaceErrorCode, ObservationErrorCode> = {
  outside_workspace: 'permission_denied',
  not_found: 'not_found',
  not_a_file: 'invalid_input',
  not_a_directory: 'invalid_input',
  permission_denied: 'permission_denied',
  io_error: 'execution_failed',
};

/** Turns a thrown WorkspaceError (or anything else) into a result the model can act on. */
export function errorResult(err: unknown, path?: string): ToolResult {
  const code =
    (err as { name?: string; code?: string } | null)?.name === 'WorkspaceError'
      ? (CODES[(err as { code: WorkspaceErrorCode }).code] ?? 'execution_failed')
      : 'execution_failed';
  const where = path ? `${path}: ` : '';
  if (code === 'permission_denied' && (err as { code?: string }).code === 'outside_workspace') {
    return failure(code, `${where}the path is outside the workspace; only files inside the workspace folder can be used.`);
  }
  return failure(code, `${where}${messageOf(err)}`);
}

/** Keeps text within a character budget, cutting whole lines at the end and saying so. */
export function fitLines(text: string, maxChars: number, what = 'lines'): string {
  if (text.length <= maxChars) return text;
  const cut = text.lastIndexOf('\n', maxChars - 80);
  const kept = text.slice(0, cut > 0 ? cut : maxChars - 80);
  const left = text.slice(kept.length).split('\n').length - 1;
  return `${kept}\n[… ${left} more ${what} not shown]`;
}
