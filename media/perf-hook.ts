// Optional instrumentation for the bench: when the page defines `__keelPerf`, every DOM update
// reports the last delta seq it applied and its start and end (performance.now()). Production
// pages never define it, so the cost is one property read per frame.
export interface UpdateReport {
  lastSeq: number;
  messages: number;
  start: number;
  end: number;
  kind: 'snapshot' | 'delta' | 'other';
}

type PerfSink = (report: UpdateReport) => void;

export function reportUpdate(report: UpdateReport): void {
  const sink = (globalThis as { __keelPerf?: PerfSink }).__keelPerf;
  if (typeof sink === 'function') sink(report);
}
