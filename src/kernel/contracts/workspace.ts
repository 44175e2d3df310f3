// The Workspace port: everything a tool may do to the world. Paths given to it are
// workspace-relative POSIX paths (or absolute ones); every implementation resolves them to
// their real path and refuses anything outside the root with a WorkspaceError.
import type { SandboxProfile, SandboxSupport } from './sandbox.js';
import type { CodeIntel } from './code-intel.js';
import type { WebFetcher } from './web.js';
import type { BrowserChecker } from './browser.js';
import type { Diagnostic, ProblemSource } from './problems.js';

export type WorkspaceErrorCode = 'outside_workspace' | 'not_found' | 'not_a_file' | 'not_a_directory' | 'permission_denied' | 'io_error';

export class WorkspaceError extends Error {
  constructor(
    readonly code: WorkspaceErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'WorkspaceError';
  }
}

export interface FileStat {
  type: 'file' | 'directory' | 'other';
  size: number;
  mtimeMs: number;
}

export interface DirEntry {
  /** Workspace-relative POSIX path. */
  path: string;
  type: 'file' | 'directory' | 'other';
}

export interface SearchQuery {
  /** A regular expression (ripgrep / Rust regex syntax, also valid JS for the fallback). */
  pattern: string;
  /**
   * Workspace-relative files to search, in this order. The caller chose them (ignore rules,
   * globs), so every engine searches the same files; a port applies no rules of its own.
   */
  files: readonly string[];
  maxMatches: number;
}

export interface SearchMatch {
  path: string;
  line: number;
  text: string;
}

/** The largest file the search without ripgrep reads (ripgrep searches files of any size). */
export const SEARCH_MAX_FILE_BYTES = 2 * 1024 * 1024;

/**
 * A file whose matches a search could not show, and why: too large for the engine (not
 * searched), or binary (it has a NUL character; its matches are not text). A binary file is
 * named only when it matched, so every engine names the same ones.
 */
export interface SkippedFile {
  path: string;
  reason: 'too_large' | 'binary';
  bytes?: number;
}

export interface SearchResult {
  matches: SearchMatch[];
  /** True when more matches existed than `maxMatches`. */
  truncated: boolean;
  engine: 'ripgrep' | 'fallback';
  /** Files searched in vain or not searched, in the order given; absent when none. */
  skipped?: SkippedFile[];
}

export interface ProcessOptions {
  /** Workspace-relative folder; the root when absent. */
  cwd?: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Live output, as it arrives (for progress and terminals). */
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void;
  /** Keep at most this many characters of each stream's head and tail. */
  maxCaptureChars: number;
  env?: Record<string, string>;
  /** The sandbox profile the policy chose; absent: `none` (runs as the user approved it). */
  sandbox?: SandboxProfile;
  /** Written to the child's standard input, which is then closed (a hook's JSON); absent: no input. */
  stdin?: string;
}

export interface CapturedStream {
  head: string;
  tail: string;
  /** Characters dropped between head and tail. */
  omittedChars: number;
  totalChars: number;
}

export interface ProcessResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
  stdout: CapturedStream;
  stderr: CapturedStream;
  /** stdout and stderr interleaved as they arrived, bounded the same way. */
  combined: CapturedStream;
  /** What the host did about the run that the model should know (a sandbox undoing a change to a protected path). */
  notices?: string[];
}

/** The shell a Workspace runs command lines with: `path ...args -c LINE`. */
export interface CommandShell {
  name: 'bash' | 'sh';
  /** Absolute path of the program. */
  path: string;
  /** Flags before `-c` (bash: no profile, no rc file). */
  args: readonly string[];
}

export interface Workspace {
  /** Absolute real path of the root, for display and for processes. */
  readonly root: string;
  /** The shell `runProcess` uses; absent for hosts that run no commands. */
  readonly shell?: CommandShell;
  /** The OS sandbox `runProcess` puts commands in; absent: no sandbox (every command asks). */
  readonly sandbox?: SandboxSupport;
  /** Canonical workspace-relative POSIX path; throws WorkspaceError('outside_workspace'). */
  resolve(path: string): Promise<string>;
  readFile(path: string): Promise<Uint8Array>;
  /**
   * The file's bytes in pieces, in order, for a file too large to hold whole (read_file pages a
   * huge file through it). Absent: the host can only read whole files.
   */
  readChunks?(path: string, signal: AbortSignal): AsyncIterable<Uint8Array>;
  /** Atomic: a crash never leaves a half-written file. Creates parent folders. */
  writeFile(path: string, data: Uint8Array): Promise<void>;
  /** Undefined when nothing exists at the path. */
  stat(path: string): Promise<FileStat | undefined>;
  readDir(path: string): Promise<DirEntry[]>;
  search(query: SearchQuery, signal: AbortSignal): Promise<SearchResult>;
  /**
   * Runs a command line with `shell` in its own process group. The child's environment never
   * holds the provider keys Keel knows nor variables that change how the shell reads the line.
   */
  runProcess(commandLine: string, options: ProcessOptions): Promise<ProcessResult>;
  /** Undefined when the host has no language services (the CLI). */
  diagnostics?(path?: string): Promise<Diagnostic[]>;
  /** Symbols, definitions and references (language servers, or syntax trees); absent: none. */
  readonly codeIntel?: CodeIntel;
  /** Fetches web pages for web_fetch; absent where the host offers no network access. */
  readonly web?: WebFetcher;
  /** Opens pages in a headless browser for browser_check; absent where the host has none. */
  readonly browser?: BrowserChecker;
  /** The problems an edit tool reports after it writes; absent: none (no checker, or turned off). */
  readonly problems?: ProblemSource;
}
