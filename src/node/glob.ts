// A search glob as a predicate: without a `/` it matches the file name at any depth; `*` and
// `?` stay within one path segment, `**` crosses them. Applied by us, not by rg, because rg's
// --glob overrides .gitignore and would surface ignored files.

export function globPredicate(glob: string): (path: string) => boolean {
  const anchored = glob.includes('/');
  let src = '';
  const g = glob.replace(/^\//, '');
  for (let i = 0; i < g.length; i++) {
    const c = g[i]!;
    if (c === '*' && g[i + 1] === '*') {
      src += g[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += g[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') src += '[^/]*';
    else if (c === '?') src += '[^/]';
    else if (c === '{') src += '(?:';
    else if (c === '}') src += ')';
    else if (c === ',') src += '|';
    else src += /[.+^$()|[\]\\]/.test(c) ? `\\${c}` : c;
  }
  const re = new RegExp(anchored ? `^${src}$` : `(?:^|/)${src}$`);
  return (p) => re.test(p);
}
