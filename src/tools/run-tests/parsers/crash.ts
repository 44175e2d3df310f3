// The last resort: output that no runner's format matched but that ends in a JavaScript error
// and its stack (a runner that died loading a module, as uvu does on a syntax error): one load
// error with the message, at the stack's first workspace frame when there is one (Node prints
// no location for an ES module's syntax error).
import { firstWorkspaceFrame } from '../locate.js';
import { JS_FRAME, tidy } from '../message-text.js';
import type { OutputParser } from '../test-report.js';

const ERROR_LINE = /^(?:[A-Z]\w*)?Error(?:\[\w+\])?: .+$/m;

export const crashParser: OutputParser = {
  runner: 'js-error',
  detect: (o) => {
    const m = ERROR_LINE.exec(o);
    return m !== null && JS_FRAME.test(o.slice(m.index + m[0].length).split('\n')[1] ?? '');
  },
  parse(output, { root }) {
    const lines = output.split('\n');
    const from = lines.findIndex((l) => ERROR_LINE.test(l));
    const message: string[] = [];
    for (const l of lines.slice(from)) {
      if (JS_FRAME.test(l)) break;
      message.push(l);
    }
    const at = firstWorkspaceFrame(
      lines.slice(from).filter((l) => JS_FRAME.test(l)),
      root,
    );
    return {
      runner: 'js-error',
      passed: 0,
      failed: 0,
      skipped: 0,
      failures: [{ kind: 'load_error', name: 'the test command', ...at, message: tidy(message) }],
    };
  },
};
