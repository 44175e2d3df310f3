// Keel's record of each worktree session, one JSON file per session in Keel's own folder for the
// repository (never in the repository): `$XDG_CONFIG_HOME/keel/worktrees/<repo key>/` holds
// `trees/<name>` (the worktrees), `sessions/<name>.json` (these records) and `logs/<name>.jsonl`
// (each session's task log). A record that cannot be read is skipped and said, never trusted.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { atomicWrite } from '../atomic-write.js';
import { keelConfigDir } from '../config-folder.js';
import { type RepoInfo, repoKey } from './repo.js';

export interface SessionCaps {
  usd?: number;
  tokens?: number;
}

export interface SessionRecord {
  version: 1;
  name: string;
  branch: string;
  /** The worktree folder (the session's workspace). */
  path: string;
  /** The commit the branch started from, and the ref the person named for it. */
  base: string;
  from: string;
  createdAt: string;
  /** created, running, the run's own end (done, failed, stopped…), then applied. */
  status: string;
  /** The Keel process running the session while status is running. */
  pid?: number;
  log: string;
  caps: SessionCaps;
  costUsd?: number | null;
  tokens?: number;
  /** Dependency folders of the main folder linked into the worktree (relative names). */
  dependencies: string[];
}

export interface SessionLayout {
  root: string;
  trees: string;
  sessions: string;
  logs: string;
}

export function sessionLayout(repo: RepoInfo, env: NodeJS.ProcessEnv = process.env): SessionLayout {
  const root = path.join(keelConfigDir(env), 'worktrees', repoKey(repo));
  return { root, trees: path.join(root, 'trees'), sessions: path.join(root, 'sessions'), logs: path.join(root, 'logs') };
}

function recordFile(layout: SessionLayout, name: string): string {
  return path.join(layout.sessions, `${name}.json`);
}

export async function saveRecord(layout: SessionLayout, record: SessionRecord): Promise<void> {
  await atomicWrite(recordFile(layout, record.name), new TextEncoder().encode(`${JSON.stringify(record, null, 2)}\n`));
}

export function removeRecord(layout: SessionLayout, name: string): void {
  fs.rmSync(recordFile(layout, name), { force: true });
}

export function readRecord(layout: SessionLayout, name: string): SessionRecord | undefined {
  let text: string;
  try {
    text = fs.readFileSync(recordFile(layout, name), 'utf8');
  } catch {
    return undefined;
  }
  const record = parseRecord(text, name);
  return record && isOwnWorktree(layout, record) ? record : undefined;
}

/**
 * A record is a file anyone with the user's rights can edit, and discard removes the folder it
 * names: only a worktree where Keel makes them (trees/NAME) on a branch of Keel's is acted on.
 */
function isOwnWorktree(layout: SessionLayout, record: SessionRecord): boolean {
  const trees = realOr(layout.trees);
  return path.dirname(record.path) === trees && path.basename(record.path) === record.name && record.branch.startsWith('keel/');
}

function realOr(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** Every readable record, and the files that were not. */
export function readRecords(layout: SessionLayout): { records: SessionRecord[]; unreadable: string[] } {
  const files = fs.existsSync(layout.sessions) ? fs.readdirSync(layout.sessions).filter((f) => f.endsWith('.json')) : [];
  const records: SessionRecord[] = [];
  const unreadable: string[] = [];
  for (const file of files.sort()) {
    const record = readRecord(layout, file.slice(0, -'.json'.length));
    if (record) records.push(record);
    else unreadable.push(path.join(layout.sessions, file));
  }
  return { records, unreadable };
}

function parseRecord(text: string, name: string): SessionRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const r = value as Partial<SessionRecord> | null;
  const strings = [r?.name, r?.branch, r?.path, r?.base, r?.status, r?.log];
  if (r?.version !== 1 || strings.some((s) => typeof s !== 'string') || r.name !== name) return undefined;
  if (!Array.isArray(r.dependencies) || typeof r.caps !== 'object' || r.caps === null) return undefined;
  return r as SessionRecord;
}
