// `--config FILE`: approvals, model and limits from a file the user or the CI job gives, for a
// pipeline that keeps them beside its workflow rather than on every command line. It is read only
// when named on the command line — Keel never looks for one in the workspace, whose files are
// data (ARCHITECTURE.md, "Where authority comes from") — and it stands for the flags it names: a
// flag given on the command line wins over the file's value, and deny rules add up (a file can
// refuse more, never refuse less than the command line). Unknown keys and wrong types are exit 2.
import * as fs from 'node:fs';
import { z } from 'zod';
import { InputError } from './cli-errors.js';

const ConfigSchema = z.strictObject({
  provider: z.string().optional(),
  model: z.string().optional(),
  baseUrl: z.string().optional(),
  approve: z.union([z.string(), z.array(z.string())]).optional(),
  allowCommands: z.array(z.string()).optional(),
  denyCommands: z.array(z.string()).optional(),
  sandbox: z.string().optional(),
  maxTurns: z.number().int().positive().optional(),
  maxCost: z.number().positive().optional(),
  maxTokens: z.number().int().positive().optional(),
});

type Config = z.infer<typeof ConfigSchema>;

/** The flag each key stands for, and its value as that flag would be typed. */
function asFlags(c: Config): Record<string, string | string[]> {
  const flags: Record<string, string | string[] | undefined> = {
    provider: c.provider,
    model: c.model,
    'base-url': c.baseUrl,
    approve: Array.isArray(c.approve) ? c.approve.join(',') : c.approve,
    'allow-command': c.allowCommands,
    'deny-command': c.denyCommands,
    sandbox: c.sandbox,
    'max-turns': c.maxTurns?.toString(),
    'max-cost': c.maxCost?.toString(),
    'max-tokens': c.maxTokens?.toString(),
  };
  return Object.fromEntries(Object.entries(flags).filter((e): e is [string, string | string[]] => e[1] !== undefined));
}

/** The command line's flag values with the --config file's under them (no --config: unchanged). */
export function withConfigFile<V extends { config?: string | undefined; 'deny-command'?: string[] | undefined }>(values: V): V {
  if (values.config === undefined) return values;
  const fromFile = asFlags(readConfig(values.config));
  const merged: Record<string, unknown> = { ...fromFile, ...values };
  const deny = [...((fromFile['deny-command'] as string[] | undefined) ?? []), ...(values['deny-command'] ?? [])];
  if (deny.length) merged['deny-command'] = deny;
  return merged as V;
}

function readConfig(file: string): Config {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError(`--config ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InputError(`--config ${file} is not JSON.`);
  }
  const parsed = ConfigSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? issue.path.join('.') : issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : 'the file';
    throw new InputError(`--config ${file}: ${where}: ${issue.message} (keys: ${Object.keys(ConfigSchema.shape).join(', ')}).`);
  }
  return parsed.data;
}
