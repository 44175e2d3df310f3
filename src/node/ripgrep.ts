// Search with ripgrep's --json output. Exported so the VS Code port can run it with VS Code's
// bundled rg. Honours .gitignore (even outside a git repository), the root .keelignore, and
// always skips .git; stops rg once enough matches have arrived.
import { spawn } from 'node:child_process';
import { promises as fs, constants } from 'node:fs';
import * as path from 'node:path';
import { WorkspaceError, type SearchMatch, type SearchQuery, type SearchResult } from '../kernel/index.js';
import { globPredicate } from './glob.js';

const MAX_TEXT_CHARS = 1000;

export async function runRipgrep(rgPath: string, root: string, query: SearchQuery, signal: AbortSignal): Promise<SearchResult> {
  const args = ['--json', '--no-config', '--no-require-git', '--hidden', '--glob', '!.git'];
  const keelignore = path.join(root, '.keelignore');
  if (await exists(keelignore)) args.push('--ignore-file', keelignore);
  args.push('-e', query.pattern, '--', query.path ? query.path : '.');
  const inGlob = query.glob ? globPredicate(query.glob) : () => true;
  const accepts = (p: string) => inGlob(p) && !query.exclude?.(p);
  return new Promise((resolve, reject) => {
    const rg = spawn(rgPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const matches: SearchMatch[] = [];
    let truncated = false;
    let buffer = '';
    let stderr = '';
    const onAbort = () => rg.kill();
    signal.addEventListener('abort', onAbort, { once: true });
    rg.stdout.setEncoding('utf8');
    rg.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) !== -1 && !truncated) {
        const match = parseLine(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        if (!match || !accepts(match.path)) continue;
        if (matches.length >= query.maxMatches) {
          truncated = true;
          rg.kill();
        } else matches.push(match);
      }
    });
    rg.stderr.setEncoding('utf8');
    rg.stderr.on('data', (c: string) => void (stderr.length < 4000 && (stderr += c)));
    rg.on('error', (e) => reject(new WorkspaceError('io_error', `Could not run ripgrep (${rgPath}): ${e.message}`)));
    rg.on('close', (code) => {
      signal.removeEventListener('abort', onAbort);
      // 1 means no match; 2 means an error, fatal only when nothing was found (a bad regex).
      if (code === 2 && matches.length === 0 && !truncated) reject(new WorkspaceError('io_error', `ripgrep: ${stderr.trim()}`));
      else resolve({ matches, truncated, engine: 'ripgrep' });
    });
  });
}

function parseLine(line: string): SearchMatch | undefined {
  if (!line.startsWith('{"type":"match"')) return undefined;
  const data = JSON.parse(line).data as { path: Text; lines: Text; line_number: number };
  const text = textOf(data.lines).replace(/\r?\n$/, '');
  return {
    path: textOf(data.path).replace(/^\.\//, '').split(path.sep).join('/'),
    line: data.line_number,
    text: text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) : text,
  };
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
