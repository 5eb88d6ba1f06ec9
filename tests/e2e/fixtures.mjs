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
//   open      (path, { width, height, connected, pollMs, deadlineSecs, context, fresh,
//             contextOptions, beforeLoad }) → page; a tab of the worker's shared browser
//             context unless `fresh` (a context and cache of its own: first loads, the
//             page's clock) or `context` (another tab of that one); `beforeLoad(page)`
//             runs before the console's first load (routes, init scripts, listeners)
// and `connect(page)` types the key on the connect screen, for the tests about it.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { test as base, expect } from '../../tools/node_modules/@playwright/test/index.mjs';
import { DEMO_KEY, DIST, ROOT, demoIds, projectIds, startSim } from './support/sim.mjs';

export { expect, DEMO_KEY, DIST, ROOT, startSim };
export { startPortal, seriousViolations } from './support/hosting.mjs';

export const SHOTS = path.join(ROOT, 'target', 'screenshots');
mkdirSync(SHOTS, { recursive: true });

/**
 * A screenshot for a person to look at, under target/screenshots/, by a name
 * unique across files: of the whole page (or only what the viewport shows, with
 * `fullPage: false`), or of one element given as a locator. Taken only when
 * NKS_SHOTS=1 (scripts/test.sh says how): each one asserts nothing and costs
 * about half a second of a core, a minute of the suite in all.
 */
export async function shot(target, name, { fullPage = true } = {}) {
  if (process.env.NKS_SHOTS !== '1') return;
  const isPage = typeof target.goto === 'function';
  await target.screenshot({ path: path.join(SHOTS, `${name}.png`), ...(isPage ? { fullPage } : {}) });
}

/**
 * Holds the page's requests to `url` (as `page.route` matches it), of `method`
 * if given, the first `times` of them, until `release()`: an answer as slow as
 * the test needs, and no slower (never a fixed wait). `held` lists them.
 */
export async function hold(page, url, { method, times = Infinity } = {}) {
  let release;
  const released = new Promise((resolve) => (release = resolve));
  const held = [];
  await page.route(url, async (route) => {
    if ((method && route.request().method() !== method) || held.length >= times) return route.fallback();
    held.push(route.request());
    await released;
    // A request its page gave up meanwhile (a reload) has nothing left to send.
    await route.fallback().catch(() => {});
  });
  return { held, release };
}

/** Types the key on the connect screen and connects, as a person does. */
export async function connect(page, key = DEMO_KEY) {
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Connect' }).click();
}

/**
 * From a cluster's page, as a person does: Add pool, a name, n1-standard-4, one
 * node, Create pool once the plan says it can be done; then the operation's page
 * shows it in flight, the test ends it (`control.finish`) and the console opens
 * the new pool by the operation's resource_id.
 */
export async function createPool(page, control, name) {
  await page.getByRole('link', { name: 'Add pool' }).click();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Instance type').selectOption('n1-standard-4');
  await page.getByLabel('Node count').fill('1');
  await expect(page.getByRole('status').filter({ hasText: 'Availability: can be done.' })).toBeVisible();
  await page.getByRole('button', { name: 'Create pool' }).click();
  await expect(page).toHaveURL((url) => /\/operations\/[^/]+$/.test(url.pathname));
  await expect(page.getByRole('status').filter({ hasText: /Create pool — operation \S+ is (pending|running)/ })).toBeVisible();
  await control.finish({ kind: 'nks_node_pool' });
  await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Nodes' })).toBeVisible();
}

/**
 * In the empty world: a cluster "taken" made (and ended) in the project's one
 * VPC, so Create cluster offers a new VPC. Answers that VPC.
 */
export async function vpcTaken(api, control, projectId) {
  const vpcs = await api('GET', `/v1/networking/vpcs?project_id=${projectId}`);
  expect(vpcs.items).toHaveLength(1);
  const op = await api('POST', '/v1/nks/clusters', {
    name: 'taken',
    project_id: projectId,
    region: 'us-sva-2',
    vpc_id: vpcs.items[0].id,
    kubernetes_version: 'v1.34.4',
    autoscaling: false,
  });
  await control.finish({ id: op.id });
  return vpcs.items[0];
}

/**
 * Create cluster, as a person fills it for cluster "web" (v1.34.4, no
 * autoscaling) in a new VPC "web-vpc" with subnet "web-subnet", in the project
 * `vpcTaken` prepared. Answers the page, the first pool left as offered.
 */
export async function newVpcClusterForm(open, projectId) {
  const page = await open(`/projects/${projectId}/clusters/new`);
  await expect(page.getByLabel('Kubernetes version')).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill('web');
  await page.getByLabel('Kubernetes version').selectOption('v1.34.4');
  await page.getByLabel('VPC name').fill('web-vpc');
  await page.getByLabel('Subnet name').fill('web-subnet');
  await page.getByRole('radio', { name: 'Off' }).check();
  return page;
}

/** Where the page keeps the key for this tab (src/app/session.rs), and the
 *  tracker's test-only items (src/ops/storage.rs). */
