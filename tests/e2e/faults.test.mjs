// Faults, end to end: with nks-sim's fault controls (429 with its wait headers,
// 5xx bursts, a stopped API, 409, a failing page, malformed JSON, dropped and
// slow answers), the console waits as told, keeps everything it was following,
// never shows a shorter or empty list for a failure, and names the right outcome.
// (Failed and `unknown` operations: tests/e2e/operations.test.mjs.)
// Operations run at the API's own pace and end when a test says so
// (`control.finish`), once the console has been seen following them.
import { test, expect, shot, hold, startSim, DEMO_KEY } from './fixtures.mjs';

const clusterPath = (demo) => `/projects/${demo.project}/clusters/${demo.cluster}`;
const poolPath = (demo) => `${clusterPath(demo)}/pools/${demo.baseline}`;

const scaleBaseline = (api, demo, count) =>
  api('PATCH', `/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}`, { node_count: count });

/**
 * Records every request the page makes from now on, with when it went out: the
 * browser's own time of sending (read once it has been answered), not when the
 * event reached this process, which lags by a varying 50 to 100 ms on a busy machine.
 */
function timedRequests(page) {
  const timed = [];
  page.on('request', (r) => timed.push({ get at() { return r.timing().startTime; }, method: r.method(), url: new URL(r.url()) }));
  return timed;
}

/** The .wasm files the page fetched to the end from now on, by name without their hash. */
function wasmFetched(page) {
  const files = [];
  page.on('requestfinished', (r) => {
    const file = new URL(r.url()).pathname.split('/').pop();
    if (file.endsWith('.wasm')) files.push(file.replace(/-[0-9a-f]{16}/, ''));
  });
  return files;
}

/** Timestamps of the cluster-list requests (the page's own list call). */
const clusterListCalls = (timed) =>
  timed.filter((r) => r.method === 'GET' && r.url.pathname === '/v1/nks/clusters').map((r) => r.at);

const inFlight = (page, n) => page.getByRole('link', { name: n === 1 ? '1 operation in flight' : `${n} operations in flight` });
const notice = (page, text) => page.getByRole('status').filter({ hasText: text });

async function expectTemporaryAfterRetries(page) {
  const alert = page.getByRole('alert').filter({ hasText: 'Temporary: the request is fine, try later.' });
  await expect(alert).toContainText('List clusters answered 429');
  await expect(alert).not.toHaveText(/fix it|fix your request/i);
  await expect(page.getByText('No clusters in this project yet.'), 'never an empty list').toHaveCount(0);
}

for (const variant of [
  { name: 'Retry-After in seconds', headers: { retry_after: '2' }, minGap: 2000 },
  { name: 'Retry-After-Ms (which wins over Retry-After)', headers: { retry_after: '9', retry_after_ms: '1500' }, minGap: 1500, maxGap: 8000 },
]) {
  test(`a 429 with ${variant.name} is waited out, then reads as temporary, never as "fix it"`, async ({ control, demo, open }) => {
    const page = await open(`/projects/${demo.project}/clusters`);
    await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
    await control.fault({
      match: { method: 'GET', path: '/v1/nks/clusters' },
      count: 3, // the first attempt and both retries
      action: { type: 'status', status: 429, message: 'slow down', ...variant.headers },
    });
    try {
      const timed = timedRequests(page);
      await page.reload();
      await expectTemporaryAfterRetries(page);
      const at = clusterListCalls(timed);
      expect(at.length, 'one attempt and two retries, no more').toBe(3);
      for (let i = 1; i < at.length; i++) {
        const gap = at[i] - at[i - 1];
        expect(gap, `retry ${i} came after ${gap} ms, before the ${variant.minGap} ms asked`).toBeGreaterThanOrEqual(variant.minGap - 30);
        if (variant.maxGap) expect(gap, `retry ${i} waited ${gap} ms: Retry-After-Ms should win`).toBeLessThan(variant.maxGap);
      }
      await shot(page, 'fault-429');
    } finally {
      await control.clearFaults();
    }
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('link', { name: 'edge-prod' })).toBeVisible();
  });
}

