// What a file change carries for the UI: the diff always, the whole before/after texts only
// while small, so a log of many edits to a large file does not grow without bound.

export interface FileChangeData {
  path: string;
  diff: string;
  before?: string;
  after?: string;
  created?: boolean;
}

const MAX_INLINE_CHARS = 100_000;

/** `after` is read only when small enough (`afterSize`, e.g. its byte length, decides). */
export function changeData(
  path: string,
  diff: string,
  before: string | undefined,
  after: () => string,
  afterSize: number,
  created = false,
): FileChangeData {
  const data: FileChangeData = { path, diff };
  if (created) data.created = true;
  if ((before?.length ?? 0) + afterSize <= MAX_INLINE_CHARS) {
    if (before !== undefined) data.before = before;
    data.after = after();
  }
  return data;
}
