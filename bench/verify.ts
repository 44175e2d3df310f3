// bench:verify — what closing the verify loop costs and buys (issue 38). Each figure is measured
// by a function of its own (verify-problems.ts; verify-processes.ts for a background process's
// first output and a warm browser_check), joined in one file: bench/results/verify.json. Prints
// the figures and the load average.
//
//   npm run bench:verify
import { loadavg } from 'node:os';
import { round, writeResults } from './report.js';
import { measureProblemsAfterEdit, measureTurnsToGreen } from './verify-problems.js';
import { measureProcesses } from './verify-processes.js';

async function main(): Promise<void> {
  const problems = await measureProblemsAfterEdit();
  const turns = await measureTurnsToGreen();
  const processes = await measureProcesses();
  const load = loadavg().map((x) => round(x, 2));
  const results = { ...problems, ...turns, ...processes, targets: { problemsAfterEditMs: 1500, browserCheckMs: 3000 }, load };
  const file = writeResults('verify', results);
  console.log(JSON.stringify(results, null, 2));
  console.log(`wrote ${file}`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
