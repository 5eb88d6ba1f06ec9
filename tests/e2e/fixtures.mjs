// The end-to-end suite's fixtures, written once. Every test file imports
// `test` and `expect` from here and holds test logic only.
//
// Per worker: one nks-sim on its own port, serving the release build, and
// Playwright's Chromium (Debian's, see playwright.config.mjs).
// Per test: the world reset (`test.use({ seed, timeScale, autoscaler })` picks
// it; the default is the demo seed at the API's own pace, time scale 1, so an
// operation ends when the test says so: `control.finish()` or
// `control.advance(ms)`), and these fixtures:
//   sim       { url, api, control } of the worker's simulator
//   api       (method, route, body) → JSON, with the demo key; `api.send` for any status
//   control   the simulator's test controls (/_sim): finish, advance, fault, requests, …
//   projects  project name → id
//   demo      the demo seed's ids: { project, cluster, baseline, zero }
//   open      (path, { width, height, connected, pollMs, deadlineSecs, context }) → page
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { test as base, expect } from '../../tools/node_modules/@playwright/test/index.mjs';
import { DEMO_KEY, ROOT, demoIds, projectIds, startSim } from './support/sim.mjs';

export { expect, DEMO_KEY, startSim };
export { startHost, startPortal, seriousViolations } from './support/hosting.mjs';

export const SHOTS = path.join(ROOT, 'target', 'screenshots');
mkdirSync(SHOTS, { recursive: true });

/** A full-page screenshot under target/screenshots/, by a name unique across files. */
export async function shot(page, name) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** Where the page keeps the key for this tab (src/app/session.rs), and the
 *  tracker's test-only items (src/ops/storage.rs). */
const KEY_ITEM = 'nks-console.api-key';
const POLL_ITEM = 'nks-console.poll-ms';
const DEADLINE_ITEM = 'nks-console.deadline-secs';

/** A test's steady poll interval: an operation ended by `control.finish()` is
 *  seen within this. `pollMs: null` keeps the console's own cadence. */
const DEFAULT_POLL_MS = 200;

export const test = base.extend({
  seed: ['demo', { option: true }],
  timeScale: [1, { option: true }],
  autoscaler: [false, { option: true }],

  sim: [
    async ({}, use) => {
      const sim = await startSim();
      await use(sim);
      await sim.stop();
    },
    { scope: 'worker', timeout: 30_000 },
  ],

  world: [
    async ({ sim, seed, timeScale, autoscaler }, use) => {
      await sim.control.reset({ seed, timeScale, autoscaler });
      await use({ seed });
    },
    { auto: true },
  ],

  api: async ({ sim }, use) => use(sim.api),
  control: async ({ sim }, use) => use(sim.control),
  projects: async ({ sim, world }, use) => use(await projectIds(sim.api)),
  demo: async ({ sim, world }, use) => use(await demoIds(sim.api)),

  open: async ({ browser, sim }, use, testInfo) => {
    const pages = [];
    const contexts = [];
    const open = async (where, options = {}) => {
      const {
        width = 1280,
        height = 860,
        connected = true,
        pollMs = DEFAULT_POLL_MS,
        deadlineSecs,
        context: shared,
        contextOptions = {},
      } = options;
      let context = shared;
      if (!context) {
        context = await browser.newContext({ viewport: { width, height }, ...contextOptions });
        contexts.push(context);
      }
      const page = await context.newPage();
      if (shared) await page.setViewportSize({ width, height });
      page.consoleLines = [];
      page.requestsMade = [];
      page.on('console', (msg) => page.consoleLines.push(`${msg.type()}: ${msg.text()}`));
      page.on('pageerror', (err) => page.consoleLines.push(`pageerror: ${err.message}`));
      pages.push(page);
      const url = /^https?:/.test(where) ? where : sim.url + where;
      // The key as the connect screen keeps it (this tab's sessionStorage), and
      // the tracker's test items, written on the console's own origin first.
      const items = {
        session: connected ? { [KEY_ITEM]: DEMO_KEY } : {},
        local: {
          ...(pollMs ? { [POLL_ITEM]: String(pollMs) } : {}),
          ...(deadlineSecs ? { [DEADLINE_ITEM]: String(deadlineSecs) } : {}),
        },
      };
      if (Object.keys(items.session).length + Object.keys(items.local).length > 0) {
        await page.goto(new URL('/config.json', url).href);
        await page.evaluate(({ session, local }) => {
          for (const [k, v] of Object.entries(session)) sessionStorage.setItem(k, v);
          for (const [k, v] of Object.entries(local)) localStorage.setItem(k, v);
        }, items);
      }
      page.on('request', (req) => page.requestsMade.push({ url: req.url(), method: req.method(), headers: req.headers() }));
      await page.goto(url);
      return page;
    };
    await use(open);
    if (testInfo.status !== testInfo.expectedStatus) {
      for (const [i, page] of pages.entries()) {
        await testInfo.attach(`console-${i + 1}.txt`, { body: page.consoleLines.join('\n'), contentType: 'text/plain' });
      }
    }
    for (const context of contexts) await context.close();
  },
});
