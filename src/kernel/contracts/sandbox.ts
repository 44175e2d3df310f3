// How a command runs: the OS sandbox profile the policy chose when it let the command run, carried
// from the decision through the log (the approval events) and the tool's context down to
// Workspace.runProcess. The hosts' sandbox (src/node/sandbox) gives each profile its meaning.
import { z } from 'zod';

/**
 * read_only: nothing written but a private /tmp; test_run: the workspace writable but for its
 * protected paths; none: as the user's own shell would run it (the user approved it). Every
 * profile but none has no network and sees only the workspace, toolchains and system folders.
 */
export const SandboxProfileSchema = z.enum(['read_only', 'test_run', 'none']);
export type SandboxProfile = z.infer<typeof SandboxProfileSchema>;

/**
 * What the user chose: sandbox the commands that run unasked (the default), sandbox every
 * command (those the user approved run in the test_run profile), or no sandbox at all.
 */
export const SandboxModeSchema = z.enum(['unasked', 'everything', 'off']);
export type SandboxMode = z.infer<typeof SandboxModeSchema>;

export type SandboxStatus = { type: 'ready' } | { type: 'unavailable'; reason: string };

/** A host's sandbox, as the policy sees it: whether a sandboxed command can start now. */
export interface SandboxSupport {
  status(): SandboxStatus;
}

/** Which workspace paths (canonical, workspace-relative) a sandboxed command may not see, or not change. */
export interface SandboxPathRules {
  /** Hidden from every sandboxed command (files that may hold secrets). */
  hidden(rel: string): boolean;
  /** Read-only for a command that may write in the workspace (a test run). */
  readOnly(rel: string): boolean;
  /**
   * A protected path a test runner creates as part of running (a first Cargo.lock beside its
   * Cargo.toml, pytest's .pytest_cache/.gitignore): when a test run creates it where there was
   * none, it is kept and not reported as the run's change. `exists` looks in the workspace.
   */
  runnerWrites?(rel: string, exists: (rel: string) => boolean): boolean;
}
