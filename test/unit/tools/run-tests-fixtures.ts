// The captured outputs of real test runners (test/fixtures/runner-output), parsed with the root
// and Go module each was captured with (index.json, written by capture.mjs).
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseTestOutput } from '../../../src/tools/run-tests/parse-output.js';
import type { ParseContext, TestFailure, TestReport } from '../../../src/tools/run-tests/test-report.js';

const FIXTURES = path.join(__dirname, '../../fixtures/runner-output');

export interface FixtureMeta {
  runner: string;
  version: string;
  variant: string;
  command: string;
  root: string;
  goModule?: string;
}

export const fixtureIndex: Record<string, FixtureMeta> = JSON.parse(readFileSync(path.join(FIXTURES, 'index.json'), 'utf8'));

export function fixtureOutput(file: string): string {
  return readFileSync(path.join(FIXTURES, file), 'utf8');
}

function contextOf(file: string): ParseContext {
  const meta = fixtureIndex[file];
  if (!meta) throw new Error(`${file} is not in index.json`);
  return meta.goModule ? { root: meta.root, goModule: meta.goModule } : { root: meta.root };
}

export function parseFixture(file: string): TestReport | undefined {
  return parseTestOutput(fixtureOutput(file), contextOf(file));
}

/** A failure as the tests spell it: message (and context) given as lines. */
function failure(kind: TestFailure['kind'], name: string, at: string, message: string[] | string, context?: string[]): TestFailure {
  const [file, line, column] = at.split(':');
  const f: TestFailure = { kind, name, message: typeof message === 'string' ? message : message.join('\n') };
  if (file) f.file = file;
  if (line) f.line = Number(line);
  if (column) f.column = Number(column);
  if (context) f.context = context.join('\n');
  return f;
}

export const test_failure = (name: string, at: string, message: string[] | string) => failure('test_failure', name, at, message);
export const load_error = (name: string, at: string, message: string[] | string, context?: string[]) =>
  failure('load_error', name, at, message, context);

/** A failure as one row: kind, name, file:line:column, the message's first line, and the test files a load error stopped. */
export type FailureRow = [kind: string, name: string, at: string, firstLine: string, stopped?: string[]];

export function failureRows(r: TestReport): FailureRow[] {
  return r.failures.map((f) => {
    const row: FailureRow = [
      f.kind,
      f.name,
      [f.file, f.line, f.column].filter((v) => v !== undefined).join(':'),
      f.message.split('\n')[0]!,
    ];
    if (f.stopped) row.push(f.stopped);
    return row;
  });
}
