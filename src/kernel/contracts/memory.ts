// Memory: what Keel remembers across tasks, each record with its provenance (which task and
// event produced it, who wrote it, how sure it is), a scope and an optional expiry. Records are
// appended and tombstoned, never edited in place; the store behind the port keeps them.
import { z } from 'zod';

/** The longest text one memory may hold: longer text is refused, never cut. */
export const MEMORY_TEXT_MAX_CHARS = 1000;

export const MemoryScopeSchema = z.enum(['workspace', 'user']);
export type MemoryScope = z.infer<typeof MemoryScopeSchema>;

/** stated: the user said it; observed: read from a tool result; inferred: the model concluded it. */
const MemoryConfidenceSchema = z.enum(['stated', 'observed', 'inferred']);

const MemorySourceSchema = z.object({
  /** The task that produced it (empty for a memory added by hand outside any task). */
  taskId: z.string(),
  /** The event in that task's log at which it was remembered (0 when none). */
  eventSeq: z.number().int().min(0),
  author: z.enum(['user', 'model']),
});

/** A file the memory concerns, with its content hash when remembered (null: it did not exist). */
const MemoryPathSchema = z.object({
  path: z.string().min(1),
  hash: z.string().nullable(),
});
export type MemoryPath = z.infer<typeof MemoryPathSchema>;

export const MemoryRecordSchema = z.object({
  id: z.string().min(1),
  text: z.string().min(1).max(MEMORY_TEXT_MAX_CHARS),
  scope: MemoryScopeSchema,
  source: MemorySourceSchema,
  confidence: MemoryConfidenceSchema,
  /** Epoch milliseconds. */
  created: z.number(),
  lastUsed: z.number(),
  expires: z.number().optional(),
  tags: z.array(z.string()),
  paths: z.array(MemoryPathSchema),
});
export type MemoryRecord = z.infer<typeof MemoryRecordSchema>;

/** A recall question: free words, optionally the files the task is about. */
export interface RecallQuery {
  text: string;
  limit: number;
  /** Workspace-relative paths the asker cares about: records concerning them rank higher. */
  paths?: readonly string[];
  /** Epoch milliseconds, for recency and expiry. */
  now: number;
}

export interface RecallHit {
  record: MemoryRecord;
  score: number;
}

/** Where memories live. Implementations append whole records and tombstones; list() is live records only. */
export interface MemoryStore {
  /** Adds a record, or replaces the record with the same id (a later line wins). */
  append(record: MemoryRecord): Promise<void>;
  /** Deletes a record for good. False when no live record has this id. */
  tombstone(id: string): Promise<boolean>;
  /** Every live record, expired ones included (the user still sees and deletes them). */
  list(): Promise<MemoryRecord[]>;
  /** Live, unexpired records ranked for the query, best first, at most `limit`. */
  recall(query: RecallQuery): Promise<RecallHit[]>;
}

/** What a tool reaches memory through: the store, and the task it is working for. */
export interface MemoryAccess {
  store: MemoryStore;
  taskId: string;
}
