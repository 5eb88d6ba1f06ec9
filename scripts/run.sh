#!/usr/bin/env bash
# Command 1: install what is missing, build the console in release mode, and
# open it at http://127.0.0.1:8080 against nks-sim with demo data.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/env.sh
scripts/install-tools.sh

listen="${NKS_LISTEN:-127.0.0.1:8080}"
echo "[run] building the console (release)…"
trunk build --release
echo "[run] building nks-sim…"
cargo build -p nks-sim --quiet

cat <<MSG

  NKS console:  http://${listen}
  API key:      nks-demo-key   (the simulator's demo key)
  Simulator:    demo data; faults on demand at http://${listen}/_sim/faults (see: target/debug/nks-sim --help)
  Stop with Ctrl-C.

MSG
exec target/debug/nks-sim --listen "$listen" --seed demo --time-scale "${NKS_TIME_SCALE:-0.05}" --dist dist "$@"
