// A small .gitignore matcher: `*`, `**`, `?`, `[…]`, leading and trailing `/`, `!` negation,
// comments and escapes. Scopes nest: a .gitignore applies to its own folder and below, and
// the deepest, last matching rule wins, as in git.

export interface IgnoreRule {
  regex: RegExp;
  negate: boolean;
  dirOnly: boolean;
}

interface Scope {
  /** Workspace-relative folder of the ignore file; '' for the root. */
  base: string;
  rules: IgnoreRule[];
}

export class IgnoreMatcher {
  constructor(private readonly scopes: readonly Scope[] = []) {}

  /** A matcher that also applies the rules of an ignore file found in `base`. */
  with(base: string, text: string): IgnoreMatcher {
    const rules = parseIgnore(text);
    return rules.length ? new IgnoreMatcher([...this.scopes, { base, rules }]) : this;
  }

  isIgnored(path: string, isDir: boolean): boolean {
    let ignored = false;
    for (const { base, rules } of this.scopes) {
      if (base !== '' && !path.startsWith(base + '/')) continue;
      const sub = base === '' ? path : path.slice(base.length + 1);
      for (const r of rules) {
        if (r.dirOnly && !isDir) continue;
        if (r.regex.test(sub)) ignored = !r.negate;
      }
    }
    return ignored;
  }
}

export function parseIgnore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const rule = parseLine(raw);
    if (rule) rules.push(rule);
  }
  return rules;
}

function parseLine(raw: string): IgnoreRule | undefined {
  let line = raw.replace(/(?<!\\)\s+$/, '');
  if (line === '' || line.startsWith('#')) return undefined;
  let negate = false;
  if (line.startsWith('!')) [negate, line] = [true, line.slice(1)];
  else if (line.startsWith('\\!') || line.startsWith('\\#')) line = line.slice(1);
  let dirOnly = false;
  if (line.endsWith('/')) [dirOnly, line] = [true, line.slice(0, -1)];
  if (line === '') return undefined;
  const anchored = line.includes('/');
  if (line.startsWith('/')) line = line.slice(1);
  const body = globToRegexSource(line);
  return { regex: new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`), negate, dirOnly };
}

/** Glob to regex source; `*` and `?` never cross `/`, `**` may. */
export function globToRegexSource(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const atStart = i === 0 || glob[i - 1] === '/';
      const atEnd = i + 2 === glob.length;
      if (atStart && glob[i + 2] === '/') [out, i] = [out + '(?:.*/)?', i + 2];
      else if (atStart && atEnd) [out, i] = [out + '.*', i + 1];
      else [out, i] = [out + '[^/]*', i + 1];
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) out += '\\[';
      else {
        let cls = glob.slice(i + 1, close).replace(/\\/g, '\\\\');
        if (cls.startsWith('!')) cls = '^' + cls.slice(1);
        [out, i] = [out + `[${cls}]`, close];
      }
    } else if (c === '\\' && i + 1 < glob.length) out += escapeRegex(glob[++i]!);
    else out += escapeRegex(c);
  }
  return out;
}

function escapeRegex(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? '\\' + c : c;
}

/** A glob as search_files takes it: without a `/` it matches the file name at any depth. */
export function globMatcher(glob: string): (path: string) => boolean {
  const anchored = glob.includes('/');
  const source = globToRegexSource(glob.replace(/^\//, ''));
  const re = new RegExp(anchored ? `^${source}$` : `(?:^|/)${source}$`);
  return (p) => re.test(p);
}
