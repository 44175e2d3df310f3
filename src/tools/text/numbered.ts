// The `12 | text` line-number format of read_file, and the inverse that edit_file uses to
// forgive prefixes the model copied from it.

/** read_file's prefix: the line number right-aligned, " | ", then the line. */
const PREFIX = /^ *(\d+) \|(?: |$)/;

/** Numbers lines starting at `firstLine` (1-based), right-aligned to the widest number. */
export function numberLines(lines: readonly string[], firstLine: number, width?: number): string {
  const w = width ?? String(firstLine + lines.length - 1).length;
  return lines.map((l, i) => `${String(firstLine + i).padStart(w)} | ${l}`).join('\n');
}

/**
 * Strips read_file's `12 | ` prefixes when the lines carry its numbering: every non-blank line
 * has one and the numbers count up by one, as read_file printed them (a gap is allowed only
 * where a blank line stands). Otherwise the lines are returned as they are: `1 | x` or `1\tx`
 * may be the file's own text.
 */
export function stripLineNumbers(lines: readonly string[]): { lines: string[]; stripped: boolean } {
  let expected: number | undefined;
  for (const l of lines) {
    if (l.trim() === '') {
      if (expected !== undefined) expected++;
      continue;
    }
    const m = PREFIX.exec(l);
    const n = m ? Number(m[1]) : Number.NaN;
    if (!m || (expected !== undefined && n !== expected)) return { lines: [...lines], stripped: false };
    expected = n + 1;
  }
  if (expected === undefined) return { lines: [...lines], stripped: false };
  return { lines: lines.map((l) => l.replace(PREFIX, '')), stripped: true };
}

/** Each line's read_file prefix removed where it has one (for a replace whose search carried them). */
export function stripEachLineNumber(lines: readonly string[]): string[] {
  return lines.map((l) => l.replace(PREFIX, ''));
}

/**
 * Numbered text of whole lines from `start` (0-based), stopping before `maxChars`. `cut`: a line
 * longer than `maxLineChars` was shortened (the text shown is not the whole line).
 */
export function numberedWithin(
  lineAt: (i: number) => string,
  start: number,
  end: number,
  maxChars: number,
  maxLineChars = 2000,
): { text: string; nextLine: number; cut: boolean } {
  const width = String(end).length;
  const out: string[] = [];
  let used = 0;
  let cut = false;
  let i = start;
  for (; i < end; i++) {
    let line = lineAt(i).replace(/\r$/, '');
    if (line.length > maxLineChars) {
      line = `${line.slice(0, maxLineChars)} … [line cut: ${line.length} characters]`;
      cut = true;
    }
    const row = `${String(i + 1).padStart(width)} | ${line}`;
    if (used + row.length + 1 > maxChars && out.length > 0) break;
    out.push(row);
    used += row.length + 1;
  }
  return { text: out.join('\n'), nextLine: i, cut };
}
