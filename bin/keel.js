#!/usr/bin/env node
// The `keel` command. Built by `npm run build` into dist/cli.js.
try {
  require('../dist/cli.js');
} catch (err) {
  if (err && err.code === 'MODULE_NOT_FOUND' && String(err.message).includes('dist/cli.js')) {
    process.stderr.write('keel: not built yet — run `npm run build` first.\n');
    process.exit(1);
  }
  throw err;
}