const KEY_ITEM = 'nks-console.api-key';
const POLL_ITEM = 'nks-console.poll-ms';
const DEADLINE_ITEM = 'nks-console.deadline-secs';
/** The tab's name once `open` wrote those items (the test's, not the console's). */
const SEEDED_ITEM = 'nks-e2e-seeded';

/** A test's steady poll interval: an operation ended by `control.finish()` is
 *  seen within this. `pollMs: null` keeps the console's own cadence. */
const DEFAULT_POLL_MS = 200;

export const test = base.extend({
  seed: ['demo', { option: true }],
  timeScale: [1, { option: true }],
  autoscaler: [false, { option: true }],
  // `page.requestsMade` ({ url, method, headers } of every request the page
  // makes): on only where a test reads it, since each request then crosses
  // from the browser to the test.
  recordRequests: [false, { option: true }],

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

  // Per worker: the browser context that tests' pages share unless they need one
  // of their own, so the console's content-hashed code (cached for a year, as
  // deploy/ serves it) is fetched and compiled once per worker, not per test.
  // Each test starts it clean (localStorage cleared by its first `open`) and
  // ends with every page of it closed. What would outlive a test in it is
  // refused: such a test opens with `fresh: true`.
  tabs: [
    async ({ browser }, use) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
      const close = context.close.bind(context);
      const refuse = (what) => () => {
        throw new Error(`${what} would outlive this test in the worker's shared browser context: open(…, { fresh: true })`);
      };
      // page.clock is the context's clock.
      context.clock.install = refuse('clock.install');
      context.addInitScript = refuse('context.addInitScript');
      context.route = refuse('context.route');
      context.grantPermissions = refuse('context.grantPermissions');
      context.close = refuse('closing the shared context');
      await use(context);
      await close();
    },
    { scope: 'worker' },
  ],

  open: async ({ browser, sim, tabs, recordRequests }, use, testInfo) => {
    const pages = [];
    const contexts = [];
    let tabsCleaned = false;
    const open = async (where, options = {}) => {
      const {
        width = 1280,
        height = 860,
        connected = true,
        pollMs = DEFAULT_POLL_MS,
        deadlineSecs,
        context: given,
        contextOptions = {},
        fresh = false,
        beforeLoad,
      } = options;
      const url = /^https?:/.test(where) ? where : sim.url + where;
      // Another origin (a host under a prefix, a portal) and any context option
      // get a context of their own, with a cold cache.
      const own = fresh || Object.keys(contextOptions).length > 0 || new URL(url).origin !== sim.url;
      let context = given;
      const created = !context && own;
      if (created) {
        context = await browser.newContext({ viewport: { width, height }, ...contextOptions });
        contexts.push(context);
      }
      context ??= tabs;
      const page = await context.newPage();
      if (!created) await page.setViewportSize({ width, height });
      page.consoleLines = [];
      page.on('console', (msg) => page.consoleLines.push(`${msg.type()}: ${msg.text()}`));
      page.on('pageerror', (err) => page.consoleLines.push(`pageerror: ${err.message}`));
      pages.push(page);
      // The key as the connect screen keeps it (this tab's sessionStorage), and
      // the tracker's test items, written on the console's own origin first.
      const clean = context === tabs && !tabsCleaned;
      const items = {
        clean,
        session: connected ? { [KEY_ITEM]: DEMO_KEY } : {},
        local: {
          ...(pollMs ? { [POLL_ITEM]: String(pollMs) } : {}),
          ...(deadlineSecs ? { [DEADLINE_ITEM]: String(deadlineSecs) } : {}),
        },
      };
      // Written by the tab's first document of the console's origin, before the
      // console's own scripts run, and once: a reload finds what the console
      // itself kept. The tab's name marks it done (not its storage, which tests
      // read whole).
      if (clean || Object.keys(items.session).length + Object.keys(items.local).length > 0) {
        await page.addInitScript(({ origin, seeded, clean, session, local }) => {
          if (location.origin !== origin || window.name === seeded) return;
          window.name = seeded;
          if (clean) localStorage.clear();
          for (const [k, v] of Object.entries(session)) sessionStorage.setItem(k, v);
          for (const [k, v] of Object.entries(local)) localStorage.setItem(k, v);
        }, { origin: new URL(url).origin, seeded: SEEDED_ITEM, ...items });
        if (clean) tabsCleaned = true;
      }
      if (recordRequests) {
        page.requestsMade = [];
        page.on('request', (req) => page.requestsMade.push({ url: req.url(), method: req.method(), headers: req.headers() }));
      } else {
        Object.defineProperty(page, 'requestsMade', {
          get() {
            throw new Error("page.requestsMade is recorded with test.use({ recordRequests: true })");
          },
        });
      }
      if (beforeLoad) await beforeLoad(page);
      await page.goto(url);
      return page;
    };
    await use(open);
    if (testInfo.status !== testInfo.expectedStatus) {
      for (const [i, page] of pages.entries()) {
        await testInfo.attach(`console-${i + 1}.txt`, { body: page.consoleLines.join('\n'), contentType: 'text/plain' });
      }
    }
    for (const page of tabs.pages()) await page.close();
    for (const context of contexts) await context.close();
  },
});
