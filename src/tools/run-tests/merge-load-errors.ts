// One broken module imported by 106 test files is one load error, not 106: load errors with the
// same message at the same place (or with the same message and no place at all) become one entry
// at that place, naming the test files it stopped from loading. Merging merged entries (after
// locate-syntax-error.ts placed them) joins their lists.
import type { TestFailure } from './test-report.js';

export function mergeLoadErrors(failures: readonly TestFailure[]): TestFailure[] {
  const out: TestFailure[] = [];
  const byCause = new Map<string, TestFailure>();
  for (const f of failures) {
    if (f.kind !== 'load_error') {
      out.push(f);
      continue;
    }
    const key = JSON.stringify([f.file !== f.name ? f.file : undefined, f.line, f.column, f.message]);
    const first = byCause.get(key);
    const names = f.stopped ?? [f.name];
    if (!first) {
      const entry: TestFailure = { ...f, stopped: [...names] };
      byCause.set(key, entry);
      out.push(entry);
    } else for (const name of names) if (!first.stopped!.includes(name)) first.stopped!.push(name);
  }
  // One test file stopped: its name already says which.
  return out.map((f) => {
    if (!f.stopped) return f;
    if (f.stopped.length < 2) return withoutStopped(f);
    return { ...f, name: f.file ?? f.name };
  });
}

function withoutStopped(f: TestFailure): TestFailure {
  const { stopped: _, ...rest } = f;
  return rest;
}
