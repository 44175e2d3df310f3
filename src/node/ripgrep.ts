// Search with ripgrep's --json output over exactly the files the caller chose (search_files
// walks with list_files' ignore rules and glob first), so rg applies no ignore rules of its own.
// Exported so the VS Code port can run it with VS Code's bundled rg. rg runs on all cores and
// the matches are put back in the caller's file order afterwards, so the answer is the one a
// search file by file would give. Files of any size are searched; a binary file that matched
// is named as skipped (its matches are not text), never dropped without a word.
import { spawn } from 'node:child_process';
import { promises as fs, constants } from 'node:fs';
import * as path from 'node:path';
import { WorkspaceError, type SearchMatch, type SearchQuery, type SearchResult, type SkippedFile } from '../kernel/index.js';
import { withoutCredentials } from './environment-block.js';

const MAX_TEXT_CHARS = 1000;
/** Characters of file names per rg command line (Windows allows 32,767 in all). */
const MAX_ARG_CHARS = process.platform === 'win32' ? 24_000 : 100_000;
/**
 * A parallel run cannot stop at the first matches in file order, so it collects every file's
 * (at most the wanted number each); past this many times the wanted number, it stops and the
 * chunk is searched file by file, which stops as soon as it has enough.
 */
const PARALLEL_OVERFLOW = 8;

export async function runRipgrep(rgPath: string, root: string, query: SearchQuery, signal: AbortSignal): Promise<SearchResult> {
  const matches: SearchMatch[] = [];
  const skipped: SkippedFile[] = [];
  for (const files of chunks(query.files)) {
    if (signal.aborted) break;
    const want = query.maxMatches + 1 - matches.length;
    const run = (threads: 'all' | 'one') => searchChunk(rgPath, root, { pattern: query.pattern, files, want, threads }, signal);
    const found = (await run('all')) ?? (await run('one'))!;
    for (const file of inFileOrder(found, files)) {
      if (file.binary) skipped.push({ path: file.path, reason: 'binary' });
      else matches.push(...file.matches);
      // Cut where a search file by file would have stopped: later files are not named either.
      if (matches.length > query.maxMatches) return result(matches.slice(0, query.maxMatches), true, skipped);
    }
  }
  return result(matches, false, skipped);
}

function result(matches: SearchMatch[], truncated: boolean, skipped: SkippedFile[]): SearchResult {
  return { matches, truncated, engine: 'ripgrep', ...(skipped.length ? { skipped } : {}) };
}

function* chunks(files: readonly string[]): Generator<string[]> {
  let chunk: string[] = [];
  let chars = 0;
  for (const f of files) {
    if (chunk.length && chars + f.length + 1 > MAX_ARG_CHARS) {
      yield chunk;
      [chunk, chars] = [[], 0];
    }
    chunk.push(f);
    chars += f.length + 1;
  }
  if (chunk.length) yield chunk;
}

interface FileMatches {
  path: string;
  matches: SearchMatch[];
  binary: boolean;
}

/** The files as the caller ordered them (rg on several threads finishes them in any order). */
function inFileOrder(found: FileMatches[], files: readonly string[]): FileMatches[] {
  if (found.length < 2) return found;
  const order = new Map(files.map((f, i) => [f, i]));
  return [...found].sort((a, b) => (order.get(a.path) ?? 0) - (order.get(b.path) ?? 0));
}

interface ChunkSearch {
  pattern: string;
  files: readonly string[];
  /** Matches wanted: rg stops each file there, and a run on one thread stops once it has them. */
  want: number;
  threads: 'all' | 'one';
}

/**
 * One rg run over some files. On one thread it searches them in order and stops once enough
 * matches arrived; on all threads it searches every file, or gives up (undefined) when the
 * matches pile up past PARALLEL_OVERFLOW times the wanted number.
 */
