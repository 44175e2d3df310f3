// How a command line Keel runs is started: which shell, with which flags and which
// environment. One shell on every host (never the user's $SHELL, whose syntax the command
// classifier does not model): bash without startup files, or /bin/sh on a machine without
// bash. The child's environment is the parent's minus what would change how that shell reads
// the line (startup files, options, exported functions) and minus the provider keys Keel holds.
import { accessSync, constants } from 'node:fs';
import type { CommandShell } from '../kernel/index.js';

/** Where bash is looked for: fixed paths, never PATH or $SHELL (both are the environment's to change). */
const BASH_PATHS = ['/bin/bash', '/usr/bin/bash'];
const FALLBACK_SHELL: CommandShell = { name: 'sh', path: '/bin/sh', args: [] };

/**
 * Variables that make the shell run code or read the line differently before it starts:
 * startup files (BASH_ENV, ENV), options (SHELLOPTS, BASHOPTS, POSIXLY_CORRECT), word
 * splitting, globbing and `cd` (IFS, GLOBIGNORE, CDPATH), and a hook (PROMPT_COMMAND).
 */
const SHELL_VARIABLES = new Set([
  'BASH_ENV',
  'ENV',
  'SHELLOPTS',
  'BASHOPTS',
  'POSIXLY_CORRECT',
  'IFS',
  'GLOBIGNORE',
  'CDPATH',
  'PROMPT_COMMAND',
]);
/** Exported bash functions travel as BASH_FUNC_name%%=() {…}: a function named `ls` would replace ls. */
const EXPORTED_FUNCTION_PREFIX = 'BASH_FUNC_';
/** The provider credentials Keel may hold, by name. Values equal to any held key go too. */
const PROVIDER_KEY_VARIABLES: readonly string[] = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'OPENAI_API_KEY'];
/** A held "key" shorter than this is compared whole only: containment would drop innocent values. */
const MIN_CONTAINED_SECRET_CHARS = 8;

let chosen: CommandShell | undefined;

/** The shell every command runs with on this machine (looked up once). */
export function commandShell(isExecutable: (path: string) => boolean = canExecute): CommandShell {
  if (chosen && isExecutable === canExecute) return chosen;
  const bash = BASH_PATHS.find(isExecutable);
  const shell: CommandShell = bash ? { name: 'bash', path: bash, args: ['--noprofile', '--norc'] } : FALLBACK_SHELL;
  if (isExecutable === canExecute) chosen = shell;
  return shell;
}

export interface ChildSpawn {
  file: string;
  args: string[];
  env: Record<string, string>;
}

/** The one way a command line is started: the shell, its arguments, and the cleaned environment. */
export function childSpawn(
  commandLine: string,
  extraEnv: Readonly<Record<string, string>> | undefined,
  withheld: Iterable<string>,
  parentEnv: Readonly<Record<string, string | undefined>> = process.env,
  shell: CommandShell = commandShell(),
): ChildSpawn {
  return { file: shell.path, args: [...shell.args, '-c', commandLine], env: childEnvironment(parentEnv, extraEnv, withheld) };
}

/**
 * The parent's environment with the tool's additions, minus shell-altering variables, exported
 * functions, provider keys, and any variable whose value is (or contains) a held secret.
 */
export function childEnvironment(
  parentEnv: Readonly<Record<string, string | undefined>>,
  extraEnv: Readonly<Record<string, string>> | undefined,
  withheld: Iterable<string>,
): Record<string, string> {
  // The keys in Keel's own environment are held too: their values may sit under other names.
  const fromEnv = PROVIDER_KEY_VARIABLES.map((name) => parentEnv[name] ?? '');
  const secrets = [...withheld, ...fromEnv].map((s) => s.trim()).filter((s) => s.length > 0);
  const env: Record<string, string> = {};
  for (const source of [parentEnv, extraEnv ?? {}]) {
    for (const [name, value] of Object.entries(source)) {
      if (value === undefined || !inherited(name, value, secrets)) continue;
      env[name] = value;
    }
  }
  return env;
}

function inherited(name: string, value: string, secrets: readonly string[]): boolean {
  if (SHELL_VARIABLES.has(name) || name.startsWith(EXPORTED_FUNCTION_PREFIX)) return false;
  if (PROVIDER_KEY_VARIABLES.includes(name)) return false;
  return !secrets.some((s) => value === s || (s.length >= MIN_CONTAINED_SECRET_CHARS && value.includes(s)));
}

function canExecute(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
