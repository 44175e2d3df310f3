// The workspace boundary on Node. Every path becomes its real path: fs.realpath of the longest
// existing ancestor (dangling symlinks followed by hand), then compared with the real root on
// whole path segments, case-insensitively where the file system is. `..`, symlinks, absolute
// paths and a sibling such as /work/ws-evil next to /work/ws cannot get out.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { WorkspaceError } from '../kernel/index.js';
import { toWorkspaceError } from './fs-errors.js';

const MAX_LINK_DEPTH = 40;

export class PathResolver {
  private constructor(
    readonly root: string,
    readonly caseInsensitive: boolean,
  ) {}

  static async create(root: string): Promise<PathResolver> {
    const real = await fs.realpath(path.resolve(root));
    return new PathResolver(real, await detectCaseInsensitive(real));
  }

  /** Canonical workspace-relative POSIX path ('' for the root). */
  async resolve(input: string): Promise<string> {
    if (input.includes('\0')) throw new WorkspaceError('not_found', 'A path cannot contain NUL characters.');
    const abs = path.isAbsolute(input) ? path.resolve(input) : path.resolve(this.root, input);
    const real = await realpathOfLongestExisting(abs, 0);
    const rel = this.relativeInside(real);
    if (rel === undefined) throw new WorkspaceError('outside_workspace', `${input} is outside the workspace (${this.root}).`);
    return rel;
  }

  /** Absolute path of a canonical relative path. */
  absolute(rel: string): string {
    return rel === '' ? this.root : path.join(this.root, ...rel.split('/'));
  }

  private relativeInside(real: string): string | undefined {
    const cmp = (s: string) => (this.caseInsensitive ? s.toLowerCase() : s);
    const [r, p] = [cmp(this.root), cmp(real)];
    if (p === r) return '';
    const prefix = r.endsWith(path.sep) ? r : r + path.sep;
    if (!p.startsWith(prefix)) return undefined;
    return real.slice(prefix.length).split(path.sep).join('/');
  }
}

async function realpathOfLongestExisting(abs: string, depth: number): Promise<string> {
  const tail: string[] = [];
  let current = abs;
  for (;;) {
    try {
      return path.join(await fs.realpath(current), ...tail.reverse());
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw toWorkspaceError(err, abs);
    }
    const link = await fs.lstat(current).catch(() => undefined);
    if (link?.isSymbolicLink()) {
      // A dangling symlink: writing through it would create its target, so resolve that instead.
      if (depth >= MAX_LINK_DEPTH) throw new WorkspaceError('io_error', `Too many symbolic links at ${current}.`);
      const target = path.resolve(path.dirname(current), await fs.readlink(current));
      return path.join(await realpathOfLongestExisting(target, depth + 1), ...tail.reverse());
    }
    const parent = path.dirname(current);
    if (parent === current) return abs;
    tail.push(path.basename(current));
    current = parent;
  }
}

/** Stats the root with its name's case flipped: the same file means a case-insensitive FS. */
async function detectCaseInsensitive(root: string): Promise<boolean> {
  const base = path.basename(root);
  const flipped = [...base].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  if (flipped === base) return process.platform === 'darwin' || process.platform === 'win32';
  const [a, b] = await Promise.all([fs.stat(root), fs.stat(path.join(path.dirname(root), flipped)).catch(() => undefined)]);
  return !!b && a.ino === b.ino && a.dev === b.dev;
}
