// bench:codeintel's start-up figures, one run per child process: `keel run --provider scripted` on a
// workspace through the CLI's own path (executeTask: workspace, code index and its cache,
// composition, the first turn), timed from the call to the moment the provider is asked for
// the first time; the run then goes on to its end as a user's would (so a first run leaves its
// cache). The cache lives under the child's XDG_CONFIG_HOME, so the parent chooses cold or warm.
//
//   node --import=tsx bench/codeintel/first-request.ts ROOT "task"   (prints one JSON line)
import { Writable } from 'node:stream';
import { parseRunArgs } from '../../src/cli/args.js';
import { rejectAll } from '../../src/cli/approvals.js';
import { executeTask } from '../../src/cli/task-run.js';
import type { ModelProvider } from '../../src/kernel/index.js';
import { REPO_MAP_PENDING } from '../../src/kernel/context/context-block.js';

export interface FirstRequest {
  /** From executeTask's call to the provider's first stream(). */
  firstRequestMs: number;
  /** CPU time of the process, every thread, over the same span: what the start costs whatever the machine's load. */
  firstRequestCpuMs: number;
  /** From the process's start (tsx compiling the sources included) to the same moment. */
  processMs: number;
  /** Whether the first request went without the map (it said the map comes later). */
  mapPending: boolean;
  /** The whole run, to its end (the cache written). */
  runMs: number;
}

async function main(root: string, task: string): Promise<void> {
  const options = parseRunArgs(['run', task, '--provider', 'scripted', '--no-checkpoints', '--output', 'json'], root);
  let first: { at: number; cpu: NodeJS.CpuUsage; pending: boolean } | undefined;
  const timed = (provider: ModelProvider): ModelProvider => {
    const wrapped = Object.create(provider) as ModelProvider;
    wrapped.stream = (request, signal) => {
      first ??= { at: performance.now(), cpu: process.cpuUsage(cpu), pending: JSON.stringify(request.messages).includes(REPO_MAP_PENDING) };
      return provider.stream(request, signal);
    };
    return wrapped;
  };
  const quiet = new Writable({ write: (_chunk, _enc, done) => done() });
  const started = performance.now();
  const cpu = process.cpuUsage();
  await executeTask(options, {
    env: process.env,
    stderr: quiet,
    interactive: false,
    approver: rejectAll,
    onInterrupt: () => () => {},
    memory: false,
    hooks: false,
    wrapProvider: timed,
  });
  if (!first) throw new Error('the run never asked its provider');
  const result: FirstRequest = {
    firstRequestMs: first.at - started,
    firstRequestCpuMs: (first.cpu.user + first.cpu.system) / 1000,
    processMs: first.at,
    mapPending: first.pending,
    runMs: performance.now() - started,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main(process.argv[2]!, process.argv[3]!).then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
