// Builds Keel for production and packages it; prints the VSIX path (used by scripts/test.sh so
// the integration and e2e suites share one package). The caller removes its folder. Fails when
// the package holds a file that does not run (see SHIPPED_FILES in scripts/vsix.ts).
//   node --import=tsx scripts/package-vsix.ts [--test-api]
// --test-api: `activate` returns the API the integration tests drive (never ship that one).
import { packageVsix } from './vsix.js';

packageVsix({ keep: true, testApi: process.argv.includes('--test-api') }).then(
  (vsix) => console.log(vsix),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
