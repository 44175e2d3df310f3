// bench:compose's hookOverheadMs: what a trivial hook on PreToolUse and PostToolUse (a shell
// command that reads its JSON from stdin and allows) adds to each tool call of a composed run.
// The same scripted task (CALLS reads) runs with and without the hooks, interleaved ROUNDS times;
// the wall time of each run is taken here, outside Keel (never Keel's own durationMs), and the
// figure is (median with − median without) / CALLS. `--bad login|sleep` runs the hooks through a
// login shell or with a 50 ms sleep instead: a build that spawned hooks that way must score worse.
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
  withHooksMs: number;
  withoutHooksMs: number;
  hooksOverNone: number;
}

export async function measureHookOverhead(variant = 'good'): Promise<HookOverhead> {
  const root = fs.mkdtempSync(path.join(tmpdir(), 'keel-bench-hooks-'));
  try {
    fs.writeFileSync(path.join(root, 'a.txt'), 'a small file\n');
    const hook = [{ hooks: [{ type: 'command', command: HOOK_COMMANDS[variant] }] }];
    fs.mkdirSync(path.join(root, '.keel'));
    fs.writeFileSync(path.join(root, '.keel', 'hooks.json'), JSON.stringify({ hooks: { PreToolUse: hook, PostToolUse: hook } }));
    const workspace = await createNodeWorkspace(root);
    const once = async (hooks: boolean): Promise<number> => {
      const turns = Array.from({ length: CALLS }, (_, i) => toolTurn('read_file', { path: 'a.txt' }, '', `call_${i}`));
      const runtime = composeRuntime({
        provider: new ScriptedProvider([...turns, textTurn('done')]),
        settings: { maxTurns: CALLS + 2, autoApprove: ['read'], commandsAllow: [], commandsDeny: [] },
        workspace,
        trusted: () => true,
        interactive: false,
        ...(hooks ? { hooks: { allowWorkspace: () => true } } : {}),
      });
      const started = performance.now();
      for await (const _ of runtime.send('read it')) {
        // the scripted run ends by itself
      }
      const ms = performance.now() - started;
      const ran = runtime.getEvents().filter((e) => e.type === 'hook_ran' && e.outcome === 'allow').length;
      if (ran !== (hooks ? 2 * CALLS : 0)) throw new Error(`expected ${hooks ? 2 * CALLS : 0} hook runs, saw ${ran}`);
      return ms;
    };
    await once(true);
    await once(false);
    const withHooks: number[] = [];
    const without: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      withHooks.push(await once(true));
      without.push(await once(false));
    }
    const w = median(withHooks);
    const n = median(without);
    return { hookOverheadMs: round((w - n) / CALLS), withHooksMs: round(w), withoutHooksMs: round(n), hooksOverNone: round(w / n) };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const flag = process.argv.indexOf('--bad');
  const variant = flag >= 0 ? (process.argv[flag + 1] ?? 'login') : 'good';
  if (!(variant in HOOK_COMMANDS)) throw new Error(`--bad takes ${Object.keys(HOOK_COMMANDS).join(', ')}`);
  const before = loadavg().map((x) => Number(x.toFixed(2)));
  const figures = await measureHookOverhead(variant);
  const load = loadavg().map((x) => Number(x.toFixed(2)));
  console.log(`hooks (${HOOK_COMMANDS[variant]}) per tool call, PreToolUse + PostToolUse: ${JSON.stringify(figures)}`);
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
