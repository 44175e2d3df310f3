// Step 1 of the MCP client: which servers to start. The file follows VS Code's mcp.json
// convention (`servers: {name: {type: "stdio", command, args, env} | {type: "http", url,
// headers}}`), JSON with comments. Each server is checked on its own: a bad entry becomes a
// problem naming the file and the server, and the others still load. Keel's own `risk` object
// beside `servers` ({"fs": "read", "fs/write_file": "execute"}, as VS Code's keel.mcp.risk) is
// read from the user's files only: a workspace cannot vouch for its own servers. Pure.
import { z } from 'zod';
import { RiskSchema, type Risk } from '../kernel/index.js';
import { parseJsonc } from '../kernel/jsonc.js';
import type { McpRiskOverrides } from './tools.js';

const StdioServerSchema = z.strictObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
});

const HttpServerSchema = z.strictObject({
  type: z.literal('http'),
  url: z.url({ protocol: /^https?$/ }),
  headers: z.record(z.string(), z.string()).default({}),
});

export type McpServerDefinition = z.infer<typeof HttpServerSchema> | z.infer<typeof StdioServerSchema>;

/** Where a server was defined: the user's own file, or the workspace's (which needs trust and approval). */
export type McpSource = 'user' | 'workspace';

export interface McpServerConfig {
  name: string;
  source: McpSource;
  /** The file it came from, as the notices name it. */
  file: string;
  definition: McpServerDefinition;
}

interface McpConfigProblem {
  file: string;
  /** Undefined when the whole file is unreadable. */
  server?: string;
  message: string;
}

export interface McpConfigFile {
  servers: McpServerConfig[];
  problems: McpConfigProblem[];
  /** The user's risk for servers (`name`) and tools (`name/tool`); none from a workspace's file. */
  risk?: McpRiskOverrides;
}

/** The servers one mcp.json defines, and a problem for each entry that is not a server. */
export function parseMcpConfig(text: string, file: string, source: McpSource): McpConfigFile {
  const json = parseJsonc(text);
  if (json === undefined)
    return { servers: [], problems: [{ file, message: 'not valid JSON (comments and trailing commas are allowed)' }] };
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { servers: [], problems: [{ file, message: 'expected an object with a "servers" object' }] };
  const risk = parseRisk((json as { risk?: unknown }).risk, file, source);
  const servers = (json as { servers?: unknown }).servers;
  if (servers === undefined) return { servers: [], ...risk };
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers))
    return { servers: [], ...risk, problems: [...risk.problems, { file, message: '"servers" must be an object of named servers' }] };
  const out: McpConfigFile = { servers: [], ...risk };
  for (const [name, raw] of Object.entries(servers)) {
    // Checked against the one form its "type" names, so a problem names the field, never "Invalid input".
    const parsed = ((raw as { type?: unknown } | null)?.type === 'http' ? HttpServerSchema : StdioServerSchema).safeParse(raw);
    if (parsed.success) out.servers.push({ name, source, file, definition: parsed.data });
    else out.problems.push({ file, server: name, message: describeIssues(parsed.error.issues) });
  }
  return out;
}

/** The `risk` object: each entry a risk, else a problem naming it; a workspace's is refused whole. */
function parseRisk(raw: unknown, file: string, source: McpSource): Pick<McpConfigFile, 'risk' | 'problems'> {
  const out = { problems: [] as McpConfigProblem[] };
  if (raw === undefined) return out;
  if (source === 'workspace') {
    out.problems.push({ file, message: '"risk" is ignored in a workspace\'s file: only your own config says which tools to trust' });
    return out;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    out.problems.push({ file, message: '"risk" must be an object of "server" or "server/tool" to a risk' });
    return out;
  }
  const risk: Record<string, Risk> = {};
  for (const [key, value] of Object.entries(raw)) {
    const parsed = RiskSchema.safeParse(value);
    if (parsed.success) risk[key] = parsed.data;
    else out.problems.push({ file, message: `"risk.${key}": expected read, write, execute or network` });
  }
  return Object.keys(risk).length ? { ...out, risk } : out;
}

/** Each problem with the field it is in: `"command": expected a string`, `unknown field "comand"`. */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((i) => {
      if (i.code === 'unrecognized_keys') return `unknown field${i.keys.length === 1 ? '' : 's'} ${i.keys.map((k) => `"${k}"`).join(', ')}`;
      const field = i.path.length ? `"${i.path.map(String).join('.')}"` : 'the server';
      return `${field}: ${i.message.replace(/^Invalid input: /, '')}`;
    })
    .join('; ');
}

/** Several files in order (the user's first): a later server of the same name is a problem, not a replacement. */
export function mergeMcpConfigs(files: readonly McpConfigFile[]): McpConfigFile {
  const merged: McpConfigFile = { servers: [], problems: [] };
  const risk: Record<string, Risk> = {};
  for (const f of files) {
    merged.problems.push(...f.problems);
    // The first file that names a server or tool decides its risk, as for the servers themselves.
    for (const [key, value] of Object.entries(f.risk ?? {})) risk[key] ??= value;
    for (const s of f.servers) {
      const first = merged.servers.find((m) => m.name === s.name);
      if (first)
        merged.problems.push({ file: s.file, server: s.name, message: `a server named "${s.name}" is already defined in ${first.file}` });
      else merged.servers.push(s);
    }
  }
  if (Object.keys(risk).length) merged.risk = risk;
  return merged;
}

/**
 * The exact line a person approves: the command line with its arguments, or the URL. The
 * variables and folder a stdio definition sets are part of it: they change what runs
 * (`NODE_OPTIONS=--require …` makes `node server.js` load any file).
 */
export function describeServer(definition: McpServerDefinition): string {
  if (definition.type === 'http') return definition.url;
  const vars = Object.entries(definition.env).map(([name, value]) => `${name}=${quoteArg(value)}`);
  const line = [...vars, ...[definition.command, ...definition.args].map(quoteArg)].join(' ');
  return definition.cwd ? `cd ${quoteArg(definition.cwd)} && ${line}` : line;
}

function quoteArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A stable text of the whole definition: an approval holds for exactly this definition, nothing edited since. */
export function definitionKey(config: McpServerConfig): string {
  return JSON.stringify(sorted({ name: config.name, definition: config.definition }));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
    );
  return value;
}
