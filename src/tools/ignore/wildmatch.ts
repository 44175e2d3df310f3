// Git's wildmatch (the pattern language of .gitignore) compiled to a regular expression: `*`
// and `?` stay within a path segment, `**` between slashes crosses them, brackets take ranges,
// `!` or `^` negation, `]` first as a plain character and POSIX classes (`[[:alpha:]]`), and
// never match `/`. Where git's matcher gives up (an unclosed bracket, an unknown class, a
// trailing backslash) the pattern matches nothing, as in git. Ignore files only: the globs a
// tool accepts are picomatch's (search/glob.ts).

/** Git's own character classes (ASCII only, as its ctype). */
const POSIX: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  blank: ' \\t',
  cntrl: '\\x00-\\x1f\\x7f',
  digit: '0-9',
  graph: '\\x21-\\x7e',
  lower: 'a-z',
  print: '\\x20-\\x7e',
  punct: '!-\\/:-@\\[-`{-~',
  space: ' \\t\\n\\r',
  upper: 'A-Z',
  xdigit: '0-9A-Fa-f',
};

/** Regex source for a wildmatch pattern (unanchored), or undefined when it can match nothing. */
export function wildmatchSource(glob: string): string | undefined {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      const stars = starRun(glob, i);
      out += stars.source;
      i = stars.next - 1;
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const bracket = bracketSource(glob, i);
      if (!bracket) return undefined;
      out += bracket.source;
      i = bracket.close;
    } else if (c === '\\') {
      if (i + 1 === glob.length) return undefined;
      out += literal(glob[++i]!);
    } else out += literal(c);
  }
  return out;
}

// Regex source for a pattern with a slash, matched against the path below its ignore file. Git
// compares the part before the first wildcard literally and wildmatches only the rest, so a
// `**` right after that part counts as starting the pattern (`a**/x` matches `a/x` and `ab/c/x`).
export function pathPatternSource(glob: string): string | undefined {
  const literalEnd = glob.search(/[*?[\\]/);
  if (literalEnd <= 0) return wildmatchSource(glob);
  const rest = wildmatchSource(glob.slice(literalEnd));
  return rest === undefined ? undefined : [...glob.slice(0, literalEnd)].map(literal).join('') + rest;
}

/** A run of stars from `i`: `**` between slashes (or the pattern's ends) crosses folders. */
function starRun(glob: string, i: number): { source: string; next: number } {
  let next = i;
  while (glob[next] === '*') next++;
  const slashBefore = i === 0 || glob[i - 1] === '/';
  const after = glob[next] === '\\' && glob[next + 1] === '/' ? 2 : glob[next] === '/' ? 1 : 0;
  if (next - i < 2 || !slashBefore || (next < glob.length && after === 0)) return { source: '[^/]*', next };
  if (next === glob.length) return { source: '.*', next };
  // `**/`: zero or more folders (git skips none before an escaped `\/`).
  return { source: after === 1 ? '(?:.*/)?' : '.*/', next: next + after };
}

/** The bracket expression opening at `open`, as git reads it; undefined where git gives up. */
function bracketSource(glob: string, open: number): { source: string; close: number } | undefined {
  let p = open + 1;
  const negated = glob[p] === '!' || glob[p] === '^';
  if (negated) p++;
  let set = '';
  let prev: string | undefined;
  // The first character is taken as it is (so `]` first is a plain `]`); the set ends at the next `]`.
  do {
    let c: string | undefined = glob[p];
    if (c === undefined) return undefined;
    if (c === '\\') {
      c = glob[++p];
      if (c === undefined) return undefined;
      set += escapeInSet(c);
    } else if (c === '-' && prev !== undefined && glob[p + 1] !== undefined && glob[p + 1] !== ']') {
      let end = glob[++p]!;
      if (end === '\\') end = glob[++p]!;
      if (end === undefined) return undefined;
      if (prev <= end) set += `${escapeInSet(prev)}-${escapeInSet(end)}`;
      c = undefined;
    } else if (c === '[' && glob[p + 1] === ':') {
      const cls = posixClass(glob, p);
      if (cls === 'abort') return undefined;
      if (cls) {
        set += cls.set;
        p = cls.end;
        c = undefined;
      } else set += escapeInSet('[');
    } else set += escapeInSet(c);
    prev = c;
    p++;
  } while (glob[p] !== ']');
  return { source: negated ? `[^/${set}]` : `(?!/)[${set}]`, close: p };
}

/** `[:name:]` at `p`: its set and where it ends; undefined when it is no class (then `[` is plain). */
function posixClass(glob: string, p: number): { set: string; end: number } | undefined | 'abort' {
  const from = p + 2;
  const close = glob.indexOf(']', from);
  if (close === -1) return 'abort';
  if (close - from - 1 < 0 || glob[close - 1] !== ':') return undefined;
  const set = POSIX[glob.slice(from, close - 1)];
  return set === undefined ? 'abort' : { set, end: close };
}

function escapeInSet(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

function literal(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}
