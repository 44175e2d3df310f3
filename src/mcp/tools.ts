// Step 3 of the MCP client: a server's tools as kernel ToolDefinitions. Each is named
// `mcp__SERVER__TOOL` (characters models accept), its JSON Schema compiled by a real validator
// (ajv, through the SDK) and every call checked against it; a schema that does not compile
// leaves that tool out with a reason. Risk is `execute` (asks) unless the user's settings
// say otherwise for the server or the tool; the server's readOnlyHint is shown, never trusted
// on its own. Under the CLI's rule (`trustedReadsOnly`) a tool is a `read` only when the server
// marks it read-only and the user trusts it as one; every other tool always asks.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation/types.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Risk, ToolDefinition, ToolKind } from '../kernel/index.js';
import { messageOf } from './connection.js';

/** Provider APIs accept tool names of these characters, up to 64 of them. */
const MAX_NAME = 64;
const OUTPUT_BUDGET_TOKENS = 6000;

/** The user's risk overrides: by server name, or by `server/tool`. */
export type McpRiskOverrides = Readonly<Record<string, Risk>>;

export interface SkippedTool {
  tool: string;
  reason: string;
}

/** What a tool needs to run a call: the hub behind it decides restarts and timeouts. */
export type McpCall = (tool: string, args: Record<string, unknown>, signal: AbortSignal) => ReturnType<ToolDefinition['execute']>;

function sanitise(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, '_');
}

function mcpToolName(server: string, tool: string): string {
  return `mcp__${sanitise(server)}__${sanitise(tool)}`;
}

/** The risk a tool runs at: the tool's override, else the server's, else `execute`. */
function riskOf(server: string, tool: string, overrides: McpRiskOverrides): Risk {
  return overrides[`${server}/${tool}`] ?? overrides[server] ?? 'execute';
}

export function serverToolDefinitions(
  server: string,
  tools: readonly Tool[],
  overrides: McpRiskOverrides,
  call: McpCall,
  trustedReadsOnly = false,
): { tools: ToolDefinition[]; skipped: SkippedTool[] } {
  const validator = new AjvJsonSchemaValidator();
  const out: ToolDefinition[] = [];
  const skipped: SkippedTool[] = [];
  const taken = new Set<string>();
  for (const tool of tools) {
    const name = mcpToolName(server, tool.name);
    if (name.length > MAX_NAME) {
      skipped.push({ tool: tool.name, reason: `its name ${name} is longer than ${MAX_NAME} characters` });
      continue;
    }
    if (taken.has(name)) {
      skipped.push({ tool: tool.name, reason: `its name ${name} clashes with another tool of this server` });
      continue;
    }
    let check: (input: unknown) => { valid: boolean; errorMessage?: string | undefined };
    try {
      check = validator.getValidator(tool.inputSchema as JsonSchemaType);
    } catch (err) {
      skipped.push({ tool: tool.name, reason: `its input schema does not compile: ${messageOf(err)}` });
      continue;
    }
    taken.add(name);
    const rule = trustedReadsOnly ? trustedRead(server, tool, overrides) : { risk: riskOf(server, tool.name, overrides) };
    out.push({ ...definition(server, tool, name, rule.risk, check, call), ...rule });
  }
  return { tools: out, skipped };
}

function definition(
  server: string,
  tool: Tool,
  name: string,
  risk: Risk,
  check: (input: unknown) => { valid: boolean; errorMessage?: string | undefined },
  call: McpCall,
): ToolDefinition<Record<string, unknown>> {
  const input = z.custom<Record<string, unknown>>().superRefine((value, ctx) => {
    const verdict = check(value ?? {});
    if (!verdict.valid) ctx.addIssue({ code: 'custom', message: verdict.errorMessage ?? 'does not match the tool schema' });
  });
  const readOnlyHint = tool.annotations?.readOnlyHint === true;
  const hint = readOnlyHint ? ' The server says this tool only reads (a hint, not verified).' : '';
  return {
    name,
    kind: kindOf(tool),
    description: `${tool.description ?? tool.title ?? tool.name} (MCP server "${server}", tool "${tool.name}".)${hint}`,
    input,
    inputJsonSchema: tool.inputSchema as Record<string, unknown>,
    risk,
    // Whatever the server claims, Keel cannot see what the call does.
    readOnly: false,
    concurrencySafe: false,
    outputBudgetTokens: OUTPUT_BUDGET_TOKENS,
    isVisible: (ctx) => ctx.trusted,
    // The card shows the server's hint; the risk above never follows it.
    summarize: (args) => `${server}: ${tool.name}${readOnlyHint ? ' (server says read-only)' : ''} ${oneLine(args)}`,
    execute: (args, ctx) => call(tool.name, args ?? {}, ctx.signal),
  };
}

/**
 * The CLI's rule: `read` for a tool the server marks read-only (and not destructive) that the
 * user's config trusts as `read` (by the tool, else its server); any other tool always asks.
 */
function trustedRead(server: string, tool: Tool, overrides: McpRiskOverrides): Pick<ToolDefinition, 'risk' | 'alwaysAsks'> {
  const hinted = kindOf(tool) === 'read';
  const trusted = riskOf(server, tool.name, overrides) === 'read';
  if (hinted && trusted) return { risk: 'read' };
  const why = !hinted
    ? `the server "${server}" does not mark "${tool.name}" read-only`
    : `your config does not trust "${server}/${tool.name}" as read`;
  return { risk: 'execute', alwaysAsks: `MCP tool "${tool.name}" of "${server}": ${why}, so it always asks.` };
}

/**
 * What the server says its tool is, as far as Keel can take it: a tool the server marks read-only
 * is a `read` (a hint for display; its risk never follows it); anything else is `other`. Never
 * `edit`: Keel cannot compute what a server's tool would write, so it has no diff to preview.
 */
function kindOf(tool: Tool): ToolKind {
  return tool.annotations?.readOnlyHint === true && tool.annotations.destructiveHint !== true ? 'read' : 'other';
}

function oneLine(args: unknown): string {
  const text = JSON.stringify(args ?? {});
  return text.length <= 160 ? text : `${text.slice(0, 157)}…`;
}
