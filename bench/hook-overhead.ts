// bench:compose's hookOverheadMs: what a trivial hook (a shell command that reads its JSON from
// stdin and allows) adds to each tool call of a composed run — one PreToolUse hook per call, as
// the issue defines it (hookOverheadMs), and a PreToolUse + PostToolUse pair (hookPairOverheadMs).
// The same scripted task (CALLS reads) runs without hooks, with one and with the pair,
// interleaved ROUNDS times; the wall time of each run is taken here, outside Keel (never Keel's
// own durationMs), and a figure is (median with − median without) / CALLS. `--bad login|sleep`
// runs the hooks through a login shell or with a 50 ms sleep instead: a build that spawned hooks
// that way must score worse.
import * as fs from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { composeRuntime } from '../src/compose/index.js';
import { createNodeWorkspace } from '../src/node/node-workspace.js';
import { ScriptedProvider, textTurn, toolTurn } from '../src/providers/scripted.js';
import { median, round, writeResults } from './report.js';

const CALLS = 10;
const ROUNDS = 9;
const TARGET_MS = 30;

const HOOK_COMMANDS: Record<string, string> = {
  good: 'cat > /dev/null',
  login: `bash -lc 'cat > /dev/null'`,
  sleep: 'cat > /dev/null; sleep 0.05',
};

export interface HookOverhead {
  hookOverheadMs: number;
  hookPairOverheadMs: number;
  withoutHooksMs: number;
  withHookMs: number;
  withPairMs: number;
}

type Setup = 'none' | 'pre' | 'pair';

/** A workspace whose .keel/hooks.json runs `command` at PreToolUse, or at PreToolUse and PostToolUse. */
async function workspaceWith(setup: Exclude<Setup, 'none'>, command: string) {
  const root = fs.mkdtempSync(path.join(tmpdir(), `keel-bench-hooks-${setup}-`));
  fs.writeFileSync(path.join(root, 'a.txt'), 'a small file\n');
  const hook = [{ hooks: [{ type: 'command', command }] }];
  fs.mkdirSync(path.join(root, '.keel'));
  const hooks = setup === 'pre' ? { PreToolUse: hook } : { PreToolUse: hook, PostToolUse: hook };
  fs.writeFileSync(path.join(root, '.keel', 'hooks.json'), JSON.stringify({ hooks }));
  return { root, workspace: await createNodeWorkspace(root) };
}

export async function measureHookOverhead(variant = 'good'): Promise<HookOverhead> {
  const pre = await workspaceWith('pre', HOOK_COMMANDS[variant]!);
  const pair = await workspaceWith('pair', HOOK_COMMANDS[variant]!);
  try {
    const once = async (setup: Setup): Promise<number> => {
      const turns = Array.from({ length: CALLS }, (_, i) => toolTurn('read_file', { path: 'a.txt' }, '', `call_${i}`));
      const runtime = composeRuntime({
        provider: new ScriptedProvider([...turns, textTurn('done')]),
        settings: { maxTurns: CALLS + 2, autoApprove: ['read'], commandsAllow: [], commandsDeny: [] },
        // Without hooks the run is the same in either folder: no hook is read at all.
        workspace: setup === 'pre' ? pre.workspace : pair.workspace,
        trusted: () => true,
        interactive: false,
        ...(setup === 'none' ? {} : { hooks: { allowWorkspace: () => true } }),
      });
      const started = performance.now();
      for await (const _ of runtime.send('read it')) {
        // the scripted run ends by itself
      }
      const ms = performance.now() - started;
      const ran = runtime.getEvents().filter((e) => e.type === 'hook_ran' && e.outcome === 'allow').length;
      const expected = { none: 0, pre: CALLS, pair: 2 * CALLS }[setup];
      if (ran !== expected) throw new Error(`expected ${expected} hook runs, saw ${ran}`);
      return ms;
    };
    const times: Record<Setup, number[]> = { none: [], pre: [], pair: [] };
    for (const setup of ['none', 'pre', 'pair'] as const) await once(setup);
    for (let i = 0; i < ROUNDS; i++) for (const setup of ['none', 'pre', 'pair'] as const) times[setup].push(await once(setup));
    const [n, p, pp] = [median(times.none), median(times.pre), median(times.pair)];
    return {
      hookOverheadMs: round((p - n) / CALLS),
      hookPairOverheadMs: round((pp - n) / CALLS),
      withoutHooksMs: round(n),
      withHookMs: round(p),
      withPairMs: round(pp),
    };
  } finally {
    for (const { root } of [pre, pair]) fs.rmSync(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const flag = process.argv.indexOf('--bad');
  const variant = flag >= 0 ? (process.argv[flag + 1] ?? 'login') : 'good';
  if (!(variant in HOOK_COMMANDS)) throw new Error(`--bad takes ${Object.keys(HOOK_COMMANDS).join(', ')}`);
  const before = loadavg().map((x) => Number(x.toFixed(2)));
  const figures = await measureHookOverhead(variant);
  const load = loadavg().map((x) => Number(x.toFixed(2)));
  console.log(
    `hooks (${HOOK_COMMANDS[variant]}), added ms per tool call — one PreToolUse hook, and a PreToolUse + PostToolUse pair: ${JSON.stringify(figures)}`,
  );
  console.log(
    `target hookOverheadMs ≤ ${TARGET_MS}; ${ROUNDS} interleaved rounds of ${CALLS} calls; load average ${before.join(' ')} → ${load.join(' ')}`,
  );
  writeResults(`hook-overhead${variant === 'good' ? '' : `-${variant}`}`, { ...figures, variant, targetMs: TARGET_MS, loadavg: load });
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
