// Indentation when a search block matched only after forgiving it: the block's lines must step
// in and out exactly as the file's lines do (a block whose relative indentation differs would
// change what the code means in Python, YAML or Makefiles, so it is refused), and the
// replacement is re-indented in the file's own style — tabs or spaces, and the file's width.
// Each side's style is read from its own lines: a side is indented with tabs when one of its
// lines starts with a tab; a space width is the most frequent step into a deeper line.

interface Style {
  tabs: boolean;
  /** Spaces per level (tab-indented sides: spaces that make a tab when a line mixes them). */
  width: number;
}

/** One line's indentation in levels of its side's style, plus the spaces that align within a level. */
interface Indent {
  levels: number;
  extra: number;
}

const DEFAULT_WIDTH = 4;

const leadingOf = (line: string): string => /^[ \t]*/.exec(line)![0];
const nonBlank = (lines: readonly string[]): string[] => lines.filter((l) => l.trim() !== '');

function styleOf(lines: readonly string[], fallbackWidth = DEFAULT_WIDTH): Style {
  const leads = nonBlank(lines).map(leadingOf);
  if (leads.some((l) => l.startsWith('\t'))) return { tabs: true, width: fallbackWidth };
  const widths = leads.map((l) => l.length);
  const base = Math.min(...widths);
  return { tabs: false, width: commonStep(widths) || widths.reduce((g, w) => gcd(g, w - base), 0) || fallbackWidth };
}

/** The most frequent step into a deeper line (alignment lines step oddly, and rarely). */
function commonStep(widths: readonly number[]): number {
  const counts = new Map<number, number>();
  for (let i = 1; i < widths.length; i++) {
    const step = widths[i]! - widths[i - 1]!;
    if (step > 0) counts.set(step, (counts.get(step) ?? 0) + 1);
  }
  let best = 0;
  for (const [step, n] of counts) if (n > (counts.get(best) ?? 0) || (n === counts.get(best) && step > best)) best = step;
  return best;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

function indentOf(line: string, style: Style): Indent {
  const lead = leadingOf(line);
  if (style.tabs) {
    const tabs = /^\t*/.exec(lead)![0].length;
    return { levels: tabs, extra: lead.length - tabs };
  }
  const width = [...lead].reduce((w, c) => w + (c === '\t' ? style.width : 1), 0);
  return { levels: Math.floor(width / style.width), extra: width % style.width };
}

function render(indent: Indent, style: Style): string {
  const levels = Math.max(0, indent.levels);
  const extra = Math.max(0, indent.extra);
  return style.tabs ? '\t'.repeat(levels) + ' '.repeat(extra) : ' '.repeat(levels * style.width + extra);
}

/**
 * True when each search line sits as many levels from the block's first line as its file line
 * does from the matched first line (blank lines do not count).
 */
export function sameRelativeIndentation(fileLines: readonly string[], searchLines: readonly string[]): boolean {
  const pairs = fileLines.map((f, i) => [f, searchLines[i]!] as const).filter(([f, s]) => f.trim() !== '' && s.trim() !== '');
  if (pairs.length < 2) return true;
  const fStyle = styleOf(pairs.map(([f]) => f));
  const sStyle = styleOf(
    pairs.map(([, s]) => s),
    fStyle.width,
  );
  const f0 = indentOf(pairs[0]![0], fStyle);
  const s0 = indentOf(pairs[0]![1], sStyle);
  return pairs.every(([f, s]) => {
    const [fi, si] = [indentOf(f, fStyle), indentOf(s, sStyle)];
    return fi.levels - f0.levels === si.levels - s0.levels && fi.extra - f0.extra === si.extra - s0.extra;
  });
}

/**
 * The replacement's lines re-indented from the search's style and base to the file's: each line
 * keeps its level relative to the search's first non-blank line. `context` is file text near
 * the match, read for the file's style when the matched lines alone do not show it.
 */
export function reindentReplacement(
  fileLines: readonly string[],
  searchLines: readonly string[],
  replaceLines: readonly string[],
  context: readonly string[],
): string[] {
  const j = searchLines.findIndex((l) => l.trim() !== '');
  if (j < 0) return [...replaceLines];
  const fileLead = leadingOf(fileLines[j]!);
  const searchLead = leadingOf(searchLines[j]!);
  const sStyle = styleOf([...searchLines, ...replaceLines]);
  const fStyle = fileStyle(fileLines, context, sStyle.width);
  // The same style and width: moving every line by the base difference is exact.
  if (fStyle.tabs === sStyle.tabs && (fStyle.tabs || fStyle.width === sStyle.width) && !mixes(replaceLines, sStyle)) {
    if (fileLead === searchLead) return [...replaceLines];
    return replaceLines.map((l) => (l.trim() !== '' && l.startsWith(searchLead) ? fileLead + l.slice(searchLead.length) : shift(l)));
  }
  return replaceLines.map(shift);

  function shift(line: string): string {
    if (line.trim() === '') return line;
    const base = indentOf(searchLines[j]!, sStyle);
    const own = indentOf(line, sStyle);
    const target = indentOf(fileLines[j]!, fStyle);
    const indent = { levels: target.levels + own.levels - base.levels, extra: target.extra + own.extra - base.extra };
    return render(indent, fStyle) + line.slice(leadingOf(line).length);
  }
}

/** The file's style from the matched lines, or from the lines around them when those are all at one depth. */
function fileStyle(fileLines: readonly string[], context: readonly string[], fallbackWidth: number): Style {
  const own = nonBlank(fileLines).map(leadingOf);
  if (own.some((l) => l.startsWith('\t'))) return { tabs: true, width: fallbackWidth };
  if (new Set(own.map((l) => l.length)).size > 1) return styleOf(fileLines);
  return styleOf(context, fallbackWidth);
}

/** A line that indents with the other character than its side's style. */
function mixes(lines: readonly string[], style: Style): boolean {
  return nonBlank(lines).some((l) => leadingOf(l).includes(style.tabs ? ' ' : '\t') && !/^\t* {0,3}$/.test(leadingOf(l)));
}
