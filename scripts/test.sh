#!/usr/bin/env bash
# Command 2: install what is missing and run every check and test:
# formatting, clippy (native and wasm32, warnings denied), native tests,
# wasm-bindgen-test in headless Chromium, and the end-to-end tests (Playwright
# Test) in real Chromium against nks-sim serving the release build.
#
#   scripts/test.sh                      everything (CI runs this)
#   scripts/test.sh --quick [ARG...]     the inner loop: format, clippy (native),
#                                        native tests, then the end-to-end tests
#                                        ARGs pick: a file (operations.test.mjs)
#                                        or -g 'a grep'; none runs them all
#   NKS_SHOTS=1 scripts/test.sh …        also keep the screenshots the end-to-end
#                                        tests take for a person to look at
#
# It ends with each step's duration, the budgets, and one line of its own:
# "N passed, N failed".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/env.sh

quick=0
e2e_args=()
if [ "${1:-}" = --quick ]; then
  quick=1
  shift
  e2e_args=("$@")
fi

# Budgets, in seconds, on this machine kind (2 cores): the whole command with
# tools installed, the end-to-end step alone, and a fresh machine's first run.
# They are printed with a verdict after every full run; a time over its budget
# does not fail the run (a busy or slower runner would fail main for nothing in
# the code), the benchmark's size and polling budgets do.
BUDGET_TOTAL=900
BUDGET_E2E=360
BUDGET_FRESH=1800

mkdir -p target
started=$(date +%s)
steps=()
step_name=
step_start=0
passed=0
failed=0
counts=()

finish_step() {
  [ -n "$step_name" ] && steps+=("$(($(date +%s) - step_start))|$step_name")
  step_name=
}
step() {
  finish_step
  step_name=$*
  step_start=$(date +%s)
  printf '\n== %s ==\n' "$*"
}

# Test counts from cargo's and wasm-bindgen-test's "test result:" lines.
count_cargo() {
  local label=$1 file=$2 p f
  p=$(grep -Eo 'test result: [A-Za-z]+\. [0-9]+ passed' "$file" | awk '{s += $4} END {print s + 0}')
  f=$(grep -Eo '[0-9]+ failed' "$file" | awk '{s += $1} END {print s + 0}')
  passed=$((passed + p))
  failed=$((failed + f))
  counts+=("$label $p")
}

# The end-to-end counts from Playwright's JSON report.
count_e2e() {
  local report=target/e2e/results.json p f
  [ -f "$report" ] || return 0
  read -r p f < <(node -e '
    const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).stats;
    console.log(s.expected + s.flaky, s.unexpected);' "$report")
  passed=$((passed + p))
  failed=$((failed + f))
  counts+=("end-to-end $p")
}

# Waits for a step started in the background (its pid, its log), shows what it
# printed, and answers its status, as the step would have in the foreground.
join_background() {
  local status=0
  wait "$1" || status=$?
  cat "$2"
  return "$status"
}

# A process and all of its descendants (the background build: trunk, cargo, rustc).
kill_tree() {
  local child
  for child in $(pgrep -P "$1"); do kill_tree "$child"; done
  kill "$1" 2>/dev/null || true
}

report() {
  local status=$?
  [ -n "${build_pid:-}" ] && kill_tree "$build_pid"
  [ -n "${bench_pid:-}" ] && kill_tree "$bench_pid"
  finish_step
  local total=$(($(date +%s) - started)) install=0 e2e=0 line secs name
  echo
  echo "Step durations:"
  for line in "${steps[@]}"; do
    secs=${line%%|*}
    name=${line#*|}
    printf '  %5d s  %s\n' "$secs" "$name"
    case $name in
      install*) install=$secs ;;
      end-to-end*) e2e=$secs ;;
    esac
  done
  printf '  %5d s  total\n' "$total"
  if [ "$quick" = 0 ] && [ "$status" = 0 ]; then
    echo "Budgets:"
    budget() {
      local what=$1 secs=$2 limit=$3 mark=ok
      [ "$secs" -le "$limit" ] || mark=OVER
      printf '  %-34s %5d s of %5d s  %s\n' "$what" "$secs" "$limit" "$mark"
    }
    budget "the command, tools installed" $((total - install)) "$BUDGET_TOTAL"
    budget "the end-to-end step" "$e2e" "$BUDGET_E2E"
    budget "a fresh machine, installs included" "$total" "$BUDGET_FRESH"
  fi
  echo
  echo "$passed passed, $failed failed${counts:+ ($(IFS=,; echo "${counts[*]}" | sed 's/,/, /g'))}"
  exit "$status"
}
trap report EXIT

