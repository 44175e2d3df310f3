// `keel memory list|add|forget`: the user reads, adds and deletes memories in the same store the
// memory tools use. Memories added here are the user's own words: author user, confidence stated.
import { parseArgs } from 'node:util';
import { contentHash, MemoryScopeSchema, type MemoryPath, type MemoryRecord, type MemoryScope } from '../kernel/index.js';
import { cliMemoryFiles, JsonlMemoryStore } from '../node/memory-store.js';
import { createNodeWorkspace } from '../node/node-workspace.js';
import { secretDetector } from '../compose/index.js';
import { memoryTextRefusal } from '../tools/index.js';
import { UsageError } from './args.js';

export interface MemoryIo {
  stdout: NodeJS.WritableStream;
  cwd: string;
  env: NodeJS.ProcessEnv;
  now?: () => number;
}

export async function runMemoryCommand(argv: string[], io: MemoryIo): Promise<void> {
  const [verb, ...rest] = argv;
  const { values, positionals } = parseMemoryArgs(rest);
  const root = values.workspace ?? io.cwd;
  const store = JsonlMemoryStore.open(cliMemoryFiles(root, io.env), io.now);
  for (const p of store.problems) io.stdout.write(`keel: set aside a damaged memory line (${p.reason})\n`);
  const now = (io.now ?? Date.now)();
  if (verb === 'list') return list(store, io, now, values.json === true);
  if (verb === 'add') return add(store, io, root, positionals, values, now);
  if (verb === 'forget') return forget(store, io, positionals);
  throw new UsageError(`keel memory takes list, add or forget (got "${verb ?? ''}").`);
}

function parseMemoryArgs(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        workspace: { type: 'string' },
        scope: { type: 'string' },
        tag: { type: 'string', multiple: true },
        path: { type: 'string', multiple: true },
        expires: { type: 'string' },
        json: { type: 'boolean' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

async function list(store: JsonlMemoryStore, io: MemoryIo, now: number, json: boolean): Promise<void> {
  const records = await store.list();
  if (json) return void io.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
  if (records.length === 0) return void io.stdout.write('No memories.\n');
  for (const r of records) io.stdout.write(`${describe(r, now)}\n`);
}

function describe(r: MemoryRecord, now: number): string {
  const days = Math.floor((now - r.created) / 86_400_000);
  const source = r.source.taskId ? `task ${r.source.taskId} event ${r.source.eventSeq}` : 'added by hand';
  const expiry = r.expires === undefined ? '' : r.expires <= now ? ', expired' : `, expires ${new Date(r.expires).toISOString()}`;
  const paths = r.paths.length ? `\n    files: ${r.paths.map((p) => p.path).join(', ')}` : '';
  return `${r.id}  [${r.scope}, ${r.confidence} by ${r.source.author}, ${source}, ${days} d old${expiry}]\n    ${r.text}${paths}`;
}

async function add(
  store: JsonlMemoryStore,
  io: MemoryIo,
  root: string,
  positionals: string[],
  values: { scope?: string; tag?: string[]; path?: string[]; expires?: string },
  now: number,
): Promise<void> {
  if (positionals.length !== 1 || !positionals[0]!.trim()) throw new UsageError('Give the memory as one quoted text: keel memory add "…".');
  const text = positionals[0]!;
  const refused = memoryTextRefusal(text, secretDetector());
  if (refused) throw new Error(refused);
  const expires = parseExpires(values.expires, now);
  const record: MemoryRecord = {
    id: globalThis.crypto.randomUUID(),
    text,
    scope: parseScope(values.scope),
    source: { taskId: '', eventSeq: 0, author: 'user' },
    confidence: 'stated',
    created: now,
    lastUsed: now,
    ...(expires === undefined ? {} : { expires }),
    tags: values.tag ?? [],
    paths: await hashPaths(root, values.path ?? []),
  };
  await store.append(record);
  io.stdout.write(`Remembered ${record.id} (${record.scope}).\n`);
}

async function forget(store: JsonlMemoryStore, io: MemoryIo, positionals: string[]): Promise<void> {
  if (positionals.length !== 1) throw new UsageError('Give the id to forget: keel memory forget ID (keel memory list shows ids).');
  if (!(await store.tombstone(positionals[0]!))) throw new Error(`No memory has the id ${positionals[0]}.`);
  io.stdout.write(`Forgot ${positionals[0]}.\n`);
}

function parseScope(value: string | undefined): MemoryScope {
  const parsed = MemoryScopeSchema.safeParse(value ?? 'workspace');
  if (!parsed.success) throw new UsageError(`--scope must be workspace or user (got "${value}").`);
  return parsed.data;
}

function parseExpires(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw new UsageError(`--expires takes a date such as 2026-12-31 (got "${value}").`);
  if (at <= now) throw new UsageError(`--expires ${value} is already past.`);
  return at;
}

async function hashPaths(root: string, paths: readonly string[]): Promise<MemoryPath[]> {
  if (paths.length === 0) return [];
  const ws = await createNodeWorkspace(root, { rgPath: null });
  const out: MemoryPath[] = [];
  for (const p of paths) {
    const rel = await ws.resolve(p);
    const st = await ws.stat(rel);
    out.push({ path: rel, hash: st?.type === 'file' ? contentHash(await ws.readFile(rel)) : null });
  }
  return out;
}
