#!/usr/bin/env bash
# Command 1: install what is missing, build the console in release mode, and
# open it at http://127.0.0.1:8080 against nks-sim with demo data.
# NKS_LISTEN changes the address, NKS_DIST where the build goes (dist).
#
#   scripts/run.sh [NKS-SIM ARG...]    the simulator, demo data (its --help lists the args)
#   scripts/run.sh --api URL           your own account: Debian's Caddy serves the build
#                                      with the shipped deploy/Caddyfile and forwards /v1
#                                      to URL (e.g. https://api.nirvanalabs.io); no simulator
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/env.sh

api=
sim_args=()
while [ $# -gt 0 ]; do
  case $1 in
    --api) api=${2:?--api needs the API URL, e.g. https://api.nirvanalabs.io}; shift 2 ;;
    --api=*) api=${1#--api=}; shift ;;
    *) sim_args+=("$1"); shift ;;
  esac
done
if [ -n "$api" ] && ! [[ $api =~ ^https?://[^/]+/?$ ]]; then
  echo "[run] --api takes the API's origin, such as https://api.nirvanalabs.io (got: $api)" >&2
  exit 2
fi

scripts/install-tools.sh

listen="${NKS_LISTEN:-127.0.0.1:8080}"
dist=$(realpath -m "${NKS_DIST:-dist}")
echo "[run] building the console (release)…"
trunk build --release --dist "$dist"

if [ -n "$api" ]; then
  # The shipped Caddyfile as it is; what a deployment changes is its environment.
  # The site answers on $listen only; /v1 goes to the API given, with its Host and
  # TLS. Caddy logs no request (no `log` directive) and keeps its own state under
  # target/caddy; the key only passes through, in the Authorization header.
  host=${listen%:*}
  port=${listen##*:}
  mkdir -p target/caddy
  cat <<MSG

  NKS console:  http://${listen}   (and under a prefix: http://localhost:${port}/tools/nks/)
  API:          ${api%/}   (only calls to it leave this machine)
  API key:      your own, typed on the connect screen; kept in this tab only
  Stop with Ctrl-C.

MSG
  exec env \
    HOME="$root/target/caddy" XDG_CONFIG_HOME="$root/target/caddy/config" XDG_DATA_HOME="$root/target/caddy/data" \
    CADDY_ADMIN=off NKS_BIND="$host" \
    NKS_CONSOLE_SITE="http://${listen}" NKS_PORTAL_SITE="http://localhost:${port}" \
    NKS_CONSOLE_ROOT="$dist" NKS_API_UPSTREAM="${api%/}" \
    NKS_CSP_LOADER="$(deploy/csp-hash.sh "$dist/index.html")" \
    caddy run --config deploy/Caddyfile --adapter caddyfile
fi

echo "[run] building nks-sim…"
cargo build -p nks-sim --quiet

cat <<MSG

  NKS console:  http://${listen}
  API key:      nks-demo-key   (the simulator's demo key)
  Simulator:    demo data; faults on demand at http://${listen}/_sim/faults (see: target/debug/nks-sim --help)
  Stop with Ctrl-C.

MSG
exec target/debug/nks-sim --listen "$listen" --seed demo --time-scale "${NKS_TIME_SCALE:-0.05}" --dist "$dist" "${sim_args[@]}"
