// The one matcher for every glob a tool accepts (search_files' `glob`): picomatch, on
// workspace-relative POSIX paths. A glob without a `/` matches the file name at any depth;
// with one, the path from the workspace root. Dotfiles match like any other file.
import picomatch from 'picomatch/posix';

export function globMatcher(glob: string): (path: string) => boolean {
  const pattern = glob.replace(/^(\.\/|\/)+/, '');
  const isMatch = picomatch(pattern, { dot: true, posix: true });
  if (pattern.includes('/')) return isMatch;
  return (path) => isMatch(path.slice(path.lastIndexOf('/') + 1));
}
