#!/usr/bin/env bash
# `npm test`: typecheck, unit tests, then (when their harness is present) integration and e2e.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== typecheck"
npx tsc -p . --noEmit
echo "== unit tests"
npx mocha --import=tsx 'test/unit/**/*.test.ts'
