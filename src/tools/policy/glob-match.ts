// Bash pathname patterns, one path segment at a time: `*`, `?` and `[…]`, with `\x` a literal
// character and a leading `.` matched only by a literal `.` (bash's default, no dotglob). A
// bracket expression is matched as "any one character": a superset of bash's matches, which
// is what a safety check needs; POSIX classes (`[[:alpha:]]`), equivalence classes and collating
// symbols inside one are skipped over, so the expression ends where bash's does. Names are
// matched by code point (`?` is one character, even outside the BMP), as bash does in a UTF-8
// locale.

/** Splits a pattern on the slashes that separate segments (an escaped `\/` does not). */
export function splitPattern(pattern: string): string[] {
  const out: string[] = [];
  let current = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) current += c + pattern[++i];
    else if (c === '/') [out[out.length], current] = [current, ''];
    else current += c;
  }
  out.push(current);
  return out;
}

export function segmentHasGlob(segment: string): boolean {
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === '\\') i++;
    else if (c === '*' || c === '?' || c === '[') return true;
  }
  return false;
}

/** The segment with its escapes removed (for a segment without glob characters). */
export function unescapeSegment(segment: string): string {
  return segment.replace(/\\(.)/g, '$1');
}

/** A matcher for names in one folder. */
export function segmentMatcher(segment: string): (name: string) => boolean {
  let re = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '\\' && i + 1 < segment.length) re += escapeRegExp(segment[++i]!);
    else if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const end = bracketEnd(segment, i);
      if (end === -1) re += '\\[';
      else [re, i] = [`${re}.`, end];
    } else re += escapeRegExp(c);
  }
  const regex = new RegExp(`^${re}$`, 'su');
  const explicitDot = segment.startsWith('.') || segment.startsWith('\\.');
  return (name) => (explicitDot || !name.startsWith('.')) && regex.test(name);
}

/** Index of the `]` closing a bracket expression opened at `open`, or -1 when it is a literal `[`. */
function bracketEnd(s: string, open: number): number {
  let j = open + 1;
  if (s[j] === '!' || s[j] === '^') j++;
  if (s[j] === ']') j++;
  for (; j < s.length; j++) {
    if (s[j] === '\\') j++;
    else if (s[j] === '[' && ':=.'.includes(s[j + 1] ?? '')) {
      // `[:alpha:]`, `[=e=]`, `[.x.]`: their own `]` does not close the bracket.
      const close = s.indexOf(`${s[j + 1]}]`, j + 2);
      if (close !== -1) j = close + 1;
    } else if (s[j] === ']') return j;
  }
  return -1;
}

function escapeRegExp(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
