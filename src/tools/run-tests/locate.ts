// Where a failure happened: the stack frame that points into the user's own code. Runners print
// frames in many shapes (V8 "at f (file:line:col)", vitest "❯ f file:line:col", Go "\t/abs/x.go:14
// +0x1d", Rust "at ./src/x.rs:3:9", pytest "x.py:6: in f"); all reduce to a path, a line and
// maybe a column. A frame counts only when its file is inside the workspace and not a dependency,
// and file and line always come from the same frame.

export interface SourceLocation {
  file: string;
  line: number;
  column?: number;
}

/** A path with an extension, then :line and optionally :column, ending the token. */
const FRAME = /(?:^|[\s(@[])((?:file:\/\/)?(?:[A-Za-z]:)?[^\s()'"[\]:]*[^\s()'"[\]:/]\.[A-Za-z0-9]+):(\d+)(?::(\d+))?(?=$|[\s),:\]])/g;
/** Folders that hold other people's code even when they sit inside the workspace. */
const DEPENDENCY = /(?:^|\/)(?:node_modules|site-packages|dist-packages|\.venv|\.cargo\/registry|pkg\/mod)\//;
/** Frames of the runtimes themselves: node internals, Python's frozen modules, Rust's std, Go's runtime and testing. */
const RUNTIME = /(?:^|\()node:|<frozen |\/rustc\/[0-9a-f]+\/|\/src\/(?:runtime|testing)\/\w+\.go:/;

/** The location a frame-like line points at (the last path:line on the line), made relative to root. */
export function frameIn(text: string, root: string): SourceLocation | undefined {
  if (RUNTIME.test(text)) return undefined;
  const m = [...text.matchAll(FRAME)].pop();
  if (!m) return undefined;
  const loc: SourceLocation = { file: relativeTo(m[1]!, root), line: Number(m[2]) };
  if (m[3]) loc.column = Number(m[3]);
  return loc;
}

/** The first frame in the user's code: for stacks printed innermost first (JS, Go, Rust). */
export function firstWorkspaceFrame(lines: readonly string[], root: string): SourceLocation | undefined {
  for (const line of lines) {
    const loc = frameIn(line, root);
    if (loc && inWorkspace(loc.file, root)) return loc;
  }
  return undefined;
}

/** The innermost frame in the user's code of a Python traceback, which prints innermost last. */
export function lastWorkspaceFrame(lines: readonly string[], root: string): SourceLocation | undefined {
  return firstWorkspaceFrame([...lines].reverse(), root);
}

/** True for a path (already made relative) inside the root that is not a dependency's. Without a root, any path is. */
export function inWorkspace(file: string, root: string): boolean {
  if (DEPENDENCY.test(file) || file.startsWith('../')) return false;
  return !root || (!file.startsWith('/') && !/^[A-Za-z]:/.test(file));
}

/** A runner's path (absolute, file:// URL or relative to the run's folder) relative to the workspace root. */
export function relativeTo(file: string, root: string): string {
  let f = file.replace(/^file:\/\//, '');
  const base = root.replace(/\/+$/, '');
  if (base && f.startsWith(`${base}/`)) f = f.slice(base.length + 1);
  return f.replace(/^(?:\.\/)+/, '');
}

/** The 1-based column a caret line ("    ^") marks under the source line printed above it. */
export function caretColumn(source: string | undefined, caret: string | undefined): number | undefined {
  const m = /^(\s*)\^/.exec(caret ?? '');
  return m && source !== undefined && source.length > m[1]!.length ? m[1]!.length + 1 : undefined;
}