test('a sustained 429 shows one state at a time: never "retrying in N s" beside "try later", never two retry buttons', async ({ control, demo, open }) => {
  const page = await open(`/projects/${demo.project}/clusters`);
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  await control.fault({
    match: { method: 'GET', path_prefix: '/v1/' },
    action: { type: 'status', status: 429, message: 'slow down', retry_after: '2' },
  });
  const retrying = page.locator('.retry-wait');
  const tryLater = page.getByRole('alert').filter({ hasText: 'Temporary: the request is fine, try later.' });
  const buttons = page.getByRole('button', { name: /^Retry( now)?$/ });
  try {
    await page.reload();
    // Every state the page passes through is checked as it is drawn: an observer
    // of the page's changes records any moment that shows two states at once.
    await page.evaluate(() => {
      window.__twoStates = [];
      const check = () => {
        const retrying = !!document.querySelector('.retry-wait');
        const tryLater = [...document.querySelectorAll('[role=alert]')].some((e) => e.textContent.includes('Temporary: the request is fine'));
        const buttons = [...document.querySelectorAll('button')].filter((b) => /^Retry( now)?$/.test(b.textContent.trim())).length;
        if (retrying && tryLater) window.__twoStates.push('"retrying in N s" beside "try later"');
        if (buttons > 1) window.__twoStates.push(`${buttons} retry buttons`);
      };
      new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
      check();
    });
    // The client's retry waits (2 s each, as the API asks) run on browser timers: the
    // test waits for what a person sees, the list's failure waiting with the others.
    const joined = page.getByRole('status').filter({ hasText: 'Not read yet' });
    await expect(joined, 'the failed list says what is not read yet').toBeVisible({ timeout: 30_000 });
    await expect(joined).toContainText('List clusters answered 429');
    await expect(retrying).toBeVisible();
    // The wait is said once: the list's place is a line of text, not a second box.
    await expect(page.locator('.alert:visible'), 'one box: the shell\'s "retrying in N s"').toHaveCount(1);
    await expect(joined).not.toHaveClass(/alert/);
    expect(await page.evaluate(() => window.__twoStates), 'one state at a time').toEqual([]);
    await expect(page.getByText('No clusters in this project yet.'), 'never an empty list').toHaveCount(0);
    await shot(page, 'fault-429-sustained');
  } finally {
    await control.clearFaults();
  }
  // Over: one button brings the list back.
  await buttons.first().click();
  await expect(page.getByRole('link', { name: 'edge-prod' })).toBeVisible();
  await expect(retrying).toHaveCount(0);
  await expect(tryLater).toHaveCount(0);
});

test('the project selector reads the projects again once a sustained 429 is lifted, without a reload', async ({ control, demo, open }) => {
  await control.fault({
    match: { method: 'GET', path: '/v1/projects' },
    action: { type: 'status', status: 429, message: 'slow down', retry_after: '1' },
  });
  const page = await open(`/projects/${demo.project}/clusters`);
  const selector = page.getByLabel('Project');
  try {
    // The client's own retries spent (each waits the second the API asks), the read fails.
    await expect(selector.locator('option', { hasText: 'Projects unavailable' })).toBeAttached({ timeout: 30_000 });
    await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
    await shot(page, 'projects-unavailable');
  } finally {
    await control.clearFaults();
  }
  // Read again when the API's wait ends: the selector comes back by itself.
  await expect(selector.locator('option:checked')).toHaveText('Production');
  await expect(selector.locator('option', { hasText: 'Projects unavailable' })).toHaveCount(0);
});

test('a 429 with Retry-After as an HTTP date is not retried before that date', async ({ control, demo, open }) => {
  const page = await open(`/projects/${demo.project}/clusters`);
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  // Whole seconds only: the date is at least 2 s ahead when the answer is sent.
  const notBefore = (Math.floor(Date.now() / 1000) + 3) * 1000;
  await control.fault({
    match: { method: 'GET', path: '/v1/nks/clusters' },
    count: 3,
    action: { type: 'status', status: 429, retry_after: new Date(notBefore).toUTCString() },
  });
  try {
    const timed = timedRequests(page);
    await page.reload();
    await expectTemporaryAfterRetries(page);
    const at = clusterListCalls(timed);
    expect(at.length).toBe(3);
    for (const t of at.slice(1)) expect(t, `a retry went out ${notBefore - t} ms before the date`).toBeGreaterThanOrEqual(notBefore - 30);
  } finally {
    await control.clearFaults();
  }
});

test('a burst of 5xx while polling shows the condition in the header, backs off, and recovers by itself', async ({ api, control, demo, open }) => {
  // A pool update takes 2 minutes: in flight until the test ends it.
  const op = await scaleBaseline(api, demo, 4);
  const page = await open(clusterPath(demo));
  const timed = timedRequests(page);
  await expect(inFlight(page, 1)).toBeVisible();
  await control.fault({ match: { method: 'GET', path_prefix: '/v1/operations' }, count: 6, action: { type: 'status', status: 503, message: 'overloaded' } });
  const condition = page.locator('.ops-condition');
  await expect(condition).toHaveText(/Temporary: the request is fine, try later\. Still following; retrying with backoff\./);
  await shot(page, 'fault-5xx-polling');
  // Nobody clicks anything: the fault runs out and polling recovers. The polls that
  // meet it back off (2 s, then 4 s, each poll retried twice within): longer than
  // the default wait.
  await expect(condition).toHaveCount(0, { timeout: 30_000 });
  await expect(inFlight(page, 1)).toBeVisible();
  // Still followed: the operation's end is seen.
  await control.finish({ id: op.id });
  await expect(notice(page, 'Update pool: done.')).toBeVisible();
  // Backoff: the polls that met the fault are spread further apart than the first ones.
  const polls = timed.filter((r) => r.url.pathname === `/v1/operations/${op.id}`).map((r) => r.at);
  const gaps = polls.slice(1).map((t, i) => t - polls[i]);
  expect(Math.max(...gaps), `no backed-off gap among ${gaps.join(', ')}`).toBeGreaterThanOrEqual(1900);
  expect((await api('GET', `/v1/operations/${op.id}`)).status).toBe('done');
});

