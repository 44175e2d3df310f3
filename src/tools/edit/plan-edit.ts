// planEdit: the pure heart of edit_file. All blocks apply or none does; the result keeps the
// file's encoding, BOM and line endings. The VS Code extension calls it to show the proposed
// side in the diff editor before approval.
import { decodeText, isBinary, type DecodedText, type TextEncodingName } from '../text/encoding.js';
import { spliceBytes } from './splice-bytes.js';
import { LineIndex } from '../text/line-index.js';
import { SparseLines } from '../text/sparse-lines.js';
import { numberLines } from '../text/numbered.js';
import { diffReplacements, type Replacement } from './edit-diff.js';
import { exactOccurrences } from './exact-occurrences.js';
import { type EditLines, matchBlock, toEol, type BlockMatch, type EditBlock, type EditWork } from './match-block.js';

export type { EditBlock, EditWork } from './match-block.js';

/** Why an edit was refused, for code that branches on it (the message is for the model). */
export type EditRefusal =
  | 'no_edits'
  | 'binary'
  | 'mixed_encoding'
  | 'empty_search'
  | 'not_found'
  | 'ambiguous'
  | 'indentation'
  | 'overlap'
  | 'no_change'
  | 'unencodable'
  | 'not_preserved';

const BOM = '\uFEFF';
const LEADING_BOM = /^\uFEFF/;

export type EditPlan =
  | {
      ok: true;
      before: string;
      readonly newText: string;
      newBytes: Uint8Array;
      diff: string;
      added: number;
      removed: number;
      encoding: TextEncodingName;
      /** Blocks that matched only after forgiving whitespace or line-number prefixes. */
      tolerantBlocks: number;
    }
  | { ok: false; reason: EditRefusal; message: string };

export interface PlanOptions {
  /** Counts the line-level work, for tests that bound it. */
  work?: EditWork;
}

export function planEdit(original: Uint8Array | string, edits: readonly EditBlock[], path = 'file', opts: PlanOptions = {}): EditPlan {
  if (edits.length === 0) return { ok: false, reason: 'no_edits', message: 'No edits were given.' };
  if (typeof original !== 'string' && isBinary(original))
    return { ok: false, reason: 'binary', message: `${path} is a binary file; it cannot be edited as text.` };
  const decoded: DecodedText = typeof original === 'string' ? decodeString(original) : decodeText(original);
  if (decoded.mixedAt !== undefined) return mixedEncoding(path, decoded.mixedAt);
  const { text } = decoded;
  let [idx, sparse]: [LineIndex | undefined, SparseLines | undefined] = [undefined, undefined];
  const index: EditLines = { full: () => (idx ??= new LineIndex(text)), any: () => idx ?? (sparse ??= new SparseLines(text)) };

  const work = opts.work ?? { linesCompared: 0 };
  const matched: (Replacement & { block: number; tolerant: boolean })[] = [];
  const errors: string[] = [];
  let reason: EditRefusal | undefined;
  const blocks = edits.map(withoutBom);
  const occurrences = exactOccurrences(
    text,
    blocks.map((b) => toEol(b.search, decoded.eol)),
  );
  for (const [i, block] of blocks.entries()) {
    if (block.search.trim() === '') {
      reason ??= 'empty_search';
      errors.push(`Edit ${i + 1}: search is empty. To create or overwrite a whole file, use write_file.`);
      continue;
    }
    const m = matchBlock(text, index, block, decoded.eol, work, occurrences);
    if (m.type === 'match') {
      matched.push({ ...m, block: i });
      continue;
    }
    reason ??= m.type === 'missing' ? 'not_found' : m.type;
    errors.push(describeFailure(i, edits.length, m, path));
  }
  if (reason) return { ok: false, reason, message: failureMessage(errors, edits.length) };

  matched.sort((a, b) => a.start - b.start);
  for (let k = 1; k < matched.length; k++) {
    const [a, b] = [matched[k - 1]!, matched[k]!];
    if (b.start < a.end) {
      const line = index.any().lineOf(b.start) + 1;
      return {
        ok: false,
        reason: 'overlap',
        message: `Edits ${a.block + 1} and ${b.block + 1} overlap (both change line ${line}). Merge them into one block. No edit was applied.`,
      };
    }
  }
  if (matched.every((m) => text.slice(m.start, m.end) === m.replacement))
    return { ok: false, reason: 'no_change', message: 'These edits change nothing: each replace equals its search.' };
  const splice = spliceBytes(original, decoded, text, matched);
  if (!splice.ok) return splice.reason === 'unencodable' ? unencodable(path, decoded.encoding) : notPreserved(path);
  const newBytes = splice.bytes;
  const diff = diffReplacements(path, index.any(), matched);
  let newText: string | undefined;
  return {
    ok: true,
    before: text,
    newBytes,
    diff: diff.text,
    added: diff.added,
    removed: diff.removed,
    encoding: decoded.encoding,
    tolerantBlocks: matched.filter((m) => m.tolerant).length,
    // Built on first use: callers that only write the bytes never pay for joining the text.
    get newText() {
      return (newText ??= applyReplacements(text, matched));
    },
  };
}

