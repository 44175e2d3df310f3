// Maps Node file-system errors to the port's WorkspaceError codes, and a failed write to one of
// Keel's own files (task log, memory, checkpoint, settings, index) to a StorageError that names
// the file and says why in words (a full disk, a read-only file system), never a bare errno.
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
    io_error: REASONS[errno]
      ? `could not be written: ${REASONS[errno]} (${errno})`
      : `could not be accessed (${(err as Error)?.message ?? String(err)})`,
  };
  return new WorkspaceError(code, `${rel || '.'} ${what[code]}`);
}

/** Why a write failed, in words, for the errors a full or locked-down disk gives. */
const REASONS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EFBIG: 'the file is too large for the file system',
};

export class StorageError extends Error {
  override name = 'StorageError';
  constructor(
    readonly file: string,
    readonly errno: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** `what`: the file's role ("the task log"). Already a StorageError: kept as it is. */
export function storageError(err: unknown, what: string, file: string): StorageError {
  if (err instanceof StorageError) return err;
  const errno = (err as NodeJS.ErrnoException | null)?.code;
  const permission = errno === 'EACCES' || errno === 'EPERM' ? 'permission denied' : undefined;
  const reason = (errno && (REASONS[errno] ?? permission)) ?? (err as Error)?.message ?? String(err);
  return new StorageError(
    file,
    errno,
    `Keel could not write ${what} ${file}: ${reason}${errno && !reason.includes(errno) ? ` (${errno})` : ''}.`,
  );
}
