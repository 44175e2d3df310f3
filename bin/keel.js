#!/usr/bin/env node
// The `keel` command. Built by `npm run build` into dist/: `--help` is answered by the small
// dist/cli-help.js alone (src/cli/help.ts), everything else by the whole CLI, dist/cli.js.
try {
  if (!require('../dist/cli-help.js').printHelpIfAsked(process.argv.slice(2))) require('../dist/cli.js');
} catch (err) {
  if (err && err.code === 'MODULE_NOT_FOUND' && /dist\/cli(-help)?\.js/.test(String(err.message))) {
    process.stderr.write('keel: not built yet — run `npm run build` first.\n');
    process.exit(1);
  }
  throw err;
}
