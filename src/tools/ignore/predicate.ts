// The ignore rules as one synchronous question (is this path ignored?) for a host's own walk,
// such as the checkpoint scan: .gitignore and .keelignore are read once per folder through the
// host's reader and nest as in git (a folder's rules apply to it and below).
import { IgnoreMatcher } from './gitignore.js';

const IGNORE_FILES = ['.gitignore', '.keelignore'];

/** `readText(rel)`: a workspace-relative file's text, or undefined when it is absent. */
export function ignorePredicate(readText: (rel: string) => string | undefined): (rel: string, isDir: boolean) => boolean {
  const byFolder = new Map<string, IgnoreMatcher>();
  const matcherFor = (dir: string): IgnoreMatcher => {
    const known = byFolder.get(dir);
    if (known) return known;
    let matcher = dir === '' ? new IgnoreMatcher() : matcherFor(parentOf(dir));
    for (const name of IGNORE_FILES) {
      const text = readText(dir === '' ? name : `${dir}/${name}`);
      if (text !== undefined) matcher = matcher.with(dir, text);
    }
    byFolder.set(dir, matcher);
    return matcher;
  };
  return (rel, isDir) => matcherFor(parentOf(rel)).isIgnored(rel, isDir);
}

function parentOf(rel: string): string {
  const slash = rel.lastIndexOf('/');
  return slash < 0 ? '' : rel.slice(0, slash);
}
