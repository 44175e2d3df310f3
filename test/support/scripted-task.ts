// `keel run` through the one task path (executeTask) with a ScriptedProvider for the model and no
// terminal: what the CLI tests of a run flag read back (the log, what was printed, stderr).
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { rejectAll } from '../../src/cli/approvals.js';
import { streamPrinter } from '../../src/cli/render.js';
import { renderTaskEvent } from '../../src/cli/render-frames.js';
import { parseRunArgs } from '../../src/cli/args.js';
import { executeTask } from '../../src/cli/task-run.js';
import type { ScriptedProvider } from '../../src/providers/scripted.js';

/**
 * Runs `keel run --workspace WS --provider scripted --no-checkpoints ARGS…` with `provider` as the
 * model, every question rejected, Keel's config and cache folders beside the workspace, and `env`
 * added to that environment.
 */
export async function runScriptedTask(ws: string, args: readonly string[], provider: ScriptedProvider, env: NodeJS.ProcessEnv = {}) {
  const options = parseRunArgs(['run', '--workspace', ws, '--provider', 'scripted', '--no-checkpoints', ...args], ws);
  const out = { printed: '', stderr: '' };
  const sink = new PassThrough().on('data', (c) => (out.printed += c));
  const stderr = new PassThrough().on('data', (c) => (out.stderr += c));
  const printer = streamPrinter(sink);
  const { runtime, result } = await executeTask(options, {
    env: { XDG_CONFIG_HOME: path.join(ws, '..', 'config'), XDG_CACHE_HOME: path.join(ws, '..', 'cache'), ...env },
    stderr,
    interactive: false,
    approver: rejectAll,
    memory: false,
    onEvent: (e, state) => renderTaskEvent(printer, e, state),
    onInterrupt: () => () => undefined,
    wrapProvider: () => provider,
  });
  return { runtime, result, ...out };
}
