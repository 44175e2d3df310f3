// The entries of a workspace's node_modules that are links (`npm link`, pnpm's top level, a
// package a script replaced by a link): each is looked at before every sandboxed command, to show
// its target read-only or hide it. Only links matter, and readdir already says which entries are
// links, so no entry is stat'ed. The list is kept while node_modules and its scope folders
// (`@scope/`) keep their inode, mtime and ctime: adding, removing or replacing an entry changes
// the folder holding it, so a run that plants a link is seen by the next command.
import * as fs from 'node:fs';
import * as path from 'node:path';

interface Listing {
  /** Stamps of node_modules and each scope folder, in the order they were read. */
  stamps: { dir: string; stamp: string }[];
  links: string[];
}

const listings = new Map<string, Listing>();

/** Workspace-relative paths (`node_modules/x`, `node_modules/@s/x`) of the links in `root`'s node_modules folder. */
export function nodeModulesLinks(root: string): string[] {
  const nm = path.join(root, 'node_modules');
  const cached = listings.get(nm);
  if (cached?.stamps.every((s) => stampOf(s.dir) === s.stamp)) return cached.links;
  const stamp = stampOf(nm);
  if (stamp === undefined || !fs.lstatSync(nm).isDirectory()) {
    listings.delete(nm);
    return [];
  }
  const listing: Listing = { stamps: [{ dir: nm, stamp }], links: [] };
  for (const e of safeList(nm)) {
    if (e.isSymbolicLink()) listing.links.push(`node_modules/${e.name}`);
    else if (e.name.startsWith('@') && e.isDirectory()) readScope(path.join(nm, e.name), e.name, listing);
  }
  listings.set(nm, listing);
  return listing.links;
}

function readScope(dir: string, scope: string, listing: Listing): void {
  const stamp = stampOf(dir);
  if (stamp === undefined) return;
  listing.stamps.push({ dir, stamp });
  for (const s of safeList(dir)) if (s.isSymbolicLink()) listing.links.push(`node_modules/${scope}/${s.name}`);
}

function stampOf(p: string): string | undefined {
  const s = fs.lstatSync(p, { throwIfNoEntry: false });
  return s && `${s.ino}:${s.mtimeMs}:${s.ctimeMs}`;
}

function safeList(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
