// remember: keeps a memory with its provenance (this task, this call's event, written by the
// model). Text that looks like a secret (the host's SecretDetector decides) or is too long is
// refused whole, never cut; without a detector nothing is kept, since nothing could be checked.
// The files it concerns are hashed now so recall can say when they changed since.
import { z } from 'zod';
import {
  contentHash,
  MEMORY_TEXT_MAX_CHARS,
  MemoryScopeSchema,
  type MemoryPath,
  type MemoryRecord,
  type SecretDetector,
  type ToolContext,
  type ToolDefinition,
} from '../../kernel/index.js';
import { failure } from '../tool-result.js';
import { writableMemoryVisible } from './visibility.js';

const RememberInputSchema = z.object({
  text: z
    .string()
    .min(1)
    .describe(`What to remember: one fact or preference, at most ${MEMORY_TEXT_MAX_CHARS} characters. Never a secret.`),
  scope: MemoryScopeSchema.optional().describe('workspace (default): this project only; user: every project.'),
  tags: z.array(z.string().min(1).max(40)).max(10).optional().describe('A few words to find it by.'),
  paths: z.array(z.string().min(1)).max(20).optional().describe('Workspace files it concerns; recall says when they change.'),
  expires: z.iso.datetime({ offset: true }).optional().describe('When it stops being true (ISO 8601), if it will.'),
});
export type RememberInput = z.infer<typeof RememberInputSchema>;

export const rememberTool: ToolDefinition<RememberInput> = {
  name: 'remember',
  kind: 'other',
  description:
    'Keep a short fact for later tasks (a convention, a command that works, a user preference). The user approves the exact text. ' +
    'Do not store secrets or things the code already says.',
  input: RememberInputSchema,
  risk: 'write',
  readOnly: false,
  concurrencySafe: false,
  outputBudgetTokens: 300,
  isVisible: writableMemoryVisible,
  summarize: (i) => `Remember (${i.scope ?? 'workspace'}): "${i.text}"`,
  // Before the intent is logged: a secret in the text must not reach the log or the card.
  refuseInput: (raw, secrets) => {
    const { text, tags } = (raw ?? {}) as { text?: unknown; tags?: unknown };
    const refused = typeof text === 'string' ? refusal(text, secrets) : undefined;
    if (refused) return refused;
    const secretTag = Array.isArray(tags) ? tags.find((t) => typeof t === 'string' && secretIn(t, secrets)) : undefined;
    return secretTag === undefined ? undefined : 'A tag looks like it holds a secret; memories never hold secrets (nothing was kept).';
  },
  async execute(input, ctx) {
    if (!ctx.memory) return failure('execution_failed', 'No memory store is configured.', { retryable: false });
    const problem = refusal(input.text, ctx.secrets);
    if (problem) return failure('invalid_input', problem, { retryable: false });
    const now = Date.now();
    const expires = input.expires === undefined ? undefined : Date.parse(input.expires);
    if (expires !== undefined && expires <= now) return failure('invalid_input', `expires (${input.expires}) is already past.`);
    const record: MemoryRecord = {
      id: globalThis.crypto.randomUUID(),
      text: input.text,
      scope: input.scope ?? 'workspace',
      source: { taskId: ctx.memory.taskId, eventSeq: ctx.eventSeq ?? 0, author: 'model' },
      confidence: 'inferred',
      created: now,
      lastUsed: now,
      ...(expires === undefined ? {} : { expires }),
      tags: input.tags ?? [],
      paths: await hashPaths(input.paths ?? [], ctx),
    };
    await ctx.memory.store.append(record);
    return { ok: true, content: `Remembered (id ${record.id}, ${record.scope}).`, summary: `remembered ${record.id}`, data: record };
  },
};

/**
 * Why this text cannot be kept, or undefined. Shared by the CLI's `keel memory add` and the
 * extension's Remember…; each passes the one detector (src/compose/secrets).
 */
export function refusal(text: string, secrets: SecretDetector | undefined): string | undefined {
  // The secret first: a long text that holds a key is refused for the key, not for its length.
  if (!secrets) return 'Keel has no secret check here, so it keeps no memory (nothing was kept).';
  const secret = secrets.find(text)[0];
  if (secret) return `The text looks like it contains ${secret.kind}; memories never hold secrets (nothing was kept).`;
  if (text.length > MEMORY_TEXT_MAX_CHARS)
    return `The text is ${text.length} characters; a memory holds at most ${MEMORY_TEXT_MAX_CHARS}. Say it shorter (nothing was kept).`;
  return undefined;
}

/** True when a detector is missing or finds a credential in the text. */
function secretIn(text: string, secrets: SecretDetector | undefined): boolean {
  return !secrets || secrets.find(text).length > 0;
}

/** Each path resolved inside the workspace with its content hash now (null: no such file). */
async function hashPaths(paths: readonly string[], ctx: ToolContext): Promise<MemoryPath[]> {
  const out: MemoryPath[] = [];
  for (const p of paths) {
    const rel = await ctx.workspace.resolve(p);
    const st = await ctx.workspace.stat(rel);
    out.push({ path: rel, hash: st?.type === 'file' ? contentHash(await ctx.workspace.readFile(rel)) : null });
  }
  return out;
}
