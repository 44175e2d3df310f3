// Reads a program's arguments the way its own option parser does (getopt-style clusters,
// `--long=value`, `--` and, for GNU tools, options after operands), against a list of the options
// known to keep it read-only. Anything unlisted, computed at run time or ambiguous stops the
// reading with NotReadOnly, which makes the command `execute` (it asks).
import { readPath, type CommandPath } from './command-class.js';
import { globPattern, hasGlob, pathText, startsWithTilde, type Word } from './shell-word.js';

/** none: a flag; text/num: a value that names no file; path: a value naming a file it reads; optional: `--opt[=value]`. */
type ArgKind = 'none' | 'text' | 'num' | 'path' | 'optional';

/** Thrown to stop judging; not an Error, so throwing it records no stack (it is thrown often). */
export class NotReadOnly {
  constructor(
    readonly message: string,
    /** `unparseable` for forms bash gives a meaning we do not model (printf -v, test -v). */
    readonly type: 'execute' | 'unparseable' = 'execute',
  ) {}
}

export function notReadOnly(why: string): never {
  throw new NotReadOnly(why);
}

export function notModelled(why: string): never {
  throw new NotReadOnly(why, 'unparseable');
}

export interface OptionTable {
  /** By spelling (`-n`, `--lines`): the canonical name (the first spelling listed) and kind. */
  readonly get: (spelling: string) => { name: string; kind: ArgKind } | undefined;
  /** Every spelling listed, for checking the table against the program's own option list. */
  readonly spellings: () => string[];
}

/**
 * Options from compact definitions, separated by commas or new lines: `-n --lines =num`,
 * `-q --quiet --silent`, `--color =?`. Spellings of one option share a definition; its kind comes
 * last (`=text`, `=num`, `=path`, `=?` for an optional attached value), a flag has none.
 */
export function options(...lists: string[]): OptionTable {
  const map = new Map<string, { name: string; kind: ArgKind }>();
  const kinds: Record<string, ArgKind> = { '=text': 'text', '=num': 'num', '=path': 'path', '=?': 'optional' };
  const defs = lists
    .flatMap((l) => l.split(/[,\n]/))
    .map((d) => d.trim())
    .filter(Boolean);
  for (const def of defs) {
    const parts = def.split(/ +/);
    const kind = kinds[parts[parts.length - 1]!] ?? 'none';
    const names = kind === 'none' ? parts : parts.slice(0, -1);
    for (const n of names) map.set(n, { name: names[0]!, kind });
  }
  return { get: (s) => map.get(s), spellings: () => [...map.keys()] };
}

interface ParsedOption {
  /** The canonical spelling, e.g. `-n` for both `-n` and `--lines`. */
  name: string;
  value?: string;
}

export interface ParsedArgs {
  options: ParsedOption[];
  operands: Word[];
  /** Files named by option values (`grep -f FILE`). */
  paths: CommandPath[];
  has(name: string): boolean;
}

export interface ParseStyle {
  /** GNU getopt: options may follow operands (until `--`). Otherwise the first operand ends them. */
  permute: boolean;
  /** `-5` means `-n 5` (head, tail, grep's context, git log). */
  numeric?: boolean;
  /** Whether `--opt value` (not only `--opt=value`) passes a value. */
  longSeparate?: boolean;
  /**
   * tree's parser: an option in a cluster that takes a value takes the next unused word, never
   * the rest of the cluster (`-Lo 2 out` is `-L 2 -o out`).
   */
  valuesFromNextWords?: boolean;
  /** yargs and cac (jest, vitest, mocha): short options one at a time; `-tc=FILE` means `-t -c FILE` to them. */
  noClusters?: boolean;
}

export const GNU: ParseStyle = { permute: true, longSeparate: true };
export const POSIX: ParseStyle = { permute: false, longSeparate: true };

export function parseArgs(words: readonly Word[], table: OptionTable, style: ParseStyle = GNU): ParsedArgs {
  const out: ParsedArgs = { options: [], operands: [], paths: [], has: (n) => out.options.some((o) => o.name === n) };
  let done = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (done) {
      out.operands.push(w);
      continue;
    }
    const text = wordText(w);
    if (text === '-' || !text.startsWith('-') || startsWithTilde(w)) {
      out.operands.push(w);
      if (!style.permute) done = true;
    } else if (text === '--') done = true;
    else if (hasGlob(w)) notReadOnly(`the option ${text} has a glob bash would expand`);
    else if (text.startsWith('--')) i = long(text, words, i, table, style, out);
    else if (style.numeric && /^-\d+$/.test(text)) out.options.push({ name: '-#', value: text.slice(1) });
    else if (style.noClusters && text.length > 2)
      notReadOnly(`${text} is read as several options or an attached value in ways that differ between parsers`);
    else if (style.valuesFromNextWords) i = nextWordCluster(text, words, i, table, out);
    else i = cluster(text, words, i, table, out);
  }
  return out;
}

