// Who answers approvals in a headless run: the person at the terminal (y/n/a), or — with no
// terminal — nobody, so anything not pre-approved is rejected and the model is told why. The
// person sees exactly what would run: the whole command line, with anything invisible shown.
import * as readline from 'node:readline';
import { visibleText, type Runtime, type ToolIntent } from '../kernel/index.js';
import { decideApproval, type ApprovalDecision } from '../compose/approval-decision.js';

export type Approver = (intent: ToolIntent, reason: string, runtime: Runtime) => Promise<void>;

/** Nobody can answer: the call is refused as unanswered (the model is told no person said no), with the policy's reason. */
export const rejectAll: Approver = async (intent, reason, runtime) => {
  await decideApproval({ runtime }, intent.id, { approve: false, reason, unanswered: true });
};

/**
 * Asks at the terminal. Ctrl+C at the prompt interrupts the run as it would anywhere else
 * (readline takes the keystroke, so the process never sees the signal); the input closing
 * (Ctrl+D, a closed pipe) rejects the call, since nobody is left to answer.
 */
export function terminalApprover(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, onInterrupt: () => void): Approver {
  return async (intent, reason, runtime) => {
    const decide = async (decision: ApprovalDecision) => void (await decideApproval({ runtime }, intent.id, decision));
    const rl = readline.createInterface({ input, output });
    const ended = new Promise<'interrupted' | 'closed'>((resolve) => {
      rl.once('SIGINT', () => {
        output.write('\n');
        resolve('interrupted');
      });
      rl.once('close', () => resolve('closed'));
    });
    const answer = async (question: string) => Promise.race([ask(rl, question), ended]);
    try {
      output.write(`${describeForApproval(intent, reason)}\n`);
      for (;;) {
        const reply = await answer('[y]es / [n]o / [a]lways this task: ');
        if (reply === 'interrupted') return onInterrupt();
        if (reply === 'closed') return decide({ approve: false, reason: 'the terminal input closed before an answer', unanswered: true });
        const choice = reply.trim().toLowerCase();
        if (choice === 'y' || choice === 'yes') return decide({ approve: true, scope: 'once' });
        if (choice === 'a' || choice === 'always') return decide({ approve: true, scope: 'task' });
        if (choice === 'n' || choice === 'no') {
          const why = await answer('Reason for the model (optional): ');
          if (why === 'interrupted') return onInterrupt();
          return decide({ approve: false, reason: why === 'closed' ? '' : why.trim() });
        }
      }
    } finally {
      rl.close();
    }
  };
}

/**
 * What the person is asked to allow: for a command, its exact line (and folder) on a line of
 * its own; otherwise the call's summary. Control characters, bidi overrides and invisible
 * spaces are shown as markers, so nothing in the line is hidden, reordered or drawn over.
 */
export function describeForApproval(intent: ToolIntent, reason: string): string {
  const input = intent.input as { command?: unknown; cwd?: unknown } | null;
  const lines = [`Allow ${intent.tool}? (${visibleText(reason)})`];
  if (typeof input?.command === 'string') {
    lines.push(`  $ ${visibleText(input.command)}`);
    if (typeof input.cwd === 'string') lines.push(`  in ${visibleText(input.cwd)}`);
  } else {
    lines.push(`  ${visibleText(intent.summary)}`);
  }
  return lines.join('\n');
}

function ask(rl: readline.Interface, question: string): Promise<string> {
  return new Promise((resolve) => rl.question(question, resolve));
}
