// The shape of one case from a peer's own edit tests, re-expressed as the edit_file call Keel
// would get for the same input, with the peer's expected result. The inputs and results are
// the peers' test data; the wording and layout are ours.
import type { EditBlock, EditRefusal } from '../../../../src/tools/edit/plan-edit.js';

export type Peer = 'cline' | 'roo' | 'continue' | 'aider';

export interface PeerCase {
  peer: Peer;
  /** Where the case comes from (the peer's test file and a short description). */
  what: string;
  file: string;
  edits: EditBlock[];
  /** The file the peer's test expects, or 'refused' when the peer's engine refuses the edit. */
  expected: string | 'refused' | { includes: string[]; excludes: string[] };
  /**
   * Keel refuses, with this reason: where the peer refuses too, or where the peer's engine
   * guessed (picked one of several matches, matched fuzzily, by case, or with whitespace removed).
   */
  keelRefuses?: EditRefusal;
  /**
   * Keel edits differently from this peer's expectation on purpose, where the peers' own tests
   * contradict each other: Keel's result and the reason.
   */
  keelDiffers?: { result: string; why: string };
}

/** Lines joined with LF: keeps whitespace-significant test data readable. */
export const L = (...lines: string[]): string => lines.join('\n');

/** A find-only case (the peer's test gives the matched range): the edit replaces the range with a marker. */
export function rangeCase(
  peer: Peer,
  what: string,
  file: string,
  search: string,
  range: [number, number] | 'refused',
  keelRefuses?: EditRefusal,
): PeerCase {
  const replace = '<R>';
  const expected = range === 'refused' ? 'refused' : file.slice(0, range[0]) + replace + file.slice(range[1]);
  return { peer, what, file, edits: [{ search, replace }], expected, ...(keelRefuses ? { keelRefuses } : {}) };
}
