// A .gitignore matcher that decides as git does (checked against `git check-ignore` on random
// trees): comments, `!` negation, escapes, trailing spaces (not tabs) trimmed unless escaped,
// leading and trailing `/`, and git's wildmatch for the patterns (wildmatch.ts). Scopes nest:
// an ignore file applies to its own folder and below, and the deepest, last matching rule wins.
import { pathPatternSource, wildmatchSource } from './wildmatch.js';

interface IgnoreRule {
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
      if (base !== '' && !path.startsWith(`${base}/`)) continue;
      const sub = base === '' ? path : path.slice(base.length + 1);
      for (const r of rules) {
        if (r.dirOnly && !isDir) continue;
        if (r.regex.test(sub)) ignored = !r.negate;
      }
    }
    return ignored;
  }
}

function parseIgnore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const rule = parseLine(raw);
    if (rule) rules.push(rule);
  }
  return rules;
}

function parseLine(raw: string): IgnoreRule | undefined {
  if (raw.startsWith('#')) return undefined;
  let line = trimTrailingSpaces(raw);
  if (line === '') return undefined;
  let negate = false;
  if (line.startsWith('!')) [negate, line] = [true, line.slice(1)];
  let dirOnly = false;
  if (line.endsWith('/')) [dirOnly, line] = [true, line.slice(0, -1)];
  if (line === '') return undefined;
  // With a slash anywhere but at the end, a pattern is relative to its file's folder;
  // without one, it matches a name at any depth.
  const anchored = line.includes('/');
  if (line.startsWith('/')) line = line.slice(1);
  const body = anchored ? pathPatternSource(line) : wildmatchSource(line);
  if (body === undefined) return undefined;
  return { regex: new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`), negate, dirOnly };
}

/** Git trims a run of trailing spaces, unless the first is escaped; tabs stay. */
function trimTrailingSpaces(line: string): string {
  let lastSpace = -1;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === ' ') {
      if (lastSpace < 0) lastSpace = i;
    } else if (c === '\\') {
      if (++i === line.length) return line;
      lastSpace = -1;
    } else lastSpace = -1;
  }
  return lastSpace < 0 ? line : line.slice(0, lastSpace);
}
