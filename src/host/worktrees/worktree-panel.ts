// The host side of the side bar's worktree sessions: the rows the view shows (from the same
// listing `keel worktree list` prints) and what Review, Apply and Discard do. A name from the view
// is untrusted: it acts only on a session Keel has a record of. Review writes each changed file's
// version at the session's base into Keel's folder and hands the pairs to the editor's diff
// editors; Apply never overwrites (apply-session.ts) and says a conflict; Discard asks once.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  type ApplyOutcome,
  applySession,
  discardSession,
  type GitRunner,
  listSessions,
  readRecord,
  type RepoInfo,
  runGit,
  saveRecord,
  sessionChanges,
  type SessionLayout,
  type SessionListing,
  type SessionRecord,
} from '../../node/worktrees/index.js';
import type { WorktreeAction, WorktreeSessionRow, WorktreeSessions } from '../../protocol/index.js';

/** One file of a review: the base's version (absent for a new file) against the worktree's. */
export interface ReviewFile {
  path: string;
  before: string | undefined;
  after: string | undefined;
}

export interface WorktreePanelPorts {
  post(sessions: WorktreeSessions): void;
  /** Asks once (a modal in VS Code); true only for the person's yes. */
  confirm(question: string): Promise<boolean>;
  /** Opens the diff editors, file by file, titled with the session's name. */
  openDiffs(session: string, files: readonly ReviewFile[]): Promise<void>;
  tell(message: string): void;
}

function worktreeRows(listing: SessionListing): WorktreeSessions {
  return {
    sessions: listing.sessions.map((s) => rowOf(s.record, s.status, s.filesChanged)),
    untracked: listing.untracked.map((t) => t.path),
  };
}

function rowOf(r: SessionRecord, status: string, filesChanged: number | undefined): WorktreeSessionRow {
  const shares = [
    r.caps.usd !== undefined ? (r.costUsd ?? 0) / r.caps.usd : undefined,
    r.caps.tokens !== undefined ? (r.tokens ?? 0) / r.caps.tokens : undefined,
  ].filter((n): n is number => n !== undefined);
  return {
    name: r.name,
    branch: r.branch,
    status,
    costUsd: r.costUsd ?? null,
    tokens: r.tokens ?? 0,
    ...(r.caps.usd !== undefined ? { capUsd: r.caps.usd } : {}),
    ...(r.caps.tokens !== undefined ? { capTokens: r.caps.tokens } : {}),
    ...(shares.length ? { spent: Math.min(1, Math.max(...shares)) } : {}),
    ...(filesChanged !== undefined ? { filesChanged } : {}),
  };
}

export class WorktreePanel {
  constructor(
    private readonly repo: RepoInfo,
    private readonly layout: SessionLayout,
    private readonly ports: WorktreePanelPorts,
    private readonly git: GitRunner = runGit,
  ) {}

  async refresh(): Promise<void> {
    this.ports.post(worktreeRows(await listSessions(this.git, this.repo, this.layout)));
  }

  async act(name: string, action: WorktreeAction): Promise<void> {
    const record = readRecord(this.layout, name);
    if (!record) return this.ports.tell(`Keel: there is no worktree session named ${name}.`);
    try {
      if (action === 'review') await this.review(record);
      if (action === 'apply') await this.apply(record);
      if (action === 'discard') await this.discard(record);
    } catch (err) {
      this.ports.tell(`Keel: ${action} of ${name} failed: ${(err as Error).message.split('\n')[0]}`);
    }
    await this.refresh();
  }

  private async review(record: SessionRecord): Promise<void> {
    const { changed } = await sessionChanges(this.git, record);
    if (changed.length === 0) return this.ports.tell(`Keel: ${record.name} changed nothing.`);
    const folder = path.join(this.layout.root, 'reviews', record.name);
    fs.rmSync(folder, { recursive: true, force: true });
    const files: ReviewFile[] = [];
    for (const c of changed) {
      const before = c.change === 'added' ? undefined : await this.baseCopy(record, c.path, folder);
      files.push({ path: c.path, before, after: c.change === 'deleted' ? undefined : path.join(record.path, c.path) });
    }
    await this.ports.openDiffs(record.name, files);
  }

  /** The file as it was at the session's base, written under Keel's folder (read-only). */
  private async baseCopy(record: SessionRecord, rel: string, folder: string): Promise<string> {
    const r = await this.git(record.path, ['show', `${record.base}:${rel}`]);
    const file = path.join(folder, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, r.code === 0 ? r.stdout : '', { mode: 0o444 });
    return file;
  }

  private async apply(record: SessionRecord): Promise<void> {
    const outcome = await applySession(this.git, this.repo.top, record, 'patch');
    this.ports.tell(applyMessage(record, outcome));
    if (outcome.type === 'applied') await saveRecord(this.layout, { ...record, status: 'applied' });
  }

  private async discard(record: SessionRecord): Promise<void> {
    if (!(await this.ports.confirm(`Discard ${record.name}? Its worktree and the branch ${record.branch} are removed with their changes.`)))
      return;
    await discardSession(this.git, this.repo, this.layout, record);
    this.ports.tell(`Keel: discarded ${record.name}.`);
  }
}

function applyMessage(record: SessionRecord, outcome: ApplyOutcome): string {
  if (outcome.type === 'nothing') return `Keel: ${record.name} changed nothing.`;
  if (outcome.type === 'conflict')
    return `Keel: not applied — the main folder changed the same lines in ${outcome.files.join(', ') || 'its files'}. Nothing was written; run keel worktree apply ${record.name} --merge to merge with conflict markers.`;
  return `Keel: applied ${record.name} to the main folder (${outcome.type === 'applied' ? outcome.files.join(', ') : ''}).`;
}
