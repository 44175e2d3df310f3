// The "indexing…" line `keel run --output text` writes to stderr while the code index parses a
// workspace it has no cache for: nothing for a build that ends within a second (a warm start
// says nothing), then one line a second at most, and a last line when the build is done. Only
// text output shows it; json and jsonl keep stderr for problems.
import type { IndexProgress } from '../codeintel/code-index.js';

/** How long a build runs before the first line, and the least time between two lines. */
const EVERY_MS = 1000;

const count = (n: number) => n.toLocaleString('en-US');

export function indexProgressPrinter(stderr: NodeJS.WritableStream, now: () => number = Date.now): (p: IndexProgress) => void {
  let last: number | undefined;
  let shown = false;
  return ({ parsed, total }) => {
    const at = now();
    last ??= at;
    if (parsed >= total) {
      if (shown) stderr.write(`keel: indexed ${count(total)} files\n`);
      shown = false;
      last = undefined;
      return;
    }
    if (at - last < EVERY_MS) return;
    last = at;
    shown = true;
    stderr.write(`keel: indexing ${count(parsed)}/${count(total)} files…\n`);
  };
}
