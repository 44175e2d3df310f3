// The caps every parse of a workspace file runs under, so that no file — a hostile one, or
// generated code — holds up a task: a file nested deeper than MAX_NESTING levels is not parsed at
// all (decided from its text before tree-sitter sees it, the same on every machine), and a parse
// that runs past its time is given up at the next check (tree-sitter's own progress callbacks,
// then every so many steps of the extraction). A file given up is left out of the index, and the
// index says which and why. The parse pool's watchdog (parse-pool.ts) stops a worker that
// overruns by more than that, for what no check reaches.

/** Bracket (or, in Python, indentation) levels a file may nest: real code stays far below. */
const MAX_NESTING = 256;
/** How long one file's parse and extraction may take. */
export const PARSE_FILE_MS = 3000;

/** Why a file was left out of the index. */
export type SkipReason = 'nesting' | 'time';

/** A parse given up: the file nests too deep, or ran out of time. */
export class ParseRefused extends Error {
  override name = 'ParseRefused';
  constructor(readonly reason: SkipReason) {
    super(reason === 'nesting' ? `nested more than ${MAX_NESTING} levels deep` : `took longer than ${PARSE_FILE_MS / 1000} s to parse`);
  }
}

/** A point in time a parse must finish by (checkDeadline throws once it has passed). */
export interface Deadline {
  passed(): boolean;
}

export function deadlineIn(ms: number, now: () => number = performance.now.bind(performance)): Deadline {
  const at = now() + ms;
  return { passed: () => now() > at };
}

/** Throws ParseRefused('time') once the deadline has passed. */
export function checkDeadline(deadline: Deadline): void {
  if (deadline.passed()) throw new ParseRefused('time');
}

const OPEN = new Uint8Array(128);
const CLOSE = new Uint8Array(128);
for (const c of '([{') OPEN[c.charCodeAt(0)] = 1;
for (const c of ')]}') CLOSE[c.charCodeAt(0)] = 1;

/**
 * How deep the text nests: brackets of any kind, counted in one pass without telling code from
 * strings (an unbalanced bracket in a string only counts one level more), and for Python the
 * indentation levels too. Throws ParseRefused('nesting') past MAX_NESTING.
 */
export function checkNesting(source: string, indented: boolean): void {
  if (bracketDepth(source) > MAX_NESTING || (indented && indentDepth(source) > MAX_NESTING)) throw new ParseRefused('nesting');
}

function bracketDepth(source: string): number {
  let depth = 0;
  let most = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c >= 128) continue;
    if (OPEN[c]) {
      if (++depth > most) most = depth;
    } else if (CLOSE[c] && depth > 0) depth--;
  }
  return most;
}

/** The most indentation levels open at once: each line indented deeper than the one before opens one. */
function indentDepth(source: string): number {
  const open: number[] = [0];
  let most = 0;
  for (let start = 0; start < source.length; ) {
    let end = source.indexOf('\n', start);
    if (end < 0) end = source.length;
    let width = start;
    while (width < end && (source.charCodeAt(width) === 0x20 || source.charCodeAt(width) === 0x09)) width++;
    if (width < end && source.charCodeAt(width) !== 0x0d) {
      const indent = width - start;
      while (open.length > 1 && open[open.length - 1]! > indent) open.pop();
      if (indent > open[open.length - 1]!) open.push(indent);
      if (open.length - 1 > most) most = open.length - 1;
    }
    start = end + 1;
  }
  return most;
}
