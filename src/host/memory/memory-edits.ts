// What the user does to memories by hand: add one in their own words, and edit one. Text is
// checked as the remember tool checks it (no secret, at most 1,000 characters, never cut). An
// edit never rewrites a line: it appends the new record, then tombstones the old one, so a crash
// in between leaves both rather than neither. No vscode import (unit-tested).
import type { MemoryRecord, MemoryScope, MemoryStore } from '../../kernel/index.js';
import { secretDetector } from '../../compose/index.js';
import { memoryTextRefusal } from '../../tools/index.js';

export type MemoryEditOutcome = { ok: true; record: MemoryRecord } | { ok: false; reason: string };

/** Why this text cannot be a memory, or undefined (the input box shows it as it is typed). */
export function memoryTextProblem(text: string): string | undefined {
  if (text.trim() === '') return 'Type what Keel should remember.';
  return memoryTextRefusal(text, secretDetector());
}

/** A memory in the user's words: author user, confidence stated, no task. */
export async function rememberStated(
  store: MemoryStore,
  text: string,
  scope: MemoryScope,
  now: number,
  newId: () => string = () => globalThis.crypto.randomUUID(),
): Promise<MemoryEditOutcome> {
  const problem = memoryTextProblem(text);
  if (problem) return { ok: false, reason: problem };
  const record: MemoryRecord = {
    id: newId(),
    text,
    scope,
    source: { taskId: '', eventSeq: 0, author: 'user' },
    confidence: 'stated',
    created: now,
    lastUsed: now,
    tags: [],
    paths: [],
  };
  await store.append(record);
  return { ok: true, record };
}

/**
 * The record with new text, as the user now states it: a new id, author user, confidence
 * stated; scope, tags, files (with their hashes) and expiry kept.
 */
export async function editMemory(
  store: MemoryStore,
  id: string,
  text: string,
  now: number,
  newId: () => string = () => globalThis.crypto.randomUUID(),
): Promise<MemoryEditOutcome> {
  const problem = memoryTextProblem(text);
  if (problem) return { ok: false, reason: problem };
  const old = (await store.list()).find((r) => r.id === id);
  if (!old) return { ok: false, reason: 'This memory was deleted meanwhile (another window?); nothing was changed.' };
  const record: MemoryRecord = {
    ...old,
    id: newId(),
    text,
    source: { taskId: '', eventSeq: 0, author: 'user' },
    confidence: 'stated',
    created: now,
    lastUsed: now,
  };
  await store.append(record);
  await store.tombstone(old.id);
  return { ok: true, record };
}