function long(text: string, words: readonly Word[], i: number, table: OptionTable, style: ParseStyle, out: ParsedArgs): number {
  const eq = text.indexOf('=');
  const spelled = eq === -1 ? text : text.slice(0, eq);
  const def = table.get(spelled) ?? notReadOnly(`${spelled} is not an option known to be read-only`);
  const attached = eq === -1 ? undefined : text.slice(eq + 1);
  if (def.kind === 'none') {
    if (attached !== undefined) notReadOnly(`${spelled} takes no value`);
    out.options.push({ name: def.name });
    return i;
  }
  if (def.kind === 'optional' || attached !== undefined) {
    out.options.push({ name: def.name, ...(attached === undefined ? {} : { value: attached }) });
    if (def.kind === 'path' && attached !== undefined) out.paths.push(literalPath(attached));
    return i;
  }
  if (!style.longSeparate) notReadOnly(`${spelled} needs its value after =`);
  return separateValue(def, spelled, words, i, out);
}

function cluster(text: string, words: readonly Word[], i: number, table: OptionTable, out: ParsedArgs): number {
  for (let k = 1; k < text.length; k++) {
    const spelled = `-${text[k]}`;
    const def = table.get(spelled) ?? notReadOnly(`${spelled} is not an option known to be read-only`);
    const rest = text.slice(k + 1);
    if (def.kind === 'none') {
      out.options.push({ name: def.name });
      continue;
    }
    if (rest.startsWith('=')) notReadOnly(`${spelled}=… is read differently by different option parsers`);
    if (def.kind === 'optional' || rest) {
      out.options.push({ name: def.name, ...(rest ? { value: rest } : {}) });
      if (def.kind === 'path' && rest) out.paths.push(literalPath(rest));
      return i;
    }
    return separateValue(def, spelled, words, i, out);
  }
  return i;
}

/** A cluster whose value options each take the next unused word (tree). */
function nextWordCluster(text: string, words: readonly Word[], i: number, table: OptionTable, out: ParsedArgs): number {
  let next = i;
  for (const letter of text.slice(1)) {
    const spelled = `-${letter}`;
    const def = table.get(spelled) ?? notReadOnly(`${spelled} is not an option known to be read-only`);
    if (def.kind === 'none') out.options.push({ name: def.name });
    else next = separateValue(def, spelled, words, next, out);
  }
  return next;
}

/** The value in the next word. One that starts with `-` could be taken as an option by the program: we stop. */
function separateValue(def: { name: string; kind: ArgKind }, spelled: string, words: readonly Word[], i: number, out: ParsedArgs): number {
  const w = words[i + 1] ?? notReadOnly(`${spelled} needs a value`);
  const value = wordText(w);
  if (hasGlob(w)) notReadOnly(`the value of ${spelled} has a glob bash would expand`);
  if (value.startsWith('-') && !(def.kind === 'num' && /^[-+]?\d/.test(value))) notReadOnly(`the value of ${spelled} starts with -`);
  if (startsWithTilde(w) && def.kind !== 'path') notReadOnly(`the value of ${spelled} starts with ~`);
  out.options.push({ name: def.name, value });
  if (def.kind === 'path') out.paths.push(wordPath(w));
  return i + 1;
}

/** The word's text, or NotReadOnly when bash computes it at run time. */
export function wordText(w: Word): string {
  return pathText(w) ?? notReadOnly('an argument is computed at run time ($…, `…`), so what it names cannot be checked');
}

/** A path written inside a larger word (`--file=x`): no tilde expansion, no glob. */
export function literalPath(text: string): CommandPath {
  return readPath(text.startsWith('~') ? `./${text}` : text);
}

/** A word naming a file to read: a tilde path, a glob pattern or a literal name. */
export function wordPath(w: Word, extra: Partial<CommandPath> = {}): CommandPath {
  if (hasGlob(w)) return readPath(globPattern(w) ?? wordText(w), { glob: true, ...extra });
  const text = wordText(w);
  return readPath(!startsWithTilde(w) && text.startsWith('~') ? `./${text}` : text, extra);
}

/** Operands that name files to read; `-` is standard input. */
export function pathOperands(operands: readonly Word[], extra: Partial<CommandPath> = {}): CommandPath[] {
  return operands.filter((w) => pathText(w) !== '-').map((w) => wordPath(w, extra));
}

/** Operands printed or compared as text: a glob still lists a folder, a tilde reveals a home folder. */
export function textOperands(operands: readonly Word[]): CommandPath[] {
  const paths: CommandPath[] = [];
  for (const w of operands) {
    if (startsWithTilde(w)) notReadOnly(`${wordText(w)} is expanded to a home folder`);
    if (hasGlob(w)) paths.push(wordPath(w));
    else wordText(w);
  }
  return paths;
}

/** Operands whose position matters (a pattern, a format): a glob would shift them. */
export function fixedOperands(operands: readonly Word[]): string[] {
  return operands.map((w) => {
    if (hasGlob(w)) notReadOnly(`${wordText(w)} has a glob bash would expand into several arguments`);
    if (startsWithTilde(w)) notReadOnly(`${wordText(w)} is expanded to a home folder`);
    return wordText(w);
  });
}

/** A count limit on operands; a glob may expand to any number of them, so it counts as over. */
export function atMost(operands: readonly Word[], n: number, why: string): void {
  if (operands.length > n || operands.some(hasGlob)) notReadOnly(why);
}
