// Files of the workspace with more than one name (link count above one): a write through one
// changes the other, which may be outside the workspace — pnpm's node_modules/.pnpm and bun's
// node_modules are hard links into the user's package store, uv's .venv into its cache, `cp -al`
// anything. A test run gets them read-only. Inside the sandbox a command cannot make a new one
// that leaves the workspace (link() across mounts fails with EXDEV), so only links made outside
// matter, and those are made by creating entries: a folder's listing is kept while its mtime,
// ctime and inode stay the same, and a dependency folder's while it and its package manager's
// state files do (every install rewrites one). The first test run in a workspace pays the walk.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** How many entries a dependency folder's walk visits before it is made read-only whole. */
const MAX_DEPENDENCY_ENTRIES = 1_000_000;
/** Past this many linked files a folder is bound read-only whole (uv's site-packages), not file by file. */
const FOLDER_AT = 16;
/** What installers rewrite on every install (pnpm, npm, yarn, bun). */
const STATE_FILES = ['.modules.yaml', '.package-lock.json', '.yarn-state.yml', '.yarn-integrity', '.pnpm', '.bun'];

const folders = new Map<string, { stamp: string; linked: string[] }>();
const dependencies = new Map<string, { stamp: string; linked: string[] }>();

/** The linked files among `entries` of `dir` (absolute paths), or `dir` itself when they are many. */
export function linkedInFolder(dir: string, entries: readonly fs.Dirent[]): string[] {
  const stamp = stampOf(dir);
  const cached = folders.get(dir);
  if (cached && stamp !== undefined && cached.stamp === stamp) return cached.linked;
  const files = entries.filter((e) => e.isFile() && linkCount(path.join(dir, e.name)) > 1).map((e) => path.join(dir, e.name));
  const linked = files.length > FOLDER_AT ? [dir] : files;
  if (stamp !== undefined) folders.set(dir, { stamp, linked });
  return linked;
}

/**
 * What to bind read-only in a dependency folder (node_modules, absolute): each package folder
 * (`x`, `@scope/x`, `.pnpm`) holding a linked file, or the whole folder past the walk's limit.
 */
export function linkedInDependencies(nm: string): string[] {
  const stamp = [nm, ...STATE_FILES.map((f) => path.join(nm, f))].map((p) => stampOf(p) ?? '-').join('|');
  const cached = dependencies.get(nm);
  if (cached?.stamp === stamp) return cached.linked;
  const linked = walkDependencies(nm);
  dependencies.set(nm, { stamp, linked });
  return linked;
}

function walkDependencies(nm: string): string[] {
  const units = new Set<string>();
  let seen = 0;
  const walk = (dir: string, unit: string | undefined): boolean => {
    for (const e of readEntries(dir)) {
      if (++seen > MAX_DEPENDENCY_ENTRIES) return false;
      const abs = path.join(dir, e.name);
      const own = unit ?? (e.name.startsWith('@') && e.isDirectory() ? undefined : abs);
      if (e.isDirectory()) {
        if (!walk(abs, own)) return false;
      } else if (e.isFile() && linkCount(abs) > 1) units.add(own ?? abs);
    }
    return true;
  };
  return walk(nm, undefined) ? [...units] : [nm];
}

function stampOf(p: string): string | undefined {
  try {
    const s = fs.lstatSync(p);
    return `${s.ino}:${s.mtimeMs}:${s.ctimeMs}`;
  } catch {
    return undefined;
  }
}

function linkCount(p: string): number {
  try {
    return fs.lstatSync(p).nlink;
  } catch {
    return 1;
  }
}

function readEntries(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
