// planWrite: the pure heart of write_file. Overwriting keeps the file's encoding, BOM and line
// endings; a new file is UTF-8. Like planEdit, the extension can show it before approval.
import { decodeText, encodeText, isBinary, type TextEncodingName } from '../text/encoding.js';
import { unifiedDiff } from '../text/unified-diff.js';

export type WritePlan =
  | {
      ok: true;
      created: boolean;
      before: string | undefined;
      newText: string;
      newBytes: Uint8Array;
      diff: string;
      added: number;
      removed: number;
      encoding: TextEncodingName;
    }
  | { ok: false; message: string };

const utf8 = new TextEncoder();

export function planWrite(original: Uint8Array | undefined, content: string, path = 'file'): WritePlan {
  if (original === undefined) {
    const d = unifiedDiff(path, undefined, content);
    return {
      ok: true,
      created: true,
      before: undefined,
      newText: content,
      newBytes: utf8.encode(content),
      diff: d.text,
      added: d.added,
      removed: d.removed,
      encoding: 'utf8',
    };
  }
  if (isBinary(original)) return { ok: false, message: `${path} is a binary file; write_file only replaces text files.` };
  const before = decodeText(original);
  const lf = content.replace(/\r\n/g, '\n');
  const newText = before.eol === '\r\n' ? lf.replace(/\n/g, '\r\n') : lf;
  // A Latin-1 file that must now hold other characters becomes UTF-8 rather than failing.
  // A file in no one encoding (UTF-8 with a stray byte) is rewritten as UTF-8, the model's text.
  const encoding = before.mixedAt === undefined && encodeText(newText, before.encoding) ? before.encoding : 'utf8';
  const newBytes = encodeText(newText, encoding)!;
  const d = unifiedDiff(path, before.text, newText);
  return { ok: true, created: false, before: before.text, newText, newBytes, diff: d.text, added: d.added, removed: d.removed, encoding };
}
