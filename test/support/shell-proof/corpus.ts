// The command-line corpus files: one command line per line. Blank lines and lines starting
// with `#` are skipped; a line starting with `@json ` holds a JSON string, for command lines
// that contain newlines or other characters a text line cannot carry.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const CORPUS_DIR = path.resolve(__dirname, '../../fixtures/shell-corpus');
const CORPUS_FILES = ['adversarial.txt', 'generated.txt'];

export interface CorpusLine {
  /** "adversarial.txt:12" */
  where: string;
  text: string;
}

export function parseCorpus(file: string, content: string): CorpusLine[] {
  const lines: CorpusLine[] = [];
  content.split('\n').forEach((raw, i) => {
    if (raw.trim() === '' || raw.startsWith('#')) return;
    const text = raw.startsWith('@json ') ? (JSON.parse(raw.slice(6)) as string) : raw;
    lines.push({ where: `${file}:${i + 1}`, text });
  });
  return lines;
}

/** Every line of every corpus file, in file order. */
export function loadCorpus(): CorpusLine[] {
  return CORPUS_FILES.flatMap((f) => parseCorpus(f, fs.readFileSync(path.join(CORPUS_DIR, f), 'utf8')));
}

/** A command line as a corpus line (JSON when a plain text line cannot carry it). */
export function corpusLine(text: string): string {
  const plain =
    !/[\n\r\u0000-\u0008\u000b-\u001f\u007f]/.test(text) && !text.startsWith('#') && !text.startsWith('@json ') && text.trim() !== '';
  return plain && text === text.trim() ? text : `@json ${JSON.stringify(text)}`;
}
