// Playwright Test for the end-to-end suite: Debian's Chromium (its headless shell) against nks-sim
// serving the release build (fixtures.mjs starts one simulator per worker).
// Run by scripts/test.sh; one file or a grep with `scripts/test.sh --quick`.
import { defineConfig } from '../../tools/node_modules/@playwright/test/index.mjs';
import { E2E_CHROMIUM, CHROMIUM_FLAGS } from './support/chromium.mjs';

const results = '../../target/e2e';

export default defineConfig({
  testDir: '.',
  testMatch: '*.test.mjs',
  outputDir: `${results}/results`,
  // Each worker has a simulator of its own and every test resets it, so tests
  // of one file may run on either worker.
  fullyParallel: true,
  // Three on a 2-core machine: with two, a fifth of the cores' time went idle
  // while tests waited on the simulator, timers and the network; a third worker
  // fills it (an eighth less time, measured). More add nothing.
  workers: Number(process.env.NKS_E2E_WORKERS || 3),
  // A flaky test is fixed, not retried.
  retries: 0,
  forbidOnly: true,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: `${results}/results.json` }]],
  use: {
    browserName: 'chromium',
    headless: true,
    // Wasm compiled by the baseline compiler only: every test's page compiles
    // the console again, and optimising it in the background takes a core from
    // the other worker for code a test runs for seconds (about 8 % of the
    // suite). Speed is the benchmark's, which runs Chromium as it ships.
    launchOptions: { executablePath: E2E_CHROMIUM, args: [...CHROMIUM_FLAGS, '--js-flags=--no-wasm-tier-up'] },
    viewport: { width: 1280, height: 860 },
    // What a failure keeps, under target/e2e/results/: the trace (DOM
    // snapshots and network, no screencast), a screenshot, and the page's
    // console (fixtures.mjs attaches it).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true },
    screenshot: 'only-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 20_000,
  },
});