test('the API going away mid-operation: "Cannot reach the API", nothing forgotten, tracking resumes when it is back', async ({ open }) => {
  // A sim of its own, stopped and restarted on the same port with the same seed:
  // ids are deterministic, so the same request sequence recreates the same operation.
  let own = await startSim();
  const port = new URL(own.url).port;
  try {
    const mine = await ownDemoIds(own);
    const scale = () => own.api('PATCH', `/v1/nks/clusters/${mine.cluster}/pools/${mine.baseline}`, { node_count: 4 });
    const op = await scale();
    const page = await open(`${own.url}/projects/${mine.project}/clusters/${mine.cluster}`);
    await expect(inFlight(page, 1)).toBeVisible();
    const saved = () => page.evaluate(() => localStorage.getItem('nks-console.operations'));
    await expect.poll(saved).toContain(op.id);

    await own.stop();
    const condition = page.locator('.ops-condition');
    await expect(condition.filter({ hasText: 'Cannot reach the API.' })).toBeVisible();
    await shot(page, 'fault-api-down');
    // Down, the console forgets nothing: the operation, the key, the page.
    expect(await saved(), 'operation id kept in localStorage').toContain(op.id);
    expect(await page.evaluate(() => sessionStorage.getItem('nks-console.api-key'))).toBe(DEMO_KEY);
    await expect(page.getByRole('heading', { name: 'Connect to Nirvana NKS' }), 'not logged out').toHaveCount(0);
    await expect(inFlight(page, 1)).toBeVisible();
    await expect(page.getByText('Temporary: the request is fine')).toHaveCount(0);

    own = await startSim({ port });
    const again = await scale();
    expect(again.id, 'same seed, same requests: same operation id').toBe(op.id);
    // The next poll comes when the backoff says (it doubles with each failed poll,
    // up to 30 s): longer than the default wait.
    await expect(condition).toHaveCount(0, { timeout: 40_000 });
    await expect(inFlight(page, 1)).toBeVisible();
    await own.control.finish({ id: op.id });
    await expect(notice(page, 'Update pool: done.')).toBeVisible();
    await expect(inFlight(page, 0)).toBeVisible();
  } finally {
    await own.stop();
  }
});

