// Maps Node file-system errors to the port's WorkspaceError codes.
import { WorkspaceError, type WorkspaceErrorCode } from '../kernel/index.js';

const CODES: Record<string, WorkspaceErrorCode> = {
  ENOENT: 'not_found',
  EISDIR: 'not_a_file',
  ENOTDIR: 'not_a_directory',
  EACCES: 'permission_denied',
  EPERM: 'permission_denied',
};

export function toWorkspaceError(err: unknown, rel: string): WorkspaceError {
  if (err instanceof WorkspaceError) return err;
  const errno = (err as NodeJS.ErrnoException | null)?.code ?? '';
  const code = CODES[errno] ?? 'io_error';
  const what: Record<WorkspaceErrorCode, string> = {
    not_found: 'does not exist',
    not_a_file: 'is a folder, not a file',
    not_a_directory: 'is not a folder',
    permission_denied: 'cannot be accessed (permission denied)',
    outside_workspace: 'is outside the workspace',
    io_error: `could not be accessed (${(err as Error)?.message ?? String(err)})`,
  };
  return new WorkspaceError(code, `${rel || '.'} ${what[code]}`);
}
