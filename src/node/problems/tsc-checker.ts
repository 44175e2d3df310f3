// TypeScript's own checker for a project with a tsconfig.json and a local typescript package:
// `tsc --noEmit --incremental`, its build info kept outside the workspace (the sandbox binds
// ${TMPDIR:-/tmp}/keel-tsc to Keel's cache folder for the workspace, toolchain-view.ts), so a
// warm check reads only what changed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Diagnostic } from '../../kernel/index.js';
import type { Checker } from './checker.js';

/** Where tsc keeps its build info inside the sandbox; bound to Keel's cache by the toolchain view. */
export const TSC_CACHE_FOLDER = 'keel-tsc';

const TS_FILE = /\.(ts|tsx|mts|cts)$/;
// src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.
const LOCATED = /^(.+?)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/;
// error TS5083: Cannot read file '/ws/tsconfig.base.json'.
const GLOBAL = /^(error|warning) (TS\d+): (.*)$/;

export function tscChecker(root: string): Checker {
  return {
    name: 'tsc',
    wholeProject: true,
    handles: (file) => TS_FILE.test(file),
    missing: () => {
      if (!fs.existsSync(path.join(root, 'tsconfig.json'))) return 'no tsconfig.json at the workspace root';
      if (!fs.existsSync(path.join(root, 'node_modules/typescript/bin/tsc'))) return 'no local node_modules/typescript';
      return undefined;
    },
    commandLine: () =>
      'node node_modules/typescript/bin/tsc --noEmit --incremental --pretty false -p tsconfig.json ' +
      `--tsBuildInfoFile "\${TMPDIR:-/tmp}/${TSC_CACHE_FOLDER}/build.tsbuildinfo"`,
    parse: (output) => parseTscOutput(output, root),
  };
}

export function parseTscOutput(output: string, root: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const line of output.split('\n')) {
    const located = LOCATED.exec(line);
    if (located) {
      const [, file, row, col, severity, code, message] = located;
      out.push({
        path: relative(root, file!),
        line: Number(row),
        column: Number(col),
        severity: severity as 'error',
        message: message!,
        source: code!,
      });
      continue;
    }
    const global = GLOBAL.exec(line);
    if (global)
      out.push({ path: 'tsconfig.json', line: 1, column: 1, severity: global[1] as 'error', message: global[3]!, source: global[2]! });
    // An indented line continues the message above it (an elaboration): the first line is what the report shows.
  }
  return out;
}

function relative(root: string, file: string): string {
  const rel = path.isAbsolute(file) ? path.relative(root, file) : file;
  return rel.split(path.sep).join('/');
}
