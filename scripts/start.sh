#!/usr/bin/env bash
# `npm start`: builds Keel, installs code-server if needed (scripts/setup-e2e.sh, cached), and
# serves VS Code with Keel on a copy of examples/failing-tests until Ctrl+C.
# Arguments go to scripts/start.ts (--stand-in, --folder <path>); KEEL_PORT fixes the port.
set -euo pipefail
cd "$(dirname "$0")/.."
KEEL_CODE_SERVER=$(bash scripts/setup-e2e.sh | tail -1)
export KEEL_CODE_SERVER
exec node --import=tsx scripts/start.ts "$@"
