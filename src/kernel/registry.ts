// The registry: tools and providers by name. A duplicate name is an error; only visible
// tools reach the model.
import { z } from 'zod';
import type { ModelProvider, ToolSchema } from './contracts/model.js';
import type { ToolDefinition, VisibilityContext } from './contracts/tool.js';

export type ProviderFactory = (options: Record<string, unknown>) => ModelProvider;

export class Registry {
  private readonly toolsByName = new Map<string, ToolDefinition>();
  private readonly providersByName = new Map<string, ProviderFactory>();

  addTool(def: ToolDefinition): this {
    if (this.toolsByName.has(def.name)) throw new Error(`A tool named "${def.name}" is already registered.`);
    this.toolsByName.set(def.name, def);
    return this;
  }

  addProvider(name: string, factory: ProviderFactory): this {
    if (this.providersByName.has(name)) throw new Error(`A provider named "${name}" is already registered.`);
    this.providersByName.set(name, factory);
    return this;
  }

  tool(name: string): ToolDefinition | undefined {
    return this.toolsByName.get(name);
  }

  tools(): ToolDefinition[] {
    return [...this.toolsByName.values()];
  }

  visibleTools(ctx: VisibilityContext): ToolDefinition[] {
    return this.tools().filter((t) => (t.isVisible ? t.isVisible(ctx) : true));
  }

  provider(name: string): ProviderFactory | undefined {
    return this.providersByName.get(name);
  }
}

const schemaCache = new WeakMap<ToolDefinition, ToolSchema>();

/** The tool as the model sees it: JSON Schema derived once from its zod input schema. */
export function toolSchema(def: ToolDefinition): ToolSchema {
  let schema = schemaCache.get(def);
  if (!schema) {
    const json = z.toJSONSchema(def.input, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    delete json.$schema;
    schema = { name: def.name, description: def.description, inputSchema: json };
    schemaCache.set(def, schema);
  }
  return schema;
}
