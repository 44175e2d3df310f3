// shellcheck for the shell scripts an edit changed (Debian ships it: apt-get install shellcheck),
// in its gcc format: `file:line:col: severity: message [SCnnnn]`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Diagnostic } from '../../kernel/index.js';
import { type Checker, shellWord } from './checker.js';

const SHELL_FILE = /\.(sh|bash)$/;
const LINE = /^(.+?):(\d+):(\d+): (error|warning|note|style): (.*?)(?: \[(SC\d+)\])?$/;

export function shellcheckChecker(env: Readonly<Record<string, string | undefined>>): Checker {
  return {
    name: 'shellcheck',
    wholeProject: false,
    handles: (file) => SHELL_FILE.test(file),
    missing: () => (onPath('shellcheck', env.PATH) ? undefined : 'shellcheck is not installed (apt-get install shellcheck)'),
    commandLine: (files) => `shellcheck -f gcc -- ${files.map(shellWord).join(' ')}`,
    parse: parseShellcheckOutput,
  };
}

export function parseShellcheckOutput(output: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const line of output.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const [, file, row, col, level, message, code] = m;
    out.push({
      path: file!,
      line: Number(row),
      column: Number(col),
      severity: level === 'error' ? 'error' : level === 'warning' ? 'warning' : 'info',
      message: message!,
      ...(code ? { source: code } : {}),
    });
  }
  return out;
}

function onPath(program: string, pathVariable: string | undefined): boolean {
  for (const dir of (pathVariable ?? '').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    try {
      fs.accessSync(path.join(dir, program), fs.constants.X_OK);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}
