// Keel's temporary files. An atomic write puts the new bytes in `.NAME.keel-PID-NONCE.tmp` beside
// the target and renames it over the target; a crash (kill -9, power loss) between the two can
// leave that file behind. Its name is one fact shared by the writer (src/node), every walker that
// lists or searches the workspace (src/tools, which never show one) and the sweep that removes
// the ones whose writer is dead (src/node).

const TEMP_NAME = /^\.(.+)\.keel-(\d+)-([0-9a-f]+)\.tmp$/;

/** The temporary name a write to `base` uses in process `pid`. */
export function keelTempName(base: string, pid: number, nonce: string): string {
  return `.${base}.keel-${pid}-${nonce}.tmp`;
}

/** The target and writer of a Keel temporary file, or undefined for any other name. */
export function parseKeelTempName(name: string): { target: string; pid: number } | undefined {
  const m = TEMP_NAME.exec(name);
  return m ? { target: m[1]!, pid: Number(m[2]) } : undefined;
}

/** True for a file name (or a path's last segment) that is one of Keel's temporary files. */
export function isKeelTempPath(path: string): boolean {
  return TEMP_NAME.test(path.slice(path.lastIndexOf('/') + 1));
}
