// The edit figures of bench:tools alone (bench/edit-figures.ts), for quick before/after runs:
// each edit over its floor at 10k and 100k lines. Prints medians and writes bench/results/edits.json.
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { editFigures } from './edit-figures.js';

function main(): void {
  const loadBefore = loadavg()[0]!.toFixed(2);
  const edit10k = editFigures(10_000, 15);
  const edit100k = editFigures(100_000, 9);
  const ratio = (ms: number, floor: number) => Number((ms / floor).toFixed(2));
  const results = {
    editFloorMs10k: edit10k.floorMs,
    editExactRatio10k: ratio(edit10k.exactMs, edit10k.floorMs),
    edit20BlocksRatio10k: ratio(edit10k.blocks20Ms, edit10k.floorMs),
    editMissRatio10k: ratio(edit10k.missMs, edit10k.floorMs),
    editFloorMs100k: edit100k.floorMs,
    editExactRatio100k: ratio(edit100k.exactMs, edit100k.floorMs),
    edit20BlocksRatio100k: ratio(edit100k.blocks20Ms, edit100k.floorMs),
    editMissRatio100k: ratio(edit100k.missMs, edit100k.floorMs),
    loadAverage1m: Number(loadavg()[0]!.toFixed(2)),
  };
  console.log(`edits benchmark (medians; target each ratio ≤ 1.5), load ${loadBefore} before:`);
  for (const [k, v] of Object.entries(results)) console.log(`  ${k.padEnd(24)} ${v}`);
  void mkdir('bench/results', { recursive: true }).then(() =>
    writeFile('bench/results/edits.json', `${JSON.stringify(results, null, 2)}\n`),
  );
}

main();
