#!/usr/bin/env bash
# The benchmark: size, cold load, 1,000-pool render, polling cost and memory,
# measured in one run against nks-sim. `--quick` checks size and polling cost only.
# Prints a table, writes target/bench.json, exits non-zero when a budget is missed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/env.sh
scripts/install-tools.sh
trunk build --release
cargo build -p nks-sim --quiet
exec node tests/bench/bench.mjs "$@"
