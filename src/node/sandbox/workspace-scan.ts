// What the sandbox must know about the workspace before a command starts: the files it hides
// (secrets, such as .env files) and, for a test run that may write in the workspace, the
// protected paths it keeps read-only (.git, .vscode, rules files, manifests). Found by walking
// the real folder (links are never followed); dependencies (node_modules) are not entered.
// After a test run the same walk finds protected paths the run created or replaced.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SandboxPathRules } from '../../kernel/index.js';

/** Entries a scan may visit before the command is refused rather than started unchecked. */
const MAX_SCAN_ENTRIES = 200_000;
/** Dependencies hold no secret of the user's; git's own files are git's (.git is kept whole). */
const NOT_ENTERED = new Set(['node_modules', '.git']);

export interface ScanResult {
  /** Absolute paths of files and folders to hide. */
  hidden: { path: string; folder: boolean }[];
  /** Absolute paths of protected entries (followed by what they are: a link keeps its target). */
  kept: Map<string, KeptEntry>;
}

export interface KeptEntry {
  type: 'file' | 'directory' | 'link';
  /** A link's target, to put it back if a run replaces the link. */
  target?: string;
}

class ScanTooLarge extends Error {}

/** Walks `root` (absolute, real); `kept` only when the command may write. */
export function scanWorkspace(root: string, rules: SandboxPathRules, withKept: boolean): ScanResult {
  const out: ScanResult = { hidden: [], kept: new Map() };
  let seen = 0;
  /** `inKept`: under a folder already read-only, only secrets are looked for. */
  const walk = (dir: string, rel: string, inKept: boolean) => {
    for (const e of readEntries(dir)) {
      if (++seen > MAX_SCAN_ENTRIES) throw new ScanTooLarge(`the workspace holds more than ${MAX_SCAN_ENTRIES} entries to check`);
      const abs = path.join(dir, e.name);
      const relPath = rel ? `${rel}/${e.name}` : e.name;
      if (rules.hidden(relPath)) {
        out.hidden.push({ path: abs, folder: e.isDirectory() });
        continue;
      }
      const kept = withKept && !inKept && rules.readOnly(relPath);
      if (kept) out.kept.set(abs, entryOf(abs, e));
      if (e.isDirectory() && !NOT_ENTERED.has(e.name)) walk(abs, relPath, inKept || kept);
    }
  };
  walk(root, '', false);
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
    let target: string;
    try {
      target = fs.realpathSync(abs);
    } catch {
      continue;
    }
    if (kept.has(target) || (target !== root && !target.startsWith(`${root}${path.sep}`))) continue;
    kept.set(target, { type: fs.statSync(target).isDirectory() ? 'directory' : 'file' });
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
  if (e.isSymbolicLink()) return { type: 'link', target: fs.readlinkSync(abs) };
  return { type: e.isDirectory() ? 'directory' : 'file' };
}
