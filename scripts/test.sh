#!/usr/bin/env bash
# `npm test`: typecheck; lint; scripts/setup-e2e.sh installs (or finds cached) ripgrep, strace, redis-server, Chromium and
# code-server; unit tests; then the real-VS-Code suites: integration tests (inside the extension
# host) and end-to-end tests (a real browser on the workbench).
# KEEL_SKIP_E2E=1 skips the setup and stops after the unit tests.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { echo; echo "== $1 ($(date +%T))"; }

step "typecheck: tests and scripts, then src (Node, no DOM) and media (DOM, no Node) alone"
npm run --silent typecheck
step "lint: biome (rules and format) and knip (unused files, exports, dependencies)"
npm run --silent lint
if [ "${KEEL_SKIP_E2E:-}" != 1 ]; then
  step "setup: ripgrep, strace, chromium, code-server"
  start=$SECONDS
  KEEL_CODE_SERVER=$(bash scripts/setup-e2e.sh | tail -1)
  export KEEL_CODE_SERVER
  echo "setup took $((SECONDS - start))s"
fi

step "unit tests"
npx mocha --import=tsx 'test/unit/**/*.test.ts'
[ "${KEEL_SKIP_E2E:-}" = 1 ] && exit 0

# Package Keel once for both suites: a test build, since the integration tests drive its test API.
step "package Keel (test build)"
KEEL_VSIX=$(node --import=tsx scripts/package-vsix.ts --test-api | tail -1)
export KEEL_VSIX
trap 'rm -rf "$(dirname "$KEEL_VSIX")"' EXIT

step "integration tests"
node --import=tsx test/integration/run.ts
step "end-to-end tests"
npx mocha --import=tsx --timeout 300000 --slow 60000 'test/e2e/**/*.e2e.test.ts'
