// The registry: tools by name. A duplicate name is an error; only visible tools (and, while a
// skill gates them, only the skill's) reach the model.
import { z } from 'zod';
import type { ToolSchema } from './contracts/model.js';
import type { ToolDefinition, VisibilityContext } from './contracts/tool.js';
import { isOffered } from './skill-gate.js';

export class Registry {
  private readonly toolsByName = new Map<string, ToolDefinition>();

  addTool(def: ToolDefinition): this {
    if (this.toolsByName.has(def.name)) throw new Error(`A tool named "${def.name}" is already registered.`);
    this.toolsByName.set(def.name, def);
    return this;
  }

  tool(name: string): ToolDefinition | undefined {
    return this.toolsByName.get(name);
  }

  tools(): ToolDefinition[] {
    return [...this.toolsByName.values()];
  }

  visibleTools(ctx: VisibilityContext): ToolDefinition[] {
    return this.tools().filter((t) => isOffered(t, ctx));
  }
}

const schemaCache = new WeakMap<ToolDefinition, ToolSchema>();

/** The tool as the model sees it: JSON Schema derived once from its zod input schema (or the tool's own). */
export function toolSchema(def: ToolDefinition): ToolSchema {
  let schema = schemaCache.get(def);
  if (!schema) {
    const json = def.inputJsonSchema
      ? { ...def.inputJsonSchema }
      : (z.toJSONSchema(def.input, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Record<string, unknown>);
    delete json.$schema;
    schema = { name: def.name, description: def.description, inputSchema: json };
    schemaCache.set(def, schema);
  }
  return schema;
}
