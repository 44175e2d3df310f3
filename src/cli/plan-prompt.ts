// The terminal's answer to a plan: after `keel run --mode plan` ends with a to-do list, the person
// approves it, types what to change, or says no — the same choice the editor's Approve plan and
// composer give. Without a terminal nobody is asked; the run says how to approve it later.
import * as readline from 'node:readline';
import type { PlanReply } from '../compose/plan-approval.js';

export const PLAN_QUESTION = 'Approve the plan? [y]es / [n]o / or type what to change: ';

/** Asks once per call; an empty line asks again. Ctrl+C or the input closing is a no (nothing more is sent). */
export function terminalPlanAnswer(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): () => Promise<PlanReply> {
  return async () => {
    const rl = readline.createInterface({ input, output });
    const ended = new Promise<null>((resolve) => {
      rl.once('SIGINT', () => {
        output.write('\n');
        resolve(null);
      });
      rl.once('close', () => resolve(null));
    });
    try {
      for (;;) {
        const reply = await Promise.race([new Promise<string>((resolve) => rl.question(PLAN_QUESTION, resolve)), ended]);
        if (reply === null) return { type: 'reject' };
        const text = reply.trim();
        const word = text.toLowerCase();
        if (word === 'y' || word === 'yes') return { type: 'approve' };
        if (word === 'n' || word === 'no') return { type: 'reject' };
        if (text) return { type: 'revise', text };
      }
    } finally {
      rl.close();
    }
  };
}

/** What a run that cannot ask prints: how to carry out the plan later. */
export function planLaterHint(log: string | undefined): string {
  return log
    ? `The plan waits for approval: keel resume ${quoteArg(log)} --approve-plan carries it out.`
    : 'The plan waits for approval; run with --log FILE to carry it out later with keel resume FILE --approve-plan.';
}

function quoteArg(arg: string): string {
  return /^[\w./:@%+=,-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
