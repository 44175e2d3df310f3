// What the Memory view shows for each record, as plain data: the groups by scope, a short
// label, a one-line description (confidence, age, expired, stale) and the tooltip with the whole
// text and its provenance. No vscode import, so the wording is unit-tested; memory-view.ts
// turns these into TreeItems.
import type { MemoryRecord, MemoryScope } from '../../kernel/index.js';

/** Characters of the text in a row's label; the tooltip has all of it. */
const LABEL_CHARS = 60;
const DAY_MS = 86_400_000;

export interface MemoryGroup {
  scope: MemoryScope;
  label: string;
  records: MemoryRecord[];
}

const SCOPE_LABELS: Record<MemoryScope, string> = { workspace: 'Workspace', user: 'User (every workspace)' };

/** Workspace memories first (when a folder is open), then the user's; newest first in each. */
export function groupByScope(records: readonly MemoryRecord[], hasWorkspace: boolean): MemoryGroup[] {
  const scopes: MemoryScope[] = hasWorkspace ? ['workspace', 'user'] : ['user'];
  return scopes.map((scope) => ({
    scope,
    label: SCOPE_LABELS[scope],
    records: records.filter((r) => r.scope === scope).sort((a, b) => b.created - a.created),
  }));
}

/** The text on one line, cut at LABEL_CHARS with an ellipsis. */
export function memoryLabel(record: MemoryRecord): string {
  const flat = record.text.replace(/\s+/g, ' ').trim();
  return flat.length <= LABEL_CHARS ? flat : `${flat.slice(0, LABEL_CHARS - 1)}…`;
}

function isExpired(record: MemoryRecord, now: number): boolean {
  return record.expires !== undefined && record.expires <= now;
}

/** A record's confidence in a user's words ("stated" is the store's term, not theirs). */
const CONFIDENCE_WORDS: Record<MemoryRecord['confidence'], string> = {
  stated: 'you said it',
  observed: 'seen in a tool result',
  inferred: 'the model concluded it',
};

/** Beside the label: how sure, how old, and whether it still holds. */
export function memoryDescription(record: MemoryRecord, now: number, stale: readonly string[]): string {
  const created = age(now - record.created);
  const parts = [CONFIDENCE_WORDS[record.confidence], created === 'new' ? 'just now' : `${created} ago`];
  if (isExpired(record, now)) parts.push('expired');
  if (stale.length > 0) parts.push('stale');
  return parts.join(' · ');
}

/** The whole text, then where it came from and how it stands. */
export function memoryTooltip(record: MemoryRecord, now: number, stale: readonly string[]): string {
  const lines = [
    record.text,
    '',
    `Scope: ${record.scope}`,
    `Source: ${sourceText(record)}`,
    `Confidence: ${CONFIDENCE_WORDS[record.confidence]}`,
    `Created: ${when(record.created)} (${age(now - record.created)} ago)`,
    `Last used: ${when(record.lastUsed)}`,
    `Expires: ${record.expires === undefined ? 'never' : `${when(record.expires)}${isExpired(record, now) ? ' (expired)' : ''}`}`,
  ];
  if (record.tags.length > 0) lines.push(`Tags: ${record.tags.join(', ')}`);
  if (record.paths.length > 0) lines.push(`Files: ${record.paths.map((p) => p.path).join(', ')}`);
  if (stale.length > 0) lines.push(`Stale: ${stale.join(', ')} changed since it was remembered`);
  lines.push(`Id: ${record.id}`);
  return lines.join('\n');
}

function sourceText(record: MemoryRecord): string {
  const who = record.source.author === 'user' ? 'you' : 'the model';
  if (!record.source.taskId) return `${who}, by hand`;
  return `${who}, task ${record.source.taskId} at event ${record.source.eventSeq}`;
}

function when(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 16);
}

function age(ms: number): string {
  const days = Math.floor(Math.max(0, ms) / DAY_MS);
  if (days >= 1) return `${days} d`;
  const hours = Math.floor(Math.max(0, ms) / 3_600_000);
  return hours >= 1 ? `${hours} h` : 'new';
}