/**
 * The BOM is bytes, kept by the encoding: a search or replace starting with the character
 * U+FEFF (copied from a decoder that kept it) never becomes text, or the file would get two.
 */
function withoutBom(block: EditBlock): EditBlock {
  if (!block.search.startsWith(BOM) && !block.replace.startsWith(BOM)) return block;
  return { search: block.search.replace(LEADING_BOM, ''), replace: block.replace.replace(LEADING_BOM, '') };
}

function unencodable(path: string, encoding: TextEncodingName): EditPlan {
  const name = encoding === 'latin1' ? 'Latin-1' : encoding;
  return {
    ok: false,
    reason: 'unencodable',
    message: `${path} is ${name} encoded and the new text has characters ${name} cannot hold. Use only ${name} characters. No edit was applied.`,
  };
}

function notPreserved(path: string): EditPlan {
  return {
    ok: false,
    reason: 'not_preserved',
    message: `${path} could not be edited without changing bytes outside the edited text (its encoding does not map back to the same bytes). It was not changed.`,
  };
}

function mixedEncoding(path: string, at: number): EditPlan {
  return {
    ok: false,
    reason: 'mixed_encoding',
    message: `${path} is not in one encoding: it holds UTF-8 characters, but the byte at offset ${at} is not UTF-8 (a Windows-1252 or Latin-1 character, perhaps). Editing it as either encoding would corrupt the other's characters, so it was not changed. Fix that byte first (for example with a command such as iconv), or rewrite the whole file with write_file.`,
  };
}

function decodeString(text: string): DecodedText {
  const lf = text.indexOf('\n');
  return { text, encoding: 'utf8', eol: lf > 0 && text[lf - 1] === '\r' ? '\r\n' : '\n' };
}

function applyReplacements(text: string, sorted: readonly Replacement[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const r of sorted) {
    parts.push(text.slice(at, r.start), r.replacement);
    at = r.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

function describeFailure(i: number, total: number, m: Exclude<BlockMatch, { type: 'match' }>, path: string): string {
  const which = total > 1 ? `Edit ${i + 1} of ${total}` : 'The edit';
  if (m.type === 'indentation')
    return `${which}: the search text's lines are at line ${m.line} of ${path}, but they are indented differently relative to each other there (the replacement would change the code's structure). Copy the lines with their indentation from read_file.`;
  if (m.type === 'ambiguous') {
    const capped = m.lines.length >= 10;
    const more = capped ? ' and more' : '';
    return `${which}: the search text matches ${capped ? 'at least ' : ''}${m.lines.length} places in ${path} (lines ${m.lines.join(', ')}${more}). Add surrounding lines to make it unique.`;
  }
  if (!m.candidate) return `${which}: the search text was not found in ${path}.`;
  const c = m.candidate;
  return `${which}: the search text was not found in ${path}. The closest text is at line ${c.line} (${Math.round(c.similarity * 100)}% similar):\n${numberLines(c.lines, c.line)}`;
}

function failureMessage(errors: string[], total: number): string {
  const head = errors.slice(0, 3).join('\n\n');
  const more = errors.length > 3 ? `\n\n(${errors.length - 3} more blocks failed too.)` : '';
  const none = total > 1 ? 'No edit was applied: all blocks apply or none does.' : 'The file was not changed.';
  return `${head}${more}\n\n${none} Copy the current text exactly into search (read_file shows it).`;
}
