// Whether paths that come from elsewhere (a language server's answer) may be shown: not in a
// folder or file the ignore rules hide (.gitignore, .keelignore, nested as in git, any ancestor
// folder ignored hides what is under it), not under .git, and not a file that may hold secrets.
// Ignore files are read through the port once per call site.
import type { Workspace } from '../../kernel/index.js';
import { isSecretFile } from '../policy/protected-paths.js';
import { ignorePredicate } from './predicate.js';

const IGNORE_FILES = ['.gitignore', '.keelignore'];
const decoder = new TextDecoder();

/** A filter for workspace-relative paths: true when the path may be shown. */
export function visiblePathFilter(ws: Workspace): (path: string) => Promise<boolean> {
  const texts = new Map<string, string | undefined>();
  const ignored = ignorePredicate((rel) => texts.get(rel));
  const load = async (rel: string) => {
    if (texts.has(rel)) return;
    texts.set(
      rel,
      await ws.readFile(rel).then(
        (b) => decoder.decode(b),
        () => undefined,
      ),
    );
  };
  return async (path) => {
    if (path === '' || path.startsWith('../') || path.startsWith('/') || isSecretFile(path)) return false;
    const parts = path.split('/');
    if (parts.includes('.git')) return false;
    // Every ignore file on the way is known before the predicate first asks about a folder.
    for (let i = 0; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      for (const name of IGNORE_FILES) await load(dir === '' ? name : `${dir}/${name}`);
    }
    for (let i = 1; i <= parts.length; i++) if (ignored(parts.slice(0, i).join('/'), i < parts.length)) return false;
    return true;
  };
}
