#!/usr/bin/env bash
# Command 2: install what is missing and run every check and test:
# formatting, clippy (native and wasm32, warnings denied), native tests,
# wasm-bindgen-test in headless Chromium, and the end-to-end tests in real
# Chromium against nks-sim serving the release build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/env.sh
scripts/install-tools.sh

step() { printf '\n== %s ==\n' "$*"; }
start=$(date +%s)

step "format"
cargo fmt --all -- --check

step "clippy (native)"
cargo clippy --workspace --all-targets --quiet -- -D warnings

step "clippy (wasm32)"
cargo clippy -p nks-console --target wasm32-unknown-unknown --lib --bins --tests --quiet -- -D warnings

step "native tests (rules, wire types, simulator)"
cargo test --workspace --quiet

step "browser tests (wasm-bindgen-test, headless Chromium)"
cargo test -p nks-console --target wasm32-unknown-unknown --test browser --test browser_ops

step "release build"
trunk build --release
cargo build -p nks-sim --quiet

step "end-to-end tests (Chromium against nks-sim)"
node --test --test-concurrency=1 tests/e2e/

# The benchmark's quick mode checks two budgets on every run: a new user's
# first-load transfer (308 KB gzipped) and polling cost (requests per minute, flat in
# the number of operations). The full run (scripts/bench.sh) adds the timings.
step "benchmark: size and polling cost"
node tests/bench/bench.mjs --quick

echo
echo "All checks passed in $(( $(date +%s) - start )) s. Screenshots: target/screenshots/"