function searchChunk(rgPath: string, root: string, q: ChunkSearch, signal: AbortSignal) {
  // --no-ignore: the caller applied the rules; -m: no file floods the output.
  const threads = q.threads === 'one' ? ['-j1'] : [];
  const args = ['--json', '--no-config', '--no-ignore', '--hidden', ...threads, '-m', String(q.want), '-e', q.pattern, '--', ...q.files];
  return new Promise<FileMatches[] | undefined>((resolve, reject) => {
    const rg = spawn(rgPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: withoutCredentials() });
    const done: FileMatches[] = [];
    const current = new Map<string, SearchMatch[]>();
    let [count, pending] = [0, 0];
    let [buffer, stderr, stopped, overflow] = ['', '', false, false];
    const onAbort = () => rg.kill();
    signal.addEventListener('abort', onAbort, { once: true });
    const stop = () => {
      stopped = true;
      rg.kill();
    };
    const onLine = (line: string) => {
      const event = parseEvent(line);
      if (event?.type === 'match') {
        const list = current.get(event.match.path) ?? [];
        if (list.push(event.match) === 1) current.set(event.match.path, list);
        if (q.threads === 'all' && ++pending > q.want * PARALLEL_OVERFLOW) {
          overflow = true;
          stop();
        }
      }
      if (event?.type !== 'end') return;
      const list = current.get(event.path);
      current.delete(event.path);
      if (!list) return;
      done.push({ path: event.path, matches: list, binary: event.binary });
      if (!event.binary) count += list.length;
      if (q.threads === 'one' && count >= q.want) stop();
    };
    rg.stdout.setEncoding('utf8');
    rg.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl !== -1 && !stopped; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        onLine(line);
      }
    });
    rg.stderr.setEncoding('utf8');
    rg.stderr.on('data', (c: string) => void (stderr.length < 4000 && (stderr += c)));
    rg.on('error', (e) => reject(new WorkspaceError('io_error', `Could not run ripgrep (${rgPath}): ${e.message}`)));
    rg.on('close', (code) => {
      signal.removeEventListener('abort', onAbort);
      // 1 means no match; 2 an error: fatal when the regex is bad, not for one unreadable file.
      if (code === 2 && done.length === 0 && !stopped && /regex/i.test(stderr))
        reject(new WorkspaceError('io_error', `ripgrep: ${stderr.trim()}`));
      else resolve(overflow ? undefined : done);
    });
  });
}

type RgEvent = { type: 'match'; match: SearchMatch } | { type: 'end'; path: string; binary: boolean };

function parseEvent(line: string): RgEvent | undefined {
  if (line.startsWith('{"type":"match"')) {
    const data = JSON.parse(line).data as { path: Text; lines: Text; line_number: number };
    const text = textOf(data.lines).replace(/\r?\n$/, '');
    const match = {
      path: textOf(data.path).split(path.sep).join('/'),
      line: data.line_number,
      text: text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) : text,
    };
    return { type: 'match', match };
  }
  if (line.startsWith('{"type":"end"')) {
    const data = JSON.parse(line).data as { path: Text; binary_offset: number | null };
    return { type: 'end', path: textOf(data.path).split(path.sep).join('/'), binary: data.binary_offset !== null };
  }
  return undefined;
}

type Text = { text: string } | { bytes: string };

function textOf(t: Text): string {
  return 'text' in t ? t.text : Buffer.from(t.bytes, 'base64').toString('latin1');
}

let found: Promise<string | undefined> | undefined;

/** The first executable `rg` on PATH, looked up once. */
export function findRipgrep(): Promise<string | undefined> {
  found ??= (async () => {
    const names = process.platform === 'win32' ? ['rg.exe'] : ['rg'];
    for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
      for (const name of names) {
        const candidate = path.join(dir, name);
        if (await exists(candidate, constants.X_OK)) return candidate;
      }
    }
    return undefined;
  })();
  return found;
}

async function exists(p: string, mode = constants.F_OK): Promise<boolean> {
  return fs.access(p, mode).then(
    () => true,
    () => false,
  );
}
