// Search with ripgrep's --json output over exactly the files the caller chose (search_files
// walks with list_files' ignore rules and glob first), so rg applies no ignore rules of its own.
// Exported so the VS Code port can run it with VS Code's bundled rg. Like the walking search,
// it skips files with a NUL character and files over SEARCH_MAX_FILE_BYTES, and it stops rg
// once enough matches have arrived.
import { spawn } from 'node:child_process';
import { promises as fs, constants } from 'node:fs';
import * as path from 'node:path';
import { SEARCH_MAX_FILE_BYTES, WorkspaceError, type SearchMatch, type SearchQuery, type SearchResult } from '../kernel/index.js';

const MAX_TEXT_CHARS = 1000;
/** Characters of file names per rg command line (Windows allows 32,767 in all). */
const MAX_ARG_CHARS = process.platform === 'win32' ? 24_000 : 100_000;

export async function runRipgrep(rgPath: string, root: string, query: SearchQuery, signal: AbortSignal): Promise<SearchResult> {
  const matches: SearchMatch[] = [];
  for (let files of chunks(query.files)) {
    while (files.length && !signal.aborted) {
      const found = await searchChunk(rgPath, root, query.pattern, files, query.maxMatches + 1 - matches.length, signal);
      for (const file of await withinSize(root, found.files)) matches.push(...file.matches);
      if (matches.length > query.maxMatches) return { matches: matches.slice(0, query.maxMatches), truncated: true, engine: 'ripgrep' };
      // Stopped for matches that the size limit then dropped: go on after the last file done.
      files = found.stoppedAfter === undefined ? [] : files.slice(files.indexOf(found.stoppedAfter) + 1);
    }
  }
  return { matches, truncated: false, engine: 'ripgrep' };
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
}

/** One rg run over some files, in their order (-j1); files that turn out binary are dropped. */
function searchChunk(rgPath: string, root: string, pattern: string, files: string[], want: number, signal: AbortSignal) {
  // --no-ignore: the caller applied the rules; -m: no file floods the output.
  const args = ['--json', '--no-config', '--no-ignore', '--hidden', '-j1', '-m', String(want), '-e', pattern, '--', ...files];
  return new Promise<{ files: FileMatches[]; stoppedAfter?: string }>((resolve, reject) => {
    const rg = spawn(rgPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const done: FileMatches[] = [];
    let current: FileMatches | undefined;
    let count = 0;
    let [buffer, stderr, stopped] = ['', '', false];
    const onAbort = () => rg.kill();
    signal.addEventListener('abort', onAbort, { once: true });
    const onLine = (line: string) => {
      const event = parseEvent(line);
      if (event?.type === 'match') (current ??= { path: event.match.path, matches: [] }).matches.push(event.match);
      if (event?.type !== 'end') return;
      if (current && !event.binary) {
        done.push(current);
        count += current.matches.length;
      }
      current = undefined;
      if (count >= want) {
        stopped = true;
        rg.kill();
      }
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
      else resolve(stopped ? { files: done, stoppedAfter: done[done.length - 1]!.path } : { files: done });
    });
  });
}

type RgEvent = { type: 'match'; match: SearchMatch } | { type: 'end'; binary: boolean };

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
  if (line.startsWith('{"type":"end"')) return { type: 'end', binary: JSON.parse(line).data.binary_offset !== null };
  return undefined;
}

/** Files with matches that are within the size every engine searches (rg ignores the limit for named files). */
async function withinSize(root: string, files: FileMatches[]): Promise<FileMatches[]> {
  const sizes = await Promise.all(
    files.map((f) =>
      fs.stat(path.join(root, f.path)).then(
        (s) => s.size,
        () => Infinity,
      ),
    ),
  );
  return files.filter((_, k) => sizes[k]! <= SEARCH_MAX_FILE_BYTES);
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
