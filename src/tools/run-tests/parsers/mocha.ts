// mocha's spec reporter: "N passing / N failing / N pending", then numbered failure blocks
// whose title spans lines until one ending in ":", the error, and its stack. A file that fails
// to load aborts the whole run with "Exception during run: " and Node's printout of the error
// (an ES module's syntax error comes as "SyntaxError[ @/abs/file.mjs ]: message", without line).
import { firstWorkspaceFrame, relativeTo } from '../locate.js';
import { JS_FRAME, messageText } from '../message-text.js';
import { countsFrom, type OutputParser, type TestFailure } from '../test-report.js';
import { nodeLoadError } from './node-crash.js';

const EXCEPTION = /^\s*Exception during run: (.*)$/;

export const mochaParser: OutputParser = {
  runner: 'mocha',
  detect: (o) => /^\s+\d+ (passing|failing) ?(\(|$)/m.test(o) || /^\s*Exception during run: /m.test(o),
  parse(output, { root }) {
    const lines = output.split('\n');
    const exception = lines.findIndex((l) => EXCEPTION.test(l));
    const failures: TestFailure[] = exception >= 0 ? [loadError(lines.slice(exception), root)] : [];
    const summaryAt = output.search(/^ +\d+ passing/m);
    const tail = summaryAt >= 0 ? output.slice(summaryAt) : '';
    const summary = tail.split('\n').slice(0, 4).join('\n');
    for (const block of tail.split(/^ {2}(?=\d+\) )/m).slice(1)) {
      const failure = parseBlock(block, root);
      if (failure) failures.push(failure);
    }
    const { passed, failed, skipped } = countsFrom(summary);
    return { runner: 'mocha', passed, failed, skipped, failures };
  },
};

function parseBlock(block: string, root: string): TestFailure | undefined {
  const lines = block.split('\n');
  const first = /^\d+\) (.*)$/.exec(lines[0]!);
  if (!first) return undefined;
  const title = [first[1]!.trim()];
  let i = 1;
  while (!title[title.length - 1]!.endsWith(':') && i < lines.length && lines[i]!.trim() !== '') title.push(lines[i++]!.trim());
  const name = title.join(' > ').replace(/:$/, '');
  const rest = lines.slice(i);
  const where = firstWorkspaceFrame(
    rest.filter((l) => JS_FRAME.test(l)),
    root,
  );
  // mocha indents the error's first line but not the lines of its message that follow.
  return { kind: 'test_failure', name, ...where, message: messageText(rest).trimStart() };
}

function loadError(lines: readonly string[], root: string): TestFailure {
  const first = EXCEPTION.exec(lines[0]!)![1]!;
  const esm = /^(\w+)\[ @(\S+) \]: (.*)$/.exec(first);
  if (esm) {
    const file = relativeTo(esm[2]!, root);
    return { kind: 'load_error', name: file, file, message: `${esm[1]}: ${esm[3]}` };
  }
  const failure = nodeLoadError([first, ...lines.slice(1)], '', root);
  return { ...failure, name: failure.file ?? 'mocha' };
}