test('when the API goes away, the cluster page keeps its header as last read, with the failure beside it, as its pools do', async ({ control, demo, context, open }) => {
  // The page reads the cluster and its pools again every 15 s, on this tab's
  // clock: the test's, moved on to the next refresh instead of waited out.
  await context.clock.install();
  const page = await open(clusterPath(demo), { context });
  const fields = page.locator('.fields');
  await expect(page.getByRole('heading', { name: 'edge-prod', exact: true })).toBeVisible();
  await expect(fields.getByText('v1.34.4')).toBeVisible();
  const header = page.getByRole('group', { name: 'Cluster refresh stopped' });
  try {
    await control.fault({ match: { method: 'GET', path_prefix: '/v1/' }, action: { type: 'drop' } });
    await page.clock.fastForward(15_000);
    await expect(header, 'the header says its refresh failed').toBeVisible({ timeout: 30_000 });
    await expect(header).toContainText('What is shown is what was read before; it may be out of date.');
    await expect(header.getByRole('alert')).toContainText('Cannot reach the API');
    // What was read stays: the name, the status and the fields, as the pools keep theirs.
    await expect(page.getByRole('heading', { name: 'edge-prod', exact: true })).toBeVisible();
    await expect(fields.getByText('v1.34.4')).toBeVisible();
    await expect(page.getByRole('group', { name: 'Refresh stopped', exact: true })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Pools' })).toBeVisible();
    await shot(page, 'fault-cluster-header-kept');
  } finally {
    await control.clearFaults();
  }
  await header.getByRole('button', { name: 'Retry' }).click();
  await expect(header).toHaveCount(0);
  await expect(fields.getByText('v1.34.4')).toBeVisible();
});

test('a cluster page opened while the API drops every read recovers all of it once the API is back, without a reload', async ({ control, demo, context, open }) => {
  // The kept reads (instance types, VPC names, recent operations, projects) are
  // read again on the 15 s refresh, on this tab's clock: the test's, moved on.
  await context.clock.install();
  await control.fault({ match: { method: 'GET', path_prefix: '/v1/' }, action: { type: 'drop' } });
  let page;
  try {
    page = await open(clusterPath(demo), { context });
    await expect(page.getByRole('alert').filter({ hasText: 'Cannot reach the API' }).first()).toBeVisible({ timeout: 30_000 });
  } finally {
    await control.clearFaults();
  }
  await page.clock.fastForward(15_000);
  const figures = page.getByRole('list', { name: 'Capacity and cost' });
  await expect(page.getByRole('heading', { name: 'edge-prod', exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(figures.locator('li').filter({ hasText: 'vCPU' })).toHaveText(/^vCPU \d/);
  await expect(figures.locator('li').filter({ hasText: 'Memory' })).toHaveText(/^Memory \d/);
  await expect(figures).not.toContainText('could not be read');
  await expect(page.locator('.fields').getByRole('link', { name: 'prod-vpc', exact: true })).toBeVisible();
  await expect(page.locator('.fields')).toContainText('Production');
  await expect(page.getByRole('list', { name: 'Recent operations' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await shot(page, 'fault-cluster-page-recovered');
});

/** The demo world's ids, read from a simulator of the test's own. */
async function ownDemoIds(target) {
  const production = (await target.api('GET', '/v1/projects')).items.find((p) => p.name === 'Production');
  const cluster = (await target.api('GET', `/v1/nks/clusters?project_id=${production.id}`)).items.find((c) => c.name === 'edge-prod');
  const pools = (await target.api('GET', `/v1/nks/clusters/${cluster.id}/pools`)).items;
  return { project: production.id, cluster: cluster.id, baseline: pools.find((p) => p.name === 'baseline').id };
}

/**
 * On the baseline pool's edit page (open in `page`): types a tag, lets someone
 * else start an operation on the pool after the page was checked, saves, and
 * waits for the 409's alert. Returns the alert and their operation (in flight:
 * a pool update takes 2 minutes).
 */
async function saveIntoConflict(page, api, demo) {
  await page.getByLabel('Tags').fill('conflict');
  const save = page.getByRole('button', { name: 'Save' });
  await expect(save).toBeEnabled();
  const theirs = await scaleBaseline(api, demo, 4);
  await save.click();
  const alert = page.getByRole('alert').filter({ hasText: 'another operation is running on this resource' });
  await expect(alert).toBeVisible();
  return { alert, theirs };
}

test('a 409 on a save says another operation is running and shows the one in the way', async ({ api, demo, open }) => {
  const page = await open(`${poolPath(demo)}/edit`);
  const { alert, theirs } = await saveIntoConflict(page, api, demo);
  // The lookup of the operation in the way is its own module (src/app/lazy.rs):
  // its line arrives just after the alert.
  await expect(alert.getByText(`Operation in the way: ${theirs.id}`)).toBeVisible();
  await expect(alert).toHaveText(/^Temporary: the request is fine, try later\./);
  await expect(alert).toContainText(`Operation in the way: ${theirs.id}`);
  await shot(page, 'fault-409');
  const link = alert.getByRole('link', { name: 'Show it on the operations page' });
  await link.click();
  await expect(page.getByRole('table', { name: 'Operations' })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === `/projects/${demo.project}/operations`);
  await expect(page).toHaveURL((url) => url.searchParams.get('resource') === demo.baseline);
  await expect(page.getByRole('table', { name: 'Operations' }).getByRole('row').filter({ hasText: 'node_count: 3 → 4' })).toBeVisible();
});

test('the first screen needs the main module only, key or no key; the operation a 409 names loads on first use', async ({ api, sim, demo, open }) => {
  // What each page fetches is recorded from the console's first load on, as a
  // new visitor's (`fresh`: a cold cache).
  // No key kept: the connect screen is in the main module (src/app/lazy.rs says why).
  let before;
  const first = await open(`/projects/${demo.project}/clusters`, { connected: false, fresh: true, beforeLoad: (p) => (before = wasmFetched(p)) });
  await expect(first.getByLabel('API key')).toBeVisible();
  await first.waitForLoadState('networkidle');
  expect(before).toEqual(['nks-console_bg.wasm']);
  await first.close();

  // A key kept for the tab: the cluster list needs the main module only (its
  // capacity columns' code comes once it is drawn: capacity.test.mjs).
  let wasm;
  const page = await open(`/projects/${demo.project}/clusters?figures=off`, { fresh: true, beforeLoad: (p) => (wasm = wasmFetched(p)) });
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(wasm).toEqual(['nks-console_bg.wasm']);

  // The capacity columns' code not arriving: the row says so across their
  // cells, keeps its other columns, and offers a retry.
  let refuseFigures = true;
  await page.route(/\/split_cluster_figures_part-[0-9a-f]{16}\.wasm$/, (route) => (refuseFigures ? route.abort('connectionfailed') : route.continue()));
  await page.goto(`${sim.url}/projects/${demo.project}/clusters?figures=on`);
  const row = page.getByRole('table', { name: 'Clusters' }).getByRole('row').filter({ has: page.getByRole('link', { name: 'edge-prod', exact: true }) });
  const failed = row.getByRole('cell').filter({ hasText: 'This part of the page could not be loaded' });
  await expect(failed).toHaveAttribute('colspan', '4');
  await expect(row.getByRole('cell').filter({ hasText: 'v1.34.4' })).toBeVisible();
  await shot(page, 'clusters-figures-code-failed');
  refuseFigures = false;
  await failed.getByRole('button', { name: 'Try again' }).click();
  await expect(row.getByRole('cell').filter({ hasText: /^\$[\d,]+\.\d+/ })).toBeVisible();
  await expect(failed).toHaveCount(0);

  // The lookup of an operation a 409 names is its own module; if it does not
  // arrive, the error is still told in full and the part offers a retry.
  let refuse = true;
  await page.route(/\/split_in_the_way_part-[0-9a-f]{16}\.wasm$/, (route) => (refuse ? route.abort('connectionfailed') : route.continue()));
  await page.goto(`${sim.url}${poolPath(demo)}/edit`);
  const { alert, theirs } = await saveIntoConflict(page, api, demo);
  await expect(alert.getByText('This part of the page could not be loaded')).toBeVisible();
  await expect(alert).toHaveText(/^Temporary: the request is fine, try later\./);
  await expect(alert.getByRole('alert'), "the part's failure is told by the alert it is in, not a second alert").toHaveCount(0);
  refuse = false;
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(alert.getByText(`Operation in the way: ${theirs.id}`)).toBeVisible();
  await expect(alert.getByText('This part of the page could not be loaded')).toHaveCount(0);
});

test('an error answer is read by code that comes with the first error; if that code does not arrive, the answer is shown as it came', async ({ sim, control, demo, open }) => {
  // What the console fetches is recorded from its first load, with a cold cache.
  let wasm;
  const page = await open(`/projects/${demo.project}/clusters`, { fresh: true, beforeLoad: (p) => (wasm = wasmFetched(p)) });
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(wasm, `a page with no error answer does not fetch the reader: ${wasm.join(', ')}`).not.toContain('split_error_body.wasm');

  let refuse = true;
  await page.route(/\/split_error_body-[0-9a-f]{16}\.wasm$/, (route) => (refuse ? route.abort('connectionfailed') : route.continue()));
  await control.fault({ match: { method: 'GET', path: '/v1/nks/clusters' }, action: { type: 'status', status: 400, message: 'filter not understood' } });
  try {
    // The reader's code did not arrive: the answer's text, in full, stands in for its message.
    await page.reload();
    const raw = page.getByRole('alert').filter({ hasText: 'List clusters answered 400: {"message":"filter not understood"}' });
    await expect(raw).toHaveText(/^The API rejected the request; fix it, retrying will not help\./);
    await expect(page.getByRole('table', { name: 'Clusters' })).toHaveCount(0);
    await shot(page, 'fault-error-reader-missing');
    // It arrives: the message alone, as before the reader was split off.
    refuse = false;
    await page.reload();
    await expect(page.getByRole('alert').filter({ hasText: 'List clusters answered 400: filter not understood' })).toBeVisible();
    expect(wasm, wasm.join(', ')).toContain('split_error_body.wasm');
  } finally {
    await control.clearFaults();
  }
});

test("the tracker's engine comes with the first thing to follow; if its code does not arrive, the header says so and it is fetched again", async ({ api, sim, control, demo, open }) => {
  // A pool update takes 2 minutes: in flight until the test ends it.
  const op = await scaleBaseline(api, demo, 4);
  // The engine's route is in place before the console first loads.
  const polls = [];
  let refuse = true;
  const engineFetches = [];
  const page = await open(clusterPath(demo), {
    beforeLoad: async (p) => {
      p.on('request', (r) => {
        if (new URL(r.url()).pathname === `/v1/operations/${op.id}`) polls.push(r.url());
      });
      await p.route(/\/split_ops_engine-[0-9a-f]{16}\.wasm$/, (route) => {
        engineFetches.push(Date.now());
        return refuse ? route.abort('connectionfailed') : route.continue();
      });
    },
  });
  // The page found the operation in flight and asked for the engine, which did not come.
  const paused = page.locator('.ops-condition').filter({ hasText: 'Following operations is paused: its code did not arrive. Trying again.' });
  await expect(paused).toBeVisible();
  await shot(page, 'fault-tracker-code');
  expect(polls, 'nothing is polled without the engine').toEqual([]);
  refuse = false;
  // Fetched again by itself, 5 s after the failure (src/ops/engine_code.rs):
  // longer than the default wait. The operation is then followed to the end.
  await expect(inFlight(page, 1)).toBeVisible({ timeout: 15_000 });
  await expect(paused).toHaveCount(0);
  expect(engineFetches.length, `fetches of the engine: ${engineFetches.length}`).toBeGreaterThanOrEqual(2);
  expect(engineFetches[1] - engineFetches[0], 'the second fetch waited before asking again').toBeGreaterThanOrEqual(4000);
  await expect.poll(() => polls.length, { message: 'the operation is polled' }).toBeGreaterThan(0);
  await control.finish({ id: op.id });
  await expect(notice(page, 'Update pool: done.')).toBeVisible();
});

test.describe('a large world', () => {
  test.use({ seed: 'large' });

  test('a list whose page 3 fails shows the pages read with the gap marked and a retry, never as the whole list or an empty one', async ({ api, control, projects, open }) => {
    const large = projects.Large;
    const big = (await api('GET', `/v1/nks/clusters?project_id=${large}&limit=100`)).items.find((c) => c.name === 'big');
    await control.fault({ match: { method: 'GET', path_prefix: `/v1/nks/clusters/${big.id}/pools` }, action: { type: 'page_fail', page: 3, status: 500 } });
    const page = await open(`/projects/${large}/clusters/${big.id}`);
    const pagerCount = page.getByRole('navigation', { name: 'Pool pages' }).locator('.pager-count');
    try {
      // Pages 1 and 2 are shown as what they are: 200 of 1,000, the rest a marked gap.
      const alert = page.getByRole('alert').filter({ hasText: 'List pools answered 500' });
      await expect(alert).toHaveText(/^Temporary: the request is fine, try later\./);
      const gap = page.getByRole('group', { name: 'Pools not read' });
      await expect(gap.getByText('Pools 201–1,000 could not be read.')).toBeVisible();
      await expect(pagerCount.first(), 'the rows are counted among those read, not as all').toHaveText('1\u201350 of the 200 read');
      await expect(pagerCount.last()).toHaveText('200 of 1,000 pools read');
      await expect(page.getByText(/No pools/), 'no empty state').toHaveCount(0);
      await shot(page, 'fault-page-3');
    } finally {
      await control.clearFaults();
    }
    await page.getByRole('alert').filter({ hasText: 'List pools' }).getByRole('button', { name: 'Retry' }).click();
    const table = page.getByRole('table', { name: 'Pools' });
    await expect(page.getByRole('group', { name: 'Pools not read' })).toHaveCount(0);
    // Shown 50 at a time: the first page, out of every one of the 1,000 pools.
    await expect(table.getByRole('row'), 'a full first page of pools, after the retry').toHaveCount(1 + 50);
    await expect(pagerCount, 'no "pools read" count left').toHaveCount(1);
    await expect(pagerCount, 'every one of the 1,000 pools, after the retry').toHaveText('1\u201350 of 1,000');
  });
});

test('malformed JSON names the call that sent it under a heading of its own, the parser\'s words behind a disclosure, and the rest of the console keeps working', async ({ control, demo, open }) => {
  const page = await open(`/projects/${demo.project}/clusters`);
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  await control.fault({ match: { method: 'GET', path: '/v1/nks/clusters' }, action: { type: 'malformed' } });
  try {
    await page.reload();
    const alert = page.getByRole('alert').filter({ hasText: 'List clusters sent a response the console could not read' });
    await expect(alert).toBeVisible();
    await expect(alert).not.toHaveText(/fix it/);
    // Its own heading, not "the request is fine"; the parser's words behind a disclosure.
    await expect(alert.locator('.alert-title')).toHaveText("The API's answer could not be read.");
    await expect(alert).not.toContainText('Temporary: the request is fine');
    const technical = alert.getByRole('group').filter({ hasText: 'Technical details' });
    await expect(technical.locator('code')).toBeHidden();
    await technical.getByText('Technical details').click();
    await expect(technical.locator('code')).toBeVisible();
    await expect(technical.locator('code')).not.toBeEmpty();
    await shot(page, 'fault-malformed');
    // Elsewhere works, with the fault still on.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operations' }).click();
    await expect(page.getByRole('table', { name: 'Operations' })).toBeVisible();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
    expect(page.consoleLines.filter((l) => l.startsWith('pageerror') || /panicked/.test(l))).toEqual([]);
  } finally {
    await control.clearFaults();
  }
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Clusters' }).click();
  await expect(page.getByRole('link', { name: 'edge-prod' })).toBeVisible();
});

// ---------------------------------------------------------------------------
// UI CONTRACT of the create forms after an uncertain create (5xx or no answer):
// the console looks the resource up by name and says what it found, before
// anything is sent again. The forms are being finished in src/app/{pools,clusters}.

const plan = (page) => page.getByRole('complementary', { name: 'Plan' });

/**
 * Waits until Create is enabled and the plan shows its answer for the form as it
 * stands: the plan's availability and cost checks (POSTs under the same path
 * prefix as the create) have all been answered and no other is due (the panel
 * shows an answer only for the body on screen), so a counted fault meant for the
 * create cannot be spent on one of them.
 */
async function readyToCreate(page, create) {
  await expect(create).toBeEnabled();
  await expect(plan(page).getByText('Availability: can be done.')).toBeVisible();
}

async function fillPool(page, name) {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Instance type').selectOption('n1-standard-4');
  await page.getByLabel('Boot volume size (GB)').fill('100');
  await page.getByLabel('Boot volume type').selectOption('abs');
  await page.getByLabel('Node count').fill('1');
  const create = page.getByRole('button', { name: 'Create pool' });
  await readyToCreate(page, create);
  return create;
}

const createPosts = (timed, suffix) =>
  timed.filter((r) => r.method === 'POST' && r.url.pathname.endsWith(suffix) && !/\/(availability|cost)$/.test(r.url.pathname));

test('UI CONTRACT: a pool create answered 503 is not re-sent; the console finds no pool and offers Try again', async ({ control, demo, open }) => {
  const page = await open(`${clusterPath(demo)}/pools/new`);
  const timed = timedRequests(page);
  const create = await fillPool(page, 'x');
  // Only the create: an exact prefix would also match /pools/availability and /pools/cost.
  await control.fault({ match: { method: 'POST', path_prefix: `/v1/nks/clusters/${demo.cluster}/pools` }, count: 1, action: { type: 'status', status: 503, message: 'down for a moment' } });
  await create.click();
  const status = page.getByRole('status').filter({ hasText: 'No pool named x was created' });
  await expect(status).toBeVisible();
  await shot(page, 'fault-create-pool-none');
  expect(createPosts(timed, '/pools').length, 'the create went out once: not re-sent blindly').toBe(1);
  expect(timed.some((r) => r.method === 'GET' && r.url.pathname === `/v1/nks/clusters/${demo.cluster}/pools`), 'looked for it by listing').toBe(true);
  // A reload keeps the form and what it said.
  await page.reload();
  await expect(status).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('x');
  await expect(page.getByLabel('Node count')).toHaveValue('1');
  expect(createPosts(timed, '/pools').length, 'the reload sent nothing').toBe(1);
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Create pool — operation' })).toBeVisible();
  expect(createPosts(timed, '/pools').length, 'sent again only when asked').toBe(2);
});

test('UI CONTRACT: a pool create whose answer is lost after it acted: the console finds the pool and links it', async ({ api, demo, open }) => {
  const page = await open(`${clusterPath(demo)}/pools/new`);
  const timed = timedRequests(page);
  const create = await fillPool(page, 'x');
  // The server acts, then the connection is lost before the answer arrives.
  await page.route(`**/v1/nks/clusters/${demo.cluster}/pools`, async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    await route.fetch();
    await route.abort('connectionreset');
  });
  await create.click();
  const status = page.getByRole('status').filter({ hasText: 'A pool named x exists' });
  await expect(status).toBeVisible();
  await shot(page, 'fault-create-pool-exists');
  expect(createPosts(timed, '/pools').length, 'not re-sent').toBe(1);
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await status.getByRole('link', { name: 'Open pool x' }).click();
  await expect(page.getByRole('heading', { name: 'x', exact: true, level: 1 })).toBeVisible();
  const pools = (await api('GET', `/v1/nks/clusters/${demo.cluster}/pools`)).items.filter((p) => p.name === 'x');
  expect(pools.length, 'exactly one pool x: no duplicate').toBe(1);
});

async function fillCluster(page, name) {
  // These tests are about the cluster alone: its first pool (on by default) is removed.
  await page.getByRole('button', { name: 'Remove first pool' }).click();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Kubernetes version').selectOption('v1.34.4');
  await page.getByLabel('VPC').selectOption({ label: 'prod-spare-vpc (10.21.0.0/24)' });
  await page.getByRole('radio', { name: 'On' }).check();
  const create = page.getByRole('button', { name: 'Create cluster' });
  await readyToCreate(page, create);
  return create;
}

test('UI CONTRACT: a cluster create dropped without an answer is not re-sent; the console finds no cluster', async ({ control, demo, open }) => {
  const page = await open(`/projects/${demo.project}/clusters/new`);
  const timed = timedRequests(page);
  const create = await fillCluster(page, 'y');
  // Every create is dropped until the outcome shows: Chromium itself silently re-sends
  // a request whose reused keep-alive connection closed without an answer (even a
  // POST, and more than once), so a counted drop never reaches the page.
  await control.fault({ match: { method: 'POST', path: '/v1/nks/clusters' }, action: { type: 'drop' } });
  try {
    await create.click();
    await expect(page.getByRole('status').filter({ hasText: 'No cluster named y was created' })).toBeVisible();
  } finally {
    await control.clearFaults();
  }
  await shot(page, 'fault-create-cluster-none');
  expect(createPosts(timed, '/v1/nks/clusters').length, 'the console sent the create once: not re-sent blindly').toBe(1);
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Create cluster — operation' })).toBeVisible();
});

test('a cluster create answered 503, then a reload: the same words and every typed field come back, kept in this tab only until it is sent', async ({ control, demo, open }) => {
  const page = await open(`/projects/${demo.project}/clusters/new`);
  const timed = timedRequests(page);
  const create = await fillCluster(page, 'beta');
  await page.getByLabel('Tags').fill('team-edge, tier-gold');
  await readyToCreate(page, create);
  await control.fault({ match: { method: 'POST', path: '/v1/nks/clusters' }, count: 1, action: { type: 'status', status: 503, message: 'down for a moment' } });
  const stored = () => page.evaluate(() => ({ tab: JSON.stringify({ ...sessionStorage }), device: JSON.stringify({ ...localStorage }) }));
  expect((await stored()).tab, 'what is being typed never reaches storage').not.toContain('beta');
  await create.click();
  const none = page.getByRole('status').filter({ hasText: 'No cluster named beta was created, so it is safe to try again.' });
  await expect(none).toBeVisible();
  const form = page.locator('form');
  const said = await form.getByRole('alert').allTextContents();
  expect(said.join(' ')).toMatch(/down for a moment/);
  expect((await stored()).device, 'nothing typed is kept on the device').not.toContain('beta');
  await page.reload();
  await expect(none).toBeVisible();
  await expect(form.getByRole('alert')).toHaveText(said);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('beta');
  await expect(page.getByLabel('Kubernetes version')).toHaveValue('v1.34.4');
  await expect(page.getByLabel('VPC').locator('option:checked')).toHaveText('prod-spare-vpc (10.21.0.0/24)');
  await expect(page.getByRole('radio', { name: 'On' })).toBeChecked();
  await expect(page.getByLabel('Tags')).toHaveValue('team-edge, tier-gold');
  await expect(page.getByRole('button', { name: 'Add a first pool' })).toBeVisible();
  await shot(page, 'fault-create-cluster-503-reloaded');
  expect(createPosts(timed, '/v1/nks/clusters').length, 'the reload sent nothing').toBe(1);
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Create cluster — operation' })).toBeVisible();
  expect(createPosts(timed, '/v1/nks/clusters').length, 'sent again only when asked').toBe(2);
  expect((await stored()).tab, 'sent: nothing typed is kept any more').not.toContain('beta');
});

test('UI CONTRACT: a cluster create answered 502 after it acted: the console finds the cluster and links it', async ({ demo, open }) => {
  const page = await open(`/projects/${demo.project}/clusters/new`);
  const timed = timedRequests(page);
  const create = await fillCluster(page, 'y');
  await page.route('**/v1/nks/clusters', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    await route.fetch();
    await route.fulfill({ status: 502, contentType: 'application/json', body: '{"message":"bad gateway"}' });
  });
  await create.click();
  const status = page.getByRole('status').filter({ hasText: 'A cluster named y exists' });
  await expect(status).toBeVisible();
  expect(createPosts(timed, '/v1/nks/clusters').length, 'not re-sent').toBe(1);
  await status.getByRole('link', { name: 'Open cluster y' }).click();
  await expect(page.getByRole('heading', { name: 'y', exact: true, level: 1 })).toBeVisible();
});

// ---------------------------------------------------------------------------

test('slow answers: every action shows progress, cannot be sent twice, and navigation stays live', async ({ sim, control, demo, open }) => {
  // Connecting: this part is about the connect screen, so the key is typed.
  // Each slow answer is held by the test until what it checks is seen.
  const page = await open('/', { connected: false });
  const user = await hold(page, '**/v1/user', { method: 'GET', times: 1 });
  await page.getByLabel('API key').fill(DEMO_KEY);
  await page.getByRole('button', { name: 'Connect' }).click();
  const connecting = page.getByRole('button', { name: 'Connecting…' });
  await expect(connecting).toBeVisible();
  await expect(connecting).toBeDisabled();
  user.release();
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();

  // A list that does not answer: "Loading…", and the header's links still work meanwhile.
  const list = await hold(page, /\/v1\/nks\/clusters(\?|$)/, { method: 'GET' });
  await page.reload();
  await expect(page.getByText('Loading clusters…')).toBeVisible();
  const started = Date.now();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  expect(Date.now() - started, 'navigation waited for the hanging call').toBeLessThan(3000);
  expect(list.held.length, 'the list was still unanswered').toBeGreaterThan(0);
  list.release();

  // Saving.
  const patches = [];
  page.on('request', (r) => r.method() === 'PATCH' && !/\/(availability|cost)$/.test(new URL(r.url()).pathname) && patches.push(r));
  await page.goto(sim.url + `${poolPath(demo)}/edit`);
  await page.getByLabel('Tags').fill('slow');
  const save = page.getByRole('button', { name: 'Save' });
  await expect(save).toBeEnabled();
  const update = await hold(page, `**/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}`, { method: 'PATCH', times: 1 });
  await save.click();
  const saving = page.getByRole('button', { name: 'Saving…' });
  await expect(saving).toBeVisible();
  await expect(saving).toBeDisabled();
  await saving.click({ force: true, timeout: 2_000 }).catch(() => {});
  update.release();
  // Saved: the update's operation page follows it, and its end opens the pool.
  await expect(page.getByRole('status').filter({ hasText: /Update pool — operation .* is (pending|running)/ })).toBeVisible();
  await control.finish({ kind: 'nks_node_pool' });
  await expect(page.getByRole('heading', { name: 'baseline', exact: true })).toBeVisible();
  expect(patches.length, 'one PATCH for a double submit').toBe(1);

  // Creating.
  await page.goto(sim.url + `${clusterPath(demo)}/pools/new`);
  const create = await fillPool(page, 'slowpoke');
  const sending = await hold(page, `**/v1/nks/clusters/${demo.cluster}/pools`, { method: 'POST', times: 1 });
  const posts = [];
  page.on('request', (r) => r.method() === 'POST' && new URL(r.url()).pathname.endsWith('/pools') && posts.push(r));
  await create.click();
  const creating = page.getByRole('button', { name: 'Creating…' });
  await expect(creating).toBeVisible();
  await expect(creating).toBeDisabled();
  await creating.click({ force: true, timeout: 2_000 }).catch(() => {});
  sending.release();
  await expect(page.getByRole('status').filter({ hasText: 'Create pool — operation' })).toBeVisible();
  expect(posts.length, 'one POST for a double submit').toBe(1);
});

test('a page whose code does not arrive says so, keeps the console usable, and loads on retry', async ({ sim, demo, open }) => {
  // The operations page is split off (src/app/lazy.rs): its module is fetched on
  // first visit, and refused from the console's first load on.
  let refuse = true;
  const refused = [];
  const page = await open(`/projects/${demo.project}/clusters`, {
    beforeLoad: (p) =>
      p.route(/\/split_operations_page-[0-9a-f]{16}\.wasm$/, (route) => {
        if (!refuse) return route.continue();
        refused.push(route.request().url());
        return route.abort('connectionfailed');
      }),
  });
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Operations' }).click();
  await expect(page.getByRole('heading', { name: 'This page could not be loaded' })).toBeVisible();
  expect(refused.length, 'the page module was requested and refused').toBeGreaterThanOrEqual(1);
  await shot(page, 'lazy-page-failed');
  // The rest of the console still works: another page opens.
  await nav.getByRole('link', { name: 'Clusters' }).click();
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  await nav.getByRole('link', { name: 'Operations' }).click();
  await expect(page.getByRole('heading', { name: 'This page could not be loaded' })).toBeVisible();
  refuse = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('table', { name: 'Operations' })).toBeVisible();
});
