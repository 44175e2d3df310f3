// Variable assignments before a command (`LC_ALL=C sort`) or given to env. Most variables change
// what a program runs or reads (PATH, LD_*, GIT_*, NODE_OPTIONS, PAGER, BASH_ENV, *_CONFIG*,
// IFS, CDPATH, HOME…), so only a short list of locale and display settings with plain values
// keeps a command read-only.

const SAFE_NAMES = new Set([
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'LC_COLLATE',
  'LC_MESSAGES',
  'LC_NUMERIC',
  'LC_TIME',
  'LC_MONETARY',
  'TZ',
  'NO_COLOR',
  'FORCE_COLOR',
  'CLICOLOR',
  'CLICOLOR_FORCE',
  'CI',
  'COLUMNS',
  'LINES',
  'TERM',
]);

/** Values that name no file: a locale, a zone such as Europe/Paris, a number, a flag. */
const SAFE_VALUE = /^(?:[A-Za-z0-9_.,@+-]+(?:\/[A-Za-z0-9_.,@+-]+)*)?$/;

/** Why `NAME=value` (its static text, or undefined when computed at run time) is not safe, or undefined. */
export function unsafeAssignment(name: string, value: string | undefined): string | undefined {
  if (!SAFE_NAMES.has(name)) return `sets ${name}, which can change what the command runs or reads`;
  if (value === undefined) return `sets ${name} to a value computed at run time`;
  if (!SAFE_VALUE.test(value) || value.split('/').includes('..')) return `sets ${name} to ${value}, which may name a file`;
  return undefined;
}

/** Splits `NAME=value` / `NAME+=value` into name and value. */
export function splitAssignment(text: string): { name: string; value: string } {
  const eq = text.indexOf('=');
  return { name: text.slice(0, eq).replace(/\+$/, ''), value: text.slice(eq + 1) };
}
