// How a command line Keel runs is started: which shell, with which flags and which
// environment. One shell on every host (never the user's $SHELL, whose syntax the command
// classifier does not model): bash without startup files, or /bin/sh on a machine without
// bash. The child's environment is the parent's minus what would change how that shell reads
// the line (startup files, options, exported functions), minus the provider keys Keel holds,
// and minus every inherited variable the secret detector says hands over a credential
// (`GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`, a Slack token under any name) unless the user
// passes it by name.
import { accessSync, constants } from 'node:fs';
import type { CommandShell, SecretDetector } from '../kernel/index.js';

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
/**
 * The clouds' credentials Claude on Bedrock and Vertex is reached with, which Keel may hold as
 * its own: the AWS keys the SDK signs with, Bedrock's API key, and where Google's credentials
 * file is (a command is not told).
 */
const CLOUD_CREDENTIAL_VARIABLES: readonly string[] = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_BEARER_TOKEN_BEDROCK',
  'GOOGLE_APPLICATION_CREDENTIALS',
];
/** The provider credentials Keel may hold, by name. Values equal to any held key go too. */
export const PROVIDER_KEY_VARIABLES: readonly string[] = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'OPENAI_API_KEY',
  'AZURE_OPENAI_API_KEY',
  'OLLAMA_API_KEY',
  'LM_API_TOKEN',
  'LLAMA_API_KEY',
  'VLLM_API_KEY',
  ...CLOUD_CREDENTIAL_VARIABLES,
];
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

/** What a child's environment withholds besides the shell-altering variables. */
export interface EnvironmentRules {
  /** The keys Keel holds (provider keys): no variable may carry one, whatever its name. */
  held: Iterable<string>;
  /** Judges each inherited variable; absent, only provider keys and held values are withheld. */
  credentials?: SecretDetector | undefined;
  /** Inherited variables the user lets through though they look like credentials (never Keel's own keys). */
  pass?: readonly string[] | undefined;
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
  rules: EnvironmentRules,
  parentEnv: Readonly<Record<string, string | undefined>> = process.env,
  shell: CommandShell = commandShell(),
): ChildSpawn {
  return { file: shell.path, args: [...shell.args, '-c', commandLine], env: childEnvironment(parentEnv, extraEnv, rules) };
}

/**
 * The parent's environment with the tool's additions, minus shell-altering variables, exported
 * functions, provider keys, any variable whose value is (or contains) a held secret, and the
 * inherited variables that hold a credential. The tool's additions are what Keel or the user's
 * own configuration set (an MCP server's `env`), so only the held keys are taken from them.
 */
export function childEnvironment(
  parentEnv: Readonly<Record<string, string | undefined>>,
  extraEnv: Readonly<Record<string, string>> | undefined,
  rules: EnvironmentRules,
): Record<string, string> {
  const secrets = heldSecrets(parentEnv, rules.held);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parentEnv)) {
    if (value === undefined || !inherited(name, value, secrets) || credentialWithheld(name, value, rules)) continue;
    env[name] = value;
  }
  for (const [name, value] of Object.entries(extraEnv ?? {})) if (inherited(name, value, secrets)) env[name] = value;
  return env;
}

/**
 * The inherited variables withheld because they look like credentials, by name (to tell the
 * user); the clouds' credentials are named too (always withheld), the vendors' API keys not.
 */
export function withheldCredentials(parentEnv: Readonly<Record<string, string | undefined>>, rules: EnvironmentRules): string[] {
  const named = (name: string, value: string) =>
    CLOUD_CREDENTIAL_VARIABLES.includes(name) || (!PROVIDER_KEY_VARIABLES.includes(name) && credentialWithheld(name, value, rules));
  return Object.entries(parentEnv)
    .filter(([name, value]) => value !== undefined && named(name, value))
    .map(([name]) => name)
    .sort();
}

function credentialWithheld(name: string, value: string, rules: EnvironmentRules): boolean {
  if (!rules.credentials || rules.pass?.includes(name)) return false;
  return rules.credentials.inVariable(name, value) !== undefined;
}

/** The values no variable may carry: the held keys, and the keys in Keel's own environment (they may sit under other names). */
function heldSecrets(parentEnv: Readonly<Record<string, string | undefined>>, held: Iterable<string>): string[] {
  const fromEnv = PROVIDER_KEY_VARIABLES.map((name) => parentEnv[name] ?? '');
  return [...held, ...fromEnv].map((s) => s.trim()).filter((s) => s.length > 0);
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
