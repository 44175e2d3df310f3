// How two lines compare at each level of edit_file's tolerance, from strict to loose: trailing
// whitespace, then indentation, then typography (curly quotes, en/em dashes, the ellipsis and
// non-breaking spaces against their ASCII forms) and runs of spaces inside the line. Nothing
// looser: never case, never whitespace removed altogether.

/** Characters a model (or a word processor) writes in place of their ASCII forms. */
const TYPOGRAPHY: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u2026': '...',
  '\u00A0': ' ',
  '\u2007': ' ',
  '\u202F': ' ',
};
const TYPOGRAPHIC = /[\u2018\u2019\u201C\u201D\u2013\u2014\u2026\u00A0\u2007\u202F]/g;
const SPACE_RUN = /[ \t]{2,}|\t/g;

/** A line as the loosest level sees it. */
export function looseKey(line: string): string {
  return line
    .replace(TYPOGRAPHIC, (c) => TYPOGRAPHY[c]!)
    .replace(SPACE_RUN, ' ')
    .trim();
}

export type SameLine = (fileLine: string, searchLine: string) => boolean;

/** The levels in the order they are tried; each is accepted only when it matches one place. */
export const LEVELS: readonly SameLine[] = [
  (a, b) => a.trimEnd() === b.trimEnd(),
  (a, b) => a.trim() === b.trim(),
  (a, b) => looseKey(a) === looseKey(b),
];

/**
 * The longest run of the line's characters that every level keeps as they are (no whitespace,
 * no quote, dash or dot that typography may stand in for): a file line that matches the line
 * at any level contains it verbatim, so `indexOf` can find the candidates.
 */
export function anchorToken(line: string): string {
  let best = '';
  for (const run of line.match(/[^\s'".\-\u2018\u2019\u201C\u201D\u2013\u2014\u2026]+/g) ?? []) if (run.length > best.length) best = run;
  return best;
}
