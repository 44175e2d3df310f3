// Edit planning against its floor: one generated file, the floor (decode and one indexOf scan,
// what any engine pays before matching) and three edits timed round by round. Shared by
// bench/tools.ts and bench/edits.ts (the edit figures alone, for quick before/after runs).
import { runInNewContext } from 'node:vm';
import * as v8 from 'node:v8';
import { planEdit } from '../src/tools/edit/plan-edit.js';

const enc = new TextEncoder();
v8.setFlagsFromString('--expose-gc');
/** Collect between timed runs, so one run's garbage is not billed to the next. */
const gc = runInNewContext('gc') as () => void;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return Number(s[Math.floor(s.length / 2)]!.toFixed(3));
}

function numberedFile(count: number): { lines: string[]; bytes: Uint8Array } {
  const lines = Array.from({ length: count }, (_, i) => `  const value${i} = compute(${i}, "some text for line ${i}");`);
  return { lines, bytes: enc.encode(`${lines.join('\n')}\n`) };
}

export interface EditFigures {
  /** Decoding the file and one indexOf scan for the search: what any engine pays before matching. */
  floorMs: number;
  exactMs: number;
  blocks20Ms: number;
  missMs: number;
}

/**
 * One file, four timings interleaved round by round (so a busy machine slows all alike): the
 * floor, an exact one-block edit at 70%, 20 exact blocks spread through the file, and a block
 * that matches nowhere (one line of the middle changed), timed to its error with the hint.
 */
export function editFigures(count: number, rounds: number): EditFigures {
  const { lines, bytes } = numberedFile(count);
  const line = lines[Math.floor(count * 0.7)]!;
  const exact = [{ search: line, replace: line.replace('compute', 'recompute') }];
  const blocks = Array.from({ length: 20 }, (_, k) => {
    const l = lines[Math.floor(((k + 0.5) * count) / 20)]!;
    return { search: l, replace: l.replace('compute', 'recompute') };
  });
  const at = Math.floor(count / 2);
  const missing = `${lines[at]}\n  const missing = 1;\n${lines[at + 1]}`;
  const runs: Record<keyof EditFigures, () => void> = {
    floorMs: () => void new TextDecoder().decode(bytes).indexOf(line),
    exactMs: () => mustApply(planEdit(bytes, exact, 'big.ts')),
    blocks20Ms: () => mustApply(planEdit(bytes, blocks, 'big.ts')),
    missMs: () => {
      const plan = planEdit(bytes, [{ search: missing, replace: 'x' }], 'big.ts');
      if (plan.ok || !plan.message.includes(`closest text is at line ${at + 1} `)) throw new Error('the miss lost its hint');
    },
  };
  const times = { floorMs: [], exactMs: [], blocks20Ms: [], missMs: [] } as Record<keyof EditFigures, number[]>;
  for (let r = 0; r < rounds + 3; r++) {
    for (const [name, run] of Object.entries(runs) as [keyof EditFigures, () => void][]) {
      gc();
      const t = performance.now();
      run();
      if (r >= 3) times[name].push(performance.now() - t);
    }
  }
  return {
    floorMs: median(times.floorMs),
    exactMs: median(times.exactMs),
    blocks20Ms: median(times.blocks20Ms),
    missMs: median(times.missMs),
  };
}

function mustApply(plan: ReturnType<typeof planEdit>): void {
  if (!plan.ok) throw new Error(plan.message);
}
