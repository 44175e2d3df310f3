// planEdit: the pure heart of edit_file. All blocks apply or none does; the result keeps the
// file's encoding, BOM and line endings. The VS Code extension calls it to show the proposed
// side in the diff editor before approval.
import { decodeText, encodeText, isBinary, type DecodedText, type TextEncodingName } from '../text/encoding.js';
import { LineIndex } from '../text/line-index.js';
import { numberLines } from '../text/numbered.js';
import { diffReplacements, type Replacement } from './edit-diff.js';
import { matchBlock, type BlockMatch, type EditBlock, type EditWork } from './match-block.js';

export type { EditBlock, EditWork } from './match-block.js';

/** Why an edit was refused, for code that branches on it (the message is for the model). */
export type EditRefusal = 'no_edits' | 'binary' | 'empty_search' | 'not_found' | 'ambiguous' | 'overlap' | 'no_change' | 'unencodable';

const utf8 = new TextEncoder();

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
  const { text } = decoded;
  let idx: LineIndex | undefined;
  const index = () => (idx ??= new LineIndex(text));

  const work = opts.work ?? { linesCompared: 0 };
  const matched: (Replacement & { block: number; tolerant: boolean })[] = [];
  const errors: string[] = [];
  let reason: EditRefusal | undefined;
  for (const [i, block] of edits.entries()) {
    if (block.search.trim() === '') {
      reason ??= 'empty_search';
      errors.push(`Edit ${i + 1}: search is empty. To create or overwrite a whole file, use write_file.`);
      continue;
    }
    const m = matchBlock(text, index, block, decoded.eol, work);
    if (m.type === 'match') {
      matched.push({ ...m, block: i });
      continue;
    }
    reason ??= m.type === 'ambiguous' ? 'ambiguous' : 'not_found';
    errors.push(describeFailure(i, edits.length, m, path));
  }
  if (reason) return { ok: false, reason, message: failureMessage(errors, edits.length) };

  matched.sort((a, b) => a.start - b.start);
  for (let k = 1; k < matched.length; k++) {
    const [a, b] = [matched[k - 1]!, matched[k]!];
    if (b.start < a.end) {
      const line = index().lineOf(b.start) + 1;
      return {
        ok: false,
        reason: 'overlap',
        message: `Edits ${a.block + 1} and ${b.block + 1} overlap (both change line ${line}). Merge them into one block. No edit was applied.`,
      };
    }
  }
  if (matched.every((m) => text.slice(m.start, m.end) === m.replacement))
    return { ok: false, reason: 'no_change', message: 'These edits change nothing: each replace equals its search.' };
  const newBytes = spliceBytes(original, decoded, text, matched);
  if (!newBytes)
    return {
      ok: false,
      reason: 'unencodable',
      message: `${path} is Latin-1 encoded and the new text has characters Latin-1 cannot hold. Use only Latin-1 characters. No edit was applied.`,
    };
  const diff = diffReplacements(path, index(), matched);
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
 * The new bytes. For pure-ASCII UTF-8 (char offsets equal byte offsets) the original bytes
 * are spliced directly, skipping a whole-file encode; otherwise the new text is encoded.
 */
function spliceBytes(
  original: Uint8Array | string,
  decoded: DecodedText,
  text: string,
  sorted: readonly Replacement[],
): Uint8Array | undefined {
  if (typeof original === 'string' || decoded.encoding !== 'utf8' || original.length !== text.length) {
    return encodeText(applyReplacements(text, sorted), decoded.encoding);
  }
  const parts = sorted.map((r) => utf8.encode(r.replacement));
  const size = original.length + sorted.reduce((n, r, k) => n + parts[k]!.length - (r.end - r.start), 0);
  const out = new Uint8Array(size);
  let [from, at] = [0, 0];
  sorted.forEach((r, k) => {
    out.set(original.subarray(from, r.start), at);
    at += r.start - from;
    out.set(parts[k]!, at);
    at += parts[k]!.length;
    from = r.end;
  });
  out.set(original.subarray(from), at);
  return out;
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
