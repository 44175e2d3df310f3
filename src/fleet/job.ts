// A fleet job: one headless task, as `keel fleet add` and `keel fleet run` read it — a folder on
// the worker's machine or a git repository at a ref, the task, the approvals it asks to run under
// (fixed: nobody is there to ask; the worker's flags are their ceiling), the model and its caps. Jobs come one per line in a JSONL file; each
// line is checked on its own and a bad line is named by number, the others still load. The
// provider, its base URL and its key are the worker's, never a job's: a job cannot send the
// worker's key elsewhere.
import { z } from 'zod';
import { AgentModeSchema, SandboxModeSchema } from '../kernel/index.js';

const RiskSchema = z.enum(['read', 'write', 'execute', 'network']);

/** Plain command words, as --allow-command takes them: a shell operator would not mean what it seems. */
const CommandPrefixSchema = z
  .string()
  .trim()
  .min(1)
  .refine((v) => !/[;&|<>()`$\\'"\n]/.test(v), 'takes plain words such as "npm test", without quotes or shell operators');

/** A git URL Keel clones: https, ssh, git or file URLs and scp-like `user@host:path`, never an option or a transport helper. */
const GitUrlSchema = z
  .string()
  .min(1)
  .refine(
    (v) => /^(https?|ssh|git|file):\/\/[^\s]+$/.test(v) || /^[\w.-]+@[\w.-]+:[^\s]+$/.test(v),
    'must be an https://, ssh://, git://, file:// or user@host:path URL',
  );

/** A branch, tag or commit: no option-like or revision-expression text. */
const GitRefSchema = z
  .string()
  .regex(/^(?!-)[\w./-]{1,200}$/, 'must be a branch, tag or commit name')
  .refine((v) => !v.includes('..'), 'must be a branch, tag or commit name');

export const FleetJobSchema = z
  .strictObject({
    /** Unique within the queue: adding a job with an id already there adds nothing. */
    id: z
      .string()
      .regex(/^[\w.-]{1,100}$/, 'letters, digits, ".", "_" and "-" only')
      .optional(),
    /** A folder on the worker's machine (absolute once added): copied for each attempt. */
    workspace: z.string().min(1).optional(),
    /** A git repository: cloned for each attempt and checked out at `ref`. */
    repo: z.strictObject({ url: GitUrlSchema, ref: GitRefSchema.optional() }).optional(),
    task: z.string().trim().min(1),
    /** What runs unasked: risks, or "all" (as keel run --approve). */
    approve: z.union([z.literal('all'), z.array(RiskSchema)]).default(['read']),
    allowCommands: z.array(CommandPrefixSchema).default([]),
    denyCommands: z.array(CommandPrefixSchema).default([]),
    /** A stricter sandbox mode than the worker's (a looser one is the worker's: a job only narrows). */
    sandbox: SandboxModeSchema.optional(),
    /** The mode the task is sent in (as keel run --mode): plan and ask change nothing. Default: agent. */
    mode: AgentModeSchema.optional(),
    /** The model; default: the worker's. */
    model: z.string().min(1).optional(),
    maxTurns: z.number().int().min(1).max(200).optional(),
    budget: z.strictObject({ usd: z.number().positive().optional(), tokens: z.number().int().positive().optional() }).default({}),
  })
  .refine((j) => (j.workspace === undefined) !== (j.repo === undefined), 'give exactly one of "workspace" and "repo"');
export type FleetJob = z.infer<typeof FleetJobSchema>;

interface JobLineProblem {
  line: number;
  message: string;
}

export interface ParsedJobs {
  jobs: FleetJob[];
  problems: JobLineProblem[];
}

/** The jobs of a JSONL text; blank lines are skipped, each bad line is a problem of its own. */
export function parseJobLines(text: string): ParsedJobs {
  const out: ParsedJobs = { jobs: [], problems: [] };
  text.split('\n').forEach((raw, i) => {
    if (!raw.trim()) return;
    const job = parseJob(raw);
    if (job.ok) out.jobs.push(job.job);
    else out.problems.push({ line: i + 1, message: job.message });
  });
  const seen = new Set<string>();
  for (const j of out.jobs) {
    if (j.id === undefined) continue;
    if (seen.has(j.id)) out.problems.push({ line: 0, message: `the job id "${j.id}" is given twice` });
    seen.add(j.id);
  }
  return out;
}

function parseJob(text: string): { ok: true; job: FleetJob } | { ok: false; message: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, message: 'not valid JSON' };
  }
  const parsed = FleetJobSchema.safeParse(json);
  if (parsed.success) return { ok: true, job: parsed.data };
  return { ok: false, message: z.prettifyError(parsed.error).replace(/\n+/g, '; ') };
}