step "install (tools missing from this machine)"
scripts/install-tools.sh

step "format"
cargo fmt --all -- --check

# The release build runs beside the steps from here to its own: most of its time
# is one crate's optimised compile and link in one codegen unit, on one core,
# which leaves the other core to the checks. Its output is shown at its step.
build_pid=
if [ "$quick" = 0 ]; then
  trunk build --release >target/release-build.log 2>&1 &
  build_pid=$!
fi

# Clippy lints as the tests are built, in one compile: scripts/lint-rustc
# (clippy-driver, warnings denied) compiles this workspace's crates, as `cargo
# clippy` would check them, and the registry's crates are compiled once, not
# once for clippy's check and again for the tests. Only on these commands: the
# release build, the simulator the end-to-end tests run and scripts/run.sh
# build with rustc itself, and the registry's crates are shared by both.
lint=(env RUSTC_WORKSPACE_WRAPPER="$root/scripts/lint-rustc")
wasm=(--target wasm32-unknown-unknown)

step "clippy and build (native)"
"${lint[@]}" cargo test --workspace --all-targets --no-run --quiet

if [ "$quick" = 0 ]; then
  step "clippy and build (wasm32)"
  # The lib's own unit tests are the rules' (no browser code), linted and run
  # by the native step; here the browser code, the binary and the browser tests.
  "${lint[@]}" cargo test -p nks-console "${wasm[@]}" --bins --test browser --test browser_ops --no-run --quiet
fi

step "native tests (rules, wire types, simulator)"
"${lint[@]}" cargo test --workspace --quiet 2>&1 | tee target/native-tests.log
count_cargo native target/native-tests.log

if [ "$quick" = 0 ]; then
  step "browser tests (wasm-bindgen-test, headless Chromium)"
  "${lint[@]}" cargo test -p nks-console "${wasm[@]}" --test browser --test browser_ops 2>&1 | tee target/browser-tests.log
  count_cargo browser target/browser-tests.log
fi

step "release build (split, reused when the wasm is unchanged)"
if [ -n "$build_pid" ]; then
  pid=$build_pid build_pid=
  join_background "$pid" target/release-build.log
else
  trunk build --release
fi
cargo build -p nks-sim --quiet

# The benchmark's quick mode checks on every run: the cap on a new user's
# first-load transfer (gzipped) and polling cost (requests per minute, flat in
# the number of operations). Both are counts, not times, and most of its minute
# is spent waiting out its polling window on the browser's timers, so it runs
# beside the end-to-end tests; its output is shown at its step. The full run
# (scripts/bench.sh) adds the timings, alone on the machine.
bench_pid=
if [ "$quick" = 0 ]; then
  node tests/bench/bench.mjs --quick >target/bench-quick.log 2>&1 &
  bench_pid=$!
fi

step "end-to-end tests (Playwright Test, Chromium against nks-sim)"
rm -rf target/e2e
e2e_status=0
playwright test -c tests/e2e/playwright.config.mjs "${e2e_args[@]}" || e2e_status=$?
count_e2e
[ "$e2e_status" = 0 ]

if [ -n "$bench_pid" ]; then
  step "benchmark: size and polling cost (run beside the end-to-end tests)"
  pid=$bench_pid bench_pid=
  join_background "$pid" target/bench-quick.log
fi
echo
if [ "${NKS_SHOTS:-}" = 1 ]; then
  echo "Screenshots: target/screenshots/; failures keep a trace, a screenshot and the console under target/e2e/results/"
else
  echo "Failures keep a trace, a screenshot and the console under target/e2e/results/; NKS_SHOTS=1 also keeps the screenshots to look at, in target/screenshots/"
fi
