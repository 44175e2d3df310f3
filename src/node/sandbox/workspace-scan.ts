// What the sandbox must know about the workspace before a command starts: the files it hides
// (secrets, such as .env files) and, for a test run that may write in the workspace, the
// protected paths it keeps read-only (.git, .vscode, rules files, manifests, run-later
// executables) and the files with more than one name (hard-links.ts). Found by walking the real
// folder breadth first (links are never followed, shallow paths come first); dependencies
// (node_modules) are not entered, but their .bin is checked.
// After a test run the same walk finds protected paths the run created or replaced. The walk
// never throws: past its limit it reads no more folders, checks every entry already read, and
// says it is incomplete.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SandboxPathRules } from '../../kernel/index.js';
import { linkedInDependencies, linkedInFolder } from './hard-links.js';

/** Entries a scan may visit; past them it is incomplete (the command is refused rather than started unchecked). */
const MAX_SCAN_ENTRIES = 200_000;
/** Dependencies hold no secret of the user's; git's own files are git's (.git is kept whole). */
const NOT_ENTERED = new Set(['node_modules', '.git']);

export interface ScanResult {
  /** Absolute paths of files and folders to hide. */
  hidden: { path: string; folder: boolean }[];
  /** Absolute paths of protected entries (followed by what they are: a link keeps its target). */
  kept: Map<string, KeptEntry>;
  /** Files (and dependency package folders) with more than one name, bound read-only for a test run. */
  linked: string[];
  /** Why the walk did not see the whole workspace, when it did not. */
  incomplete?: string;
}

export interface KeptEntry {
  type: 'file' | 'directory' | 'link';
  /** A link's target, to put it back if a run replaces the link. */
  target?: string;
}

interface Folder {
  abs: string;
  rel: string;
  /** Under a folder already read-only: only secrets are looked for. */
  inKept: boolean;
}

/**
 * Walks `root` (absolute, real); `kept` only when the command may write, and linked files only
 * when `withLinks` (before a test run: after it, only what changed at protected paths counts).
 */
export function scanWorkspace(
  root: string,
  rules: SandboxPathRules,
  withKept: boolean,
  { withLinks = withKept, limit = MAX_SCAN_ENTRIES }: { withLinks?: boolean; limit?: number } = {},
): ScanResult {
  const out: ScanResult = { hidden: [], kept: new Map(), linked: [] };
  let seen = 0;
  const queue: Folder[] = [{ abs: root, rel: '', inKept: false }];
  for (let i = 0; i < queue.length; i++) {
    const next = queue[i]!;
    if (seen > limit) {
      out.incomplete = `the workspace holds more than ${limit} entries to check`;
      break;
    }
    const entries = readEntries(next.abs);
    seen += entries.length;
    if (withLinks && !next.inKept) out.linked.push(...linkedInFolder(next.abs, entries));
    for (const e of entries) {
      const entered = visit(next, e, rules, withKept, withLinks, out);
      if (entered) queue.push(entered);
    }
  }
  if (withKept) keepLinkTargets(root, out.kept);
  return out;
}

/**
 * What a protected link points at, inside the workspace, is protected too (AGENTS.md → CLAUDE.md,
 * or → any other name): bound read-only, a write through the link fails like one to the link.
 */
function keepLinkTargets(root: string, kept: Map<string, KeptEntry>): void {
  for (const [abs, entry] of [...kept]) {
    if (entry.type !== 'link') continue;
    const target = realOrUndefined(abs);
    if (!target || kept.has(target) || (target !== root && !target.startsWith(`${root}${path.sep}`))) continue;
    const stat = lstatOrUndefined(target);
    if (stat) kept.set(target, { type: stat.isDirectory() ? 'directory' : 'file' });
  }
}

function realOrUndefined(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

/** Records one entry; returns the folder to walk next, if it is one to enter. */
function visit(
  dir: Folder,
  e: fs.Dirent,
  rules: SandboxPathRules,
  withKept: boolean,
  withLinks: boolean,
  out: ScanResult,
): Folder | undefined {
  // A folder's path is absolute and normal, a name has no separator: no need to normalise again.
  const abs = dir.abs === path.sep ? `${path.sep}${e.name}` : `${dir.abs}${path.sep}${e.name}`;
  const rel = dir.rel ? `${dir.rel}/${e.name}` : e.name;
  if (rules.hidden(rel)) {
    out.hidden.push({ path: abs, folder: e.isDirectory() });
    return undefined;
  }
  const kept = withKept && !dir.inKept && rules.readOnly(rel);
  if (kept) out.kept.set(abs, entryOf(abs, e));
  if (!e.isDirectory()) return undefined;
  if (!NOT_ENTERED.has(e.name)) return { abs, rel, inKept: dir.inKept || kept };
  if (e.name === 'node_modules' && withKept && !dir.inKept && !kept) dependencyEntries(abs, rel, rules, withLinks, out);
  return undefined;
}

/**
 * A dependency folder's programs (.bin, what npm run puts on PATH), when protected, and its
 * linked packages. Only .bin is looked at: reading a big node_modules on every run costs.
 */
function dependencyEntries(abs: string, rel: string, rules: SandboxPathRules, withLinks: boolean, out: ScanResult): void {
  const bin = path.join(abs, '.bin');
  if (rules.readOnly(`${rel}/.bin`)) {
    const stat = lstatOrUndefined(bin);
    if (stat)
      out.kept.set(
        bin,
        stat.isSymbolicLink() ? { type: 'link', target: readLink(bin) } : { type: stat.isDirectory() ? 'directory' : 'file' },
      );
  }
  if (withLinks) out.linked.push(...linkedInDependencies(abs));
}

function lstatOrUndefined(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
}

/** Protected paths a run created, and kept links it replaced (each put back as it was). */
export function changedKept(before: ReadonlyMap<string, KeptEntry>, after: ReadonlyMap<string, KeptEntry>): string[] {
  const changed: string[] = [];
  for (const [p, now] of after) {
    const was = before.get(p);
    if (!was || was.type !== now.type || was.target !== now.target) changed.push(p);
  }
  return changed;
}

/** Hidden files (.env, .envrc) a run created: secrets files are protected paths too, and hidden ones are never kept. */
export function createdHidden(before: ScanResult, after: ScanResult): string[] {
  const was = new Set(before.hidden.map((h) => h.path));
  return after.hidden.map((h) => h.path).filter((p) => !was.has(p));
}

/** Removes what a run created at a protected path, or puts back the link it replaced. */
export function restoreKept(p: string, before: ReadonlyMap<string, KeptEntry>): void {
  fs.rmSync(p, { recursive: true, force: true });
  const was = before.get(p);
  if (was?.type === 'link' && was.target !== undefined) fs.symlinkSync(was.target, p);
}

function readEntries(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function entryOf(abs: string, e: fs.Dirent): KeptEntry {
  if (e.isSymbolicLink()) return { type: 'link', target: readLink(abs) };
  return { type: e.isDirectory() ? 'directory' : 'file' };
}

/** A link's target; one gone since the folder was read has none (it is not put back). */
function readLink(abs: string): string | undefined {
  try {
    return fs.readlinkSync(abs);
  } catch {
    return undefined;
  }
}
