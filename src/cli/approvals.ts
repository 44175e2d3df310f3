// Who answers approvals in a headless run: the person at the terminal (y/n/a), or — with no
// terminal — nobody, so anything not pre-approved is rejected and the model is told why.
import * as readline from 'node:readline';
import type { Runtime, ToolIntent } from '../kernel/index.js';

export const NON_INTERACTIVE_REASON = 'not approved (non-interactive)';

export type Approver = (intent: ToolIntent, reason: string, runtime: Runtime) => Promise<void>;

export const rejectAll: Approver = async (intent, _reason, runtime) => {
  runtime.reject(intent.id, NON_INTERACTIVE_REASON);
};

export function terminalApprover(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Approver {
  return async (intent, reason, runtime) => {
    const rl = readline.createInterface({ input, output });
    try {
      for (;;) {
        const answer = (await ask(rl, `Allow ${intent.tool} ${intent.summary}? (${reason}) [y]es / [n]o / [a]lways this task: `)).trim().toLowerCase();
        if (answer === 'y' || answer === 'yes') return void runtime.approve(intent.id, 'once');
        if (answer === 'a' || answer === 'always') return void runtime.approve(intent.id, 'task');
        if (answer === 'n' || answer === 'no') {
          const why = await ask(rl, 'Reason for the model (optional): ');
          return void runtime.reject(intent.id, why.trim());
        }
      }
    } finally {
      rl.close();
    }
  };
}

function ask(rl: readline.Interface, question: string): Promise<string> {
  return new Promise((resolve) => rl.question(question, resolve));
}
