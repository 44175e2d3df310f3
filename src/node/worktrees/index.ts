// Worktree sessions: several tasks at once, each in its own git worktree on its own branch,
// made, listed, compared, landed and removed with git itself.
export { applySession, type ApplyOutcome } from './apply-session.js';
export { createSession } from './create-session.js';
export { discardSession } from './discard-session.js';
export { type GitRunner, runGit, WorktreeError } from './git.js';
export { findRepo, type RepoInfo } from './repo.js';
export { sessionChanges } from './session-changes.js';
export { listSessions, type SessionListing, type SessionRow } from './session-list.js';
export { readRecord, saveRecord, sessionLayout, type SessionLayout, type SessionRecord } from './session-store.js';
