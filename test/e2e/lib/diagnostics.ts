// On a failed scenario: what Keel logged (its output channel, as VS Code writes it under the
// profile's logs folder), the extension host's log and the tail of code-server's own output.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { KeelSession } from './keel-session.js';

function findFiles(dir: string, match: (name: string) => boolean, out: string[] = []): string[] {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) findFiles(path, match, out);
    else if (match(name)) out.push(path);
  }
  return out;
}

const tail = (text: string, lines: number) => text.split('\n').slice(-lines).join('\n');

export function dumpDiagnostics(session: KeelSession): void {
  const logs = findFiles(join(session.server.userDataDir, 'logs'), (n) => /keel|exthost|remoteexthost/i.test(n));
  for (const file of logs) {
    const text = readFileSync(file, 'utf8').trim();
    if (text) console.log(`\n--- ${file} (last 40 lines) ---\n${tail(text, 40)}`);
  }
  console.log(`\n--- code-server output (last 30 lines) ---\n${tail(session.server.process.output(), 30)}`);
  const errors = session.workbench.consoleErrors.filter((e) => !/open-vsx|github|ERR_NAME_NOT_RESOLVED/.test(e));
  if (errors.length) console.log(`\n--- browser console errors ---\n${errors.slice(-10).join('\n')}`);
  const requests = session.model.requests.map((r, i) => `${i + 1}. ${r.method} ${r.path}`).join('\n');
  console.log(`\n--- model stand-in requests ---\n${requests || '(none)'}`);
}
