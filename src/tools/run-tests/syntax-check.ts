// Where V8 finds a syntax error in one file: `node --check` parses the file and runs none of it,
// so it is safe on any workspace file and answers with the same parser (and the same message)
// the runner's Node used. The file comes on stdin with an explicit --input-type: Node's own
// choice for a .js file without a package "type" is unreliable here (Node 20 exits 0 without
// checking a file it takes for an ES module), and vite parses every file as a module.
import type { SandboxProfile, Workspace } from '../../kernel/index.js';
import { isSecretFile } from '../policy/protected-paths.js';
import { caretColumn } from './locate.js';
import { dedent, tidy } from './message-text.js';

export type ModuleKind = 'module' | 'commonjs';

export interface SyntaxErrorAt {
  line: number;
  /** 1-based, from the caret Node prints under the source line. */
  column?: number;
  /** V8's message, without "SyntaxError: ". */
  message: string;
  /** The source line and its caret, as Node printed them. */
  context?: string;
}

const CHECK_TIMEOUT_MS = 15_000;
const HEADER = /^\[stdin\]:(\d+)$/;
const MESSAGE = /^SyntaxError: (.+)$/;

/** The syntax error node finds in the file parsed as `kind`; undefined when it parses (or node could not say). */
export async function checkSyntax(
  ws: Workspace,
  file: string,
  kind: ModuleKind,
  signal: AbortSignal,
  sandbox?: SandboxProfile,
): Promise<SyntaxErrorAt | undefined> {
  // Node prints the offending line: only a workspace file (links resolved), never a secret one.
  const real = await ws.resolve(file).catch(() => undefined);
  if (real === undefined || isSecretFile(real)) return undefined;
  const r = await ws.runProcess(`node --check --input-type=${kind} < ${shellQuoted(real)}`, {
    timeoutMs: CHECK_TIMEOUT_MS,
    signal,
    maxCaptureChars: 4000,
    // A parse only reads: in the read-only profile whenever the tests ran in a sandbox.
    ...(sandbox && sandbox !== 'none' ? { sandbox: 'read_only' as const } : sandbox ? { sandbox } : {}),
  });
  if (r.exitCode === 0 || r.timedOut || r.cancelled) return undefined;
  return parseCheckOutput(r.stderr.head);
}

/** Node's printout: "[stdin]:LINE", the source line, a caret line, a blank, "SyntaxError: message". */
export function parseCheckOutput(stderr: string): SyntaxErrorAt | undefined {
  const lines = stderr.replace(/\r\n/g, '\n').split('\n');
  const at = lines.findIndex((l) => HEADER.test(l));
  const message = lines.map((l) => MESSAGE.exec(l)?.[1]).find(Boolean);
  if (at < 0 || !message) return undefined;
  const found: SyntaxErrorAt = { line: Number(HEADER.exec(lines[at]!)![1]), message: message.trim() };
  const [source, caret] = [lines[at + 1], lines[at + 2]];
  const column = caretColumn(source, caret);
  if (column !== undefined) {
    found.column = column;
    found.context = tidy(dedent([source!, caret!]));
  }
  return found;
}

/** A workspace-relative path as one shell word. */
function shellQuoted(path: string): string {
  return `'${path.replace(/'/g, `'\\''`)}'`;
}
