// The `12 | text` line-number format of read_file, and the inverse that edit_file uses to
// forgive prefixes the model copied from it.

const PREFIX = /^ *\d+ \|(?: |$)|^ *\d+\t/;

/** Numbers lines starting at `firstLine` (1-based), right-aligned to the widest number. */
export function numberLines(lines: readonly string[], firstLine: number, width?: number): string {
  const w = width ?? String(firstLine + lines.length - 1).length;
  return lines.map((l, i) => `${String(firstLine + i).padStart(w)} | ${l}`).join('\n');
}

/** Strips `12 | ` prefixes when every non-blank line has one; otherwise returns the lines as they are. */
export function stripLineNumbers(lines: readonly string[]): { lines: string[]; stripped: boolean } {
  const nonBlank = lines.filter((l) => l.trim() !== '');
  if (nonBlank.length === 0 || !nonBlank.every((l) => PREFIX.test(l))) return { lines: [...lines], stripped: false };
  return { lines: lines.map((l) => l.replace(PREFIX, '')), stripped: true };
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
