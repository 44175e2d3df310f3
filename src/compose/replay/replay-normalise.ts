// What two runs of the same step may differ in without the build having changed: timings
// (the tool's own, a test runner's), truncation counts those shift, temporary paths, the
// workspace's absolute path (the task ran in one folder, the replay runs in a scratch copy),
// run_tests' "Toolchain:" line (the machine's interpreter and its version), and random ids (a
// memory's, made anew when the replay remembers it again).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The text with the workspace root, temp paths and timings replaced by placeholders. */
export function normalise(text: string, root: string): string {
  const tmp = os.tmpdir().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text
    .replace(/^([a-z_]+: )?Toolchain: [^\n]*\n/gm, '$1')
    .split(path.resolve(root))
    .join('<workspace>')
    .replace(new RegExp(`${tmp}/[^\\s'"]*`, 'g'), '<tmp>')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>')
    .replace(/\b\d+(\.\d+)?\s?(ms|s)\b/g, '<time>')
    .replace(/\b(duration_ms|duration|time|elapsed)([:=]?\s*)\d+(\.\d+)?/gi, '$1$2<time>')
    .replace(/\[… \d+ earlier characters not shown …\]/g, '[… earlier output not shown …]');
}

/**
 * The folder the task ran in, found from the recorded observations: the log does not name it,
 * but an absolute path that ends in a file of the replay's workspace (a test runner's stack
 * line, say) gives it away. Undefined when no recorded text shows one.
 */
export function recordedRoot(calls: readonly { observation: string | undefined }[], replayRoot: string): string | undefined {
  for (const call of calls) {
    // An absolute path starts a word: `src/a.js` and `// comment` are not one.
    for (const [, candidate] of (call.observation ?? '').matchAll(/(?:^|[\s'"(])(\/[^\s'"`:()]+)/g)) {
      const parts = candidate!.split('/');
      for (let i = 2; i < parts.length; i++) {
        const rel = parts.slice(i).join('/');
        const prefix = parts.slice(0, i).join('/');
        if (rel && prefix !== path.resolve(replayRoot) && isFile(path.join(replayRoot, rel))) return prefix;
      }
    }
  }
  return undefined;
}

function isFile(file: string): boolean {
  return fs.statSync(file, { throwIfNoEntry: false })?.isFile() === true;
}
