// What `keel fleet run|results|status` print: one record per job (a job BullMQ failed gets a
// failed result too), the summary line counted the same way everywhere, the queue's workers with
// the jobs each one runs and the jobs left stalled by a worker that is gone, and the exit status
// of a set of results (1 when any job failed, as `keel run` would have exited for it).
import { EXIT_CODES, unstartedResult } from '../compose/index.js';
import { tally, type FleetResult, type FleetStatus } from '../fleet/index.js';

export interface FailedJob {
  jobId: string;
  reason: string;
}

/** Every job's record, then (text) a summary line of their outcomes. */
export function printResults(done: FleetResult[], failed: FailedJob[], json: boolean, out: NodeJS.WritableStream): FleetResult[] {
  const all = [...done, ...failed.map(failedRecord)];
  if (json) {
    out.write(`${JSON.stringify(all, null, 2)}\n`);
    return all;
  }
  for (const r of all)
    out.write(
      `${r.jobId}\t${r.result.status}\t${r.result.filesChanged.length} file(s)\t$${(r.result.costUsd ?? 0).toFixed(4)}\t${r.result.reason}\n`,
    );
  out.write(`${all.length} job(s): ${outcomeLine(tally(all))}\n`);
  return all;
}

/**
 * The exit status of a fleet's results: the worst any job would have had as `keel run` (failed
 * or over budget: 1, else refused: 3), 0 when every job is done.
 */
export function resultsExitCode(all: readonly FleetResult[]): number {
  const codes = all.map((r) => EXIT_CODES[r.result.status]);
  if (codes.includes(EXIT_CODES.failed)) return EXIT_CODES.failed;
  return codes.find((c) => c !== EXIT_CODES.done) ?? EXIT_CODES.done;
}

function outcomeLine(counts: Record<string, number>): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`);
  return parts.join(', ') || 'none';
}

function failedRecord(f: FailedJob): FleetResult {
  const result = unstartedResult({ task: '', workspace: '', model: '', status: 'failed', reason: f.reason, startedAt: new Date() });
  return { jobId: f.jobId, worker: '', attempt: 0, folder: '', result };
}

export interface StatusReport extends FleetStatus {
  queue: string;
  spentUsd: number;
  capUsd: number | null;
}

export function printStatus(report: StatusReport, json: boolean, out: NodeJS.WritableStream): void {
  if (json) {
    out.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const q = report.queued;
  out.write(`queue "${report.queue}": ${q.waiting + q.prioritized} waiting, ${q.active} active, ${q.delayed} delayed\n`);
  out.write(`finished: ${outcomeLine(report.outcomes)}\n`);
  if (report.workers.length === 0) out.write('workers: none\n');
  for (const w of report.workers) out.write(`worker ${w.id}: ${w.jobs.length ? `running ${w.jobs.join(', ')}` : 'idle'}\n`);
  for (const s of report.stalled)
    out.write(`stalled ${s.jobId}: its worker ${s.worker} is gone; another worker takes it up once its lock lapses\n`);
  out.write(`spent $${report.spentUsd.toFixed(4)}${report.capUsd === null ? '' : ` of $${report.capUsd}`}\n`);
}
