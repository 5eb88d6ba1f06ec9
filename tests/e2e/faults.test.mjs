// Faults, end to end: with nks-sim's fault controls (429 with its wait headers,
// 5xx bursts, a stopped API, 409, a failing page, malformed JSON, dropped and
// slow answers), the console waits as told, keeps everything it was following,
// never shows a shorter or empty list for a failure, and names the right outcome.
// (Failed and `unknown` operations: tests/e2e/operations.test.mjs.)
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, shot, DEMO_KEY } from './harness.mjs';

let sim;
let browser;
let ids;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

before(async () => {
  sim = await startSim({ timeScale: '0.01' });
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
  await sim?.stop();
});

async function call(target, method, route, body) {
  const res = await fetch(target.url + route, {
    method,
    headers: { authorization: `Bearer ${DEMO_KEY}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  assert.ok(res.ok, `${method} ${route} answered ${res.status}: ${await res.clone().text()}`);
  return res.json();
}

/** The demo world's ids, read from `target` (a sim). */
async function demoIds(target) {
  const projects = await call(target, 'GET', '/v1/projects');
  const production = projects.items.find((p) => p.name === 'Production');
  const cluster = (await call(target, 'GET', `/v1/nks/clusters?project_id=${production.id}`)).items.find((c) => c.name === 'edge-prod');
  const pools = (await call(target, 'GET', `/v1/nks/clusters/${cluster.id}/pools`)).items;
  return { project: production.id, cluster: cluster.id, baseline: pools.find((p) => p.name === 'baseline').id };
}

beforeEach(async () => {
  await sim.control('POST', '/_sim/reset', { seed: 'demo' });
  await sim.control('POST', '/_sim/time-scale', { time_scale: 0.01 });
  ids = await demoIds(sim);
});

const clusterPath = () => `/projects/${ids.project}/clusters/${ids.cluster}`;
const poolPath = () => `${clusterPath()}/pools/${ids.baseline}`;

/** A page connected with the demo key, recording request timestamps. */
async function open(path, target = sim) {
  const { context, page } = await openPage(browser);
  page.timed = [];
  page.on('request', (r) => page.timed.push({ at: Date.now(), method: r.method(), url: new URL(r.url()) }));
  await page.goto(target.url + path);
  await connect(page);
  return { context, page };
}

const fault = (spec) => sim.control('POST', '/_sim/faults', spec);
const clearFaults = () => sim.control('DELETE', '/_sim/faults');

/** Resolves once the control is enabled (a plan check may still be running). */
async function waitEnabled(locator, timeout = 10_000) {
  const until = Date.now() + timeout;
  while (!(await locator.isEnabled())) {
    if (Date.now() > until) throw new Error('still disabled');
    await sleep(100);
  }
}

/**
 * Waits until the plan's availability and cost checks (POSTs under the same path
 * prefix as the create) have been quiet for a second, so a counted fault meant
 * for the create cannot be spent on one of them.
 */
async function planSettled(page) {
  const isPlan = (r) => /\/(availability|cost)$/.test(r.url.pathname);
  for (let i = 0; i < 100; i++) {
    const last = Math.max(0, ...page.timed.filter(isPlan).map((r) => r.at));
    if (Date.now() - last > 1000) return;
    await sleep(200);
  }
  throw new Error('the plan checks never settled');
}

/** Timestamps of the cluster-list requests (the page's own list call). */
const clusterListCalls = (page) =>
  page.timed.filter((r) => r.method === 'GET' && r.url.pathname === '/v1/nks/clusters').map((r) => r.at);

async function expectTemporaryAfterRetries(page) {
  const alert = page.getByRole('alert').filter({ hasText: 'Temporary: the request is fine, try later.' });
  await alert.waitFor({ timeout: 30_000 });
  const text = await alert.textContent();
  assert.match(text, /List clusters answered 429/);
  assert.doesNotMatch(text, /fix it|fix your request/i);
  assert.equal(await page.getByText('No clusters in this project yet.').count(), 0, 'never an empty list');
}

for (const variant of [
  { name: 'Retry-After in seconds', headers: { retry_after: '2' }, minGap: 2000 },
  { name: 'Retry-After-Ms (which wins over Retry-After)', headers: { retry_after: '9', retry_after_ms: '1500' }, minGap: 1500, maxGap: 8000 },
]) {
  test(`a 429 with ${variant.name} is waited out, then reads as temporary, never as "fix it"`, async () => {
    const { context, page } = await open(`/projects/${ids.project}/clusters`);
    await page.getByRole('table', { name: 'Clusters' }).waitFor();
    await fault({
      match: { method: 'GET', path_prefix: '/v1/nks/clusters' },
      count: 3, // the first attempt and both retries
      action: { type: 'status', status: 429, message: 'slow down', ...variant.headers },
    });
    try {
      page.timed.length = 0;
      await page.reload();
      await expectTemporaryAfterRetries(page);
      const at = clusterListCalls(page);
      assert.equal(at.length, 3, 'one attempt and two retries, no more');
      for (let i = 1; i < at.length; i++) {
        const gap = at[i] - at[i - 1];
        assert.ok(gap >= variant.minGap - 30, `retry ${i} came after ${gap} ms, before the ${variant.minGap} ms asked`);
        if (variant.maxGap) assert.ok(gap < variant.maxGap, `retry ${i} waited ${gap} ms: Retry-After-Ms should win`);
      }
      await shot(page, 'fault-429');
    } finally {
      await clearFaults();
    }
    await page.getByRole('button', { name: 'Retry' }).click();
    await assert.doesNotReject(page.getByRole('link', { name: 'edge-prod' }).waitFor());
    await context.close();
  });
}

test('a 429 with Retry-After as an HTTP date is not retried before that date', async () => {
  const { context, page } = await open(`/projects/${ids.project}/clusters`);
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  // Whole seconds only: the date is at least 2 s ahead when the answer is sent.
  const notBefore = (Math.floor(Date.now() / 1000) + 3) * 1000;
  await fault({
    match: { method: 'GET', path_prefix: '/v1/nks/clusters' },
    count: 3,
    action: { type: 'status', status: 429, retry_after: new Date(notBefore).toUTCString() },
  });
  try {
    page.timed.length = 0;
    await page.reload();
    await expectTemporaryAfterRetries(page);
    const at = clusterListCalls(page);
    assert.equal(at.length, 3);
    for (const t of at.slice(1)) assert.ok(t >= notBefore - 30, `a retry went out ${notBefore - t} ms before the date`);
  } finally {
    await clearFaults();
  }
  await context.close();
});

test('a burst of 5xx while polling shows the condition in the header, backs off, and recovers by itself', async () => {
  await sim.control('POST', '/_sim/time-scale', { time_scale: 0.1 }); // a pool update takes 12 s
  const op = await call(sim, 'PATCH', `/v1/nks/clusters/${ids.cluster}/pools/${ids.baseline}`, { node_count: 4 });
  const { context, page } = await open(clusterPath());
  await page.getByRole('link', { name: '1 operation in flight' }).waitFor({ timeout: 15_000 });
  await fault({ match: { method: 'GET', path_prefix: '/v1/operations' }, count: 6, action: { type: 'status', status: 503, message: 'overloaded' } });
  const condition = page.locator('.ops-condition');
  await condition.waitFor({ timeout: 15_000 });
  assert.match(await condition.textContent(), /Temporary: the request is fine, try later\. Still following; retrying with backoff\./);
  await shot(page, 'fault-5xx-polling');
  // Nobody clicks anything: the fault runs out, polling recovers, the operation ends.
  await condition.waitFor({ state: 'detached', timeout: 30_000 });
  await page.getByRole('status').filter({ hasText: 'Update pool: done.' }).waitFor({ timeout: 30_000 });
  // Backoff: the polls that met the fault are spread further apart than the first ones.
  const polls = page.timed.filter((r) => r.url.pathname === `/v1/operations/${op.id}`).map((r) => r.at);
  const gaps = polls.slice(1).map((t, i) => t - polls[i]);
  assert.ok(Math.max(...gaps) >= 1900, `no backed-off gap among ${gaps.join(', ')}`);
  assert.equal((await call(sim, 'GET', `/v1/operations/${op.id}`)).status, 'done');
  await context.close();
});

test('the API going away mid-operation: "Cannot reach the API", nothing forgotten, tracking resumes when it is back', async () => {
  // A sim of its own, stopped and restarted on the same port with the same seed:
  // ids are deterministic, so the same request sequence recreates the same operation.
  let own = await startSim({ timeScale: '1' });
  const port = new URL(own.url).port;
  try {
    const mine = await demoIds(own);
    const scale = () => call(own, 'PATCH', `/v1/nks/clusters/${mine.cluster}/pools/${mine.baseline}`, { node_count: 4 });
    const op = await scale();
    const { context, page } = await open(`/projects/${mine.project}/clusters/${mine.cluster}`, own);
    await page.getByRole('link', { name: '1 operation in flight' }).waitFor({ timeout: 15_000 });
    const saved = () => page.evaluate(() => localStorage.getItem('nks-console.operations'));
    await page.waitForFunction((id) => (localStorage.getItem('nks-console.operations') || '').includes(id), op.id);

    await own.stop();
    const condition = page.locator('.ops-condition');
    await condition.filter({ hasText: 'Cannot reach the API.' }).waitFor({ timeout: 20_000 });
    await shot(page, 'fault-api-down');
    // Down, the console forgets nothing: the operation, the key, the page.
    assert.ok((await saved()).includes(op.id), 'operation id kept in localStorage');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('nks-console.api-key')), DEMO_KEY);
    assert.equal(await page.getByRole('heading', { name: 'Connect to Nirvana NKS' }).count(), 0, 'not logged out');
    assert.ok(await page.getByRole('link', { name: '1 operation in flight' }).isVisible());
    assert.equal(await page.getByText('Temporary: the request is fine').count(), 0);

    own = await startSim({ port, timeScale: '0.01' });
    const again = await scale();
    assert.equal(again.id, op.id, 'same seed, same requests: same operation id');
    await page.getByRole('status').filter({ hasText: 'Update pool: done.' }).waitFor({ timeout: 40_000 });
    await condition.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: '0 operations in flight' }).waitFor();
    await context.close();
  } finally {
    await own.stop();
  }
});

/**
 * On the baseline pool's edit page (open in `page`): types a tag, lets someone
 * else start an operation on the pool after the page was checked, saves, and
 * waits for the 409's alert. Returns the alert and their operation.
 */
async function saveIntoConflict(page) {
  await page.getByLabel('Tags').fill('conflict');
  const save = page.getByRole('button', { name: 'Save' });
  await waitEnabled(save);
  await sim.control('POST', '/_sim/time-scale', { time_scale: 1 });
  const theirs = await call(sim, 'PATCH', `/v1/nks/clusters/${ids.cluster}/pools/${ids.baseline}`, { node_count: 4 });
  await save.click();
  const alert = page.getByRole('alert').filter({ hasText: 'another operation is running on this resource' });
  await alert.waitFor({ timeout: 15_000 });
  return { alert, theirs };
}

test('a 409 on a save says another operation is running and shows the one in the way', async () => {
  const { context, page } = await open(`${poolPath()}/edit`);
  const { alert, theirs } = await saveIntoConflict(page);
  // The lookup of the operation in the way is its own module (src/app/lazy.rs):
  // its line arrives just after the alert.
  await alert.getByText(`Operation in the way: ${theirs.id}`).waitFor();
  const text = await alert.textContent();
  assert.match(text, /^Temporary: the request is fine, try later\./);
  assert.ok(text.includes(`Operation in the way: ${theirs.id}`), text);
  await shot(page, 'fault-409');
  const link = alert.getByRole('link', { name: 'Show it on the operations page' });
  await link.click();
  await page.getByRole('table', { name: 'Operations' }).waitFor();
  const url = new URL(page.url());
  assert.equal(url.pathname, `/projects/${ids.project}/operations`);
  assert.equal(url.searchParams.get('resource'), ids.baseline);
  await assert.doesNotReject(page.getByRole('table', { name: 'Operations' }).getByRole('row').filter({ hasText: 'node_count: 3 → 4' }).waitFor());
  await context.close();
});

test('the first screen needs the main module only, key or no key; the operation a 409 names loads on first use', async () => {
  const wasmFetched = (page) => {
    const files = [];
    page.on('requestfinished', (r) => {
      const file = new URL(r.url()).pathname.split('/').pop();
      if (file.endsWith('.wasm')) files.push(file.replace(/-[0-9a-f]{16}/, ''));
    });
    return files;
  };
  // No key kept: the connect screen is in the main module (src/app/lazy.rs says why).
  const first = await openPage(browser);
  const before = wasmFetched(first.page);
  await first.page.goto(`${sim.url}/projects/${ids.project}/clusters`);
  await first.page.getByLabel('API key').waitFor();
  await first.page.waitForLoadState('networkidle');
  assert.deepEqual(before, ['nks-console_bg.wasm']);
  await first.context.close();

  // A key kept for the tab: the cluster list needs the main module only.
  const { context, page } = await openPage(browser);
  await context.addInitScript((key) => sessionStorage.setItem('nks-console.api-key', key), DEMO_KEY);
  const wasm = wasmFetched(page);
  await page.goto(`${sim.url}/projects/${ids.project}/clusters`);
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  await page.waitForLoadState('networkidle');
  assert.deepEqual(wasm, ['nks-console_bg.wasm']);

  // The lookup of an operation a 409 names is its own module; if it does not
  // arrive, the error is still told in full and the part offers a retry.
  let refuse = true;
  await page.route(/\/split_in_the_way_part-[0-9a-f]{16}\.wasm$/, (route) => (refuse ? route.abort('connectionfailed') : route.continue()));
  await page.goto(`${sim.url}${poolPath()}/edit`);
  const { alert, theirs } = await saveIntoConflict(page);
  await alert.getByText('This part of the page could not be loaded').waitFor();
  assert.match(await alert.textContent(), /^Temporary: the request is fine, try later\./);
  assert.equal(await alert.getByRole('alert').count(), 0, 'the part\'s failure is told by the alert it is in, not a second alert');
  refuse = false;
  await alert.getByRole('button', { name: 'Try again' }).click();
  await alert.getByText(`Operation in the way: ${theirs.id}`).waitFor();
  assert.equal(await alert.getByText('This part of the page could not be loaded').count(), 0);
  await context.close();
});

test('an error answer is read by code that comes with the first error; if that code does not arrive, the answer is shown as it came', async () => {
  const { context, page } = await openPage(browser);
  await context.addInitScript((key) => sessionStorage.setItem('nks-console.api-key', key), DEMO_KEY);
  const wasm = [];
  page.on('requestfinished', (r) => {
    const file = new URL(r.url()).pathname.split('/').pop();
    if (file.endsWith('.wasm')) wasm.push(file.replace(/-[0-9a-f]{16}/, ''));
  });
  await page.goto(`${sim.url}/projects/${ids.project}/clusters`);
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  await page.waitForLoadState('networkidle');
  assert.ok(!wasm.includes('split_error_body.wasm'), `a page with no error answer does not fetch the reader: ${wasm.join(', ')}`);

  let refuse = true;
  await page.route(/\/split_error_body-[0-9a-f]{16}\.wasm$/, (route) => (refuse ? route.abort('connectionfailed') : route.continue()));
  await fault({ match: { method: 'GET', path_prefix: '/v1/nks/clusters' }, action: { type: 'status', status: 400, message: 'filter not understood' } });
  try {
    // The reader's code did not arrive: the answer's text, in full, stands in for its message.
    await page.reload();
    const raw = page.getByRole('alert').filter({ hasText: 'List clusters answered 400: {"message":"filter not understood"}' });
    await raw.waitFor({ timeout: 15_000 });
    assert.match(await raw.textContent(), /^The API rejected the request; fix it, retrying will not help\./);
    assert.equal(await page.getByRole('table', { name: 'Clusters' }).count(), 0);
    await shot(page, 'fault-error-reader-missing');
    // It arrives: the message alone, as before the reader was split off.
    refuse = false;
    await page.reload();
    await page.getByRole('alert').filter({ hasText: 'List clusters answered 400: filter not understood' }).waitFor({ timeout: 15_000 });
    assert.ok(wasm.includes('split_error_body.wasm'), wasm.join(', '));
  } finally {
    await clearFaults();
  }
  await context.close();
});

test('the tracker\'s engine comes with the first thing to follow; if its code does not arrive, the header says so and it is fetched again', async () => {
  await sim.control('POST', '/_sim/time-scale', { time_scale: 0.1 }); // a pool update takes 12 s
  const op = await call(sim, 'PATCH', `/v1/nks/clusters/${ids.cluster}/pools/${ids.baseline}`, { node_count: 4 });
  const { context, page } = await openPage(browser);
  await context.addInitScript((key) => sessionStorage.setItem('nks-console.api-key', key), DEMO_KEY);
  const polls = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === `/v1/operations/${op.id}`) polls.push(r.url());
  });
  let refuse = true;
  const engineFetches = [];
  await page.route(/\/split_ops_engine-[0-9a-f]{16}\.wasm$/, (route) => {
    engineFetches.push(Date.now());
    return refuse ? route.abort('connectionfailed') : route.continue();
  });
  await page.goto(`${sim.url}${clusterPath()}`);
  // The page found the operation in flight and asked for the engine, which did not come.
  const paused = page.locator('.ops-condition').filter({ hasText: 'Following operations is paused: its code did not arrive. Trying again.' });
  await paused.waitFor({ timeout: 15_000 });
  await shot(page, 'fault-tracker-code');
  assert.equal(polls.length, 0, 'nothing is polled without the engine');
  refuse = false;
  // Fetched again by itself; the operation is then followed to the end.
  await page.getByRole('link', { name: '1 operation in flight' }).waitFor({ timeout: 15_000 });
  await paused.waitFor({ state: 'detached' });
  assert.ok(engineFetches.length >= 2, `fetches of the engine: ${engineFetches.length}`);
  assert.ok(engineFetches[1] - engineFetches[0] >= 4000, 'the second fetch waited before asking again');
  await page.getByRole('status').filter({ hasText: 'Update pool: done.' }).waitFor({ timeout: 30_000 });
  assert.ok(polls.length > 0);
  await context.close();
});

test('a list whose page 3 fails shows the pages read with the gap marked and a retry, never as the whole list or an empty one', async () => {
  await sim.control('POST', '/_sim/reset', { seed: 'large' });
  const large = (await call(sim, 'GET', '/v1/projects')).items.find((p) => p.name === 'Large');
  const big = (await call(sim, 'GET', `/v1/nks/clusters?project_id=${large.id}&limit=100`)).items.find((c) => c.name === 'big');
  await fault({ match: { method: 'GET', path_prefix: `/v1/nks/clusters/${big.id}/pools` }, action: { type: 'page_fail', page: 3, status: 500 } });
  const { context, page } = await open(`/projects/${large.id}/clusters/${big.id}`);
  const pagerCount = page.getByRole('navigation', { name: 'Pool pages' }).locator('.pager-count');
  try {
    // Pages 1 and 2 are shown as what they are: 200 of 1,000, the rest a marked gap.
    const alert = page.getByRole('alert').filter({ hasText: 'List pools answered 500' });
    await alert.waitFor({ timeout: 30_000 });
    assert.match(await alert.textContent(), /^Temporary: the request is fine, try later\./);
    const gap = page.getByRole('group', { name: 'Pools not read' });
    await assert.doesNotReject(gap.getByText('Pools 201–1,000 could not be read.').waitFor());
    assert.equal(await pagerCount.first().textContent(), '1\u201350 of the 200 read', 'the rows are counted among those read, not as all');
    assert.equal(await pagerCount.last().textContent(), '200 of 1,000 pools read');
    assert.equal(await page.getByText(/No pools/).count(), 0, 'no empty state');
    await shot(page, 'fault-page-3');
  } finally {
    await clearFaults();
  }
  await page.getByRole('alert').filter({ hasText: 'List pools' }).getByRole('button', { name: 'Retry' }).click();
  const table = page.getByRole('table', { name: 'Pools' });
  await page.getByRole('group', { name: 'Pools not read' }).waitFor({ state: 'detached', timeout: 30_000 });
  // Shown 50 at a time: the first page, out of every one of the 1,000 pools.
  assert.equal(await table.getByRole('row').count(), 1 + 50, 'a full first page of pools, after the retry');
  assert.equal(await pagerCount.count(), 1, 'no "pools read" count left');
  assert.equal(await pagerCount.textContent(), '1\u201350 of 1,000', 'every one of the 1,000 pools, after the retry');
  await context.close();
});

test('malformed JSON names the call that sent it, and the rest of the console keeps working', async () => {
  const { context, page } = await open(`/projects/${ids.project}/clusters`);
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  await fault({ match: { method: 'GET', path_prefix: '/v1/nks/clusters' }, action: { type: 'malformed' } });
  try {
    await page.reload();
    const alert = page.getByRole('alert').filter({ hasText: 'List clusters sent a response the console could not read' });
    await alert.waitFor({ timeout: 15_000 });
    assert.doesNotMatch(await alert.textContent(), /fix it/);
    await shot(page, 'fault-malformed');
    // Elsewhere works, with the fault still on.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operations' }).click();
    await assert.doesNotReject(page.getByRole('table', { name: 'Operations' }).waitFor());
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await assert.doesNotReject(page.getByRole('heading', { name: 'Settings' }).waitFor());
    assert.ok(!page.consoleLines.some((l) => l.startsWith('pageerror') || /panicked/.test(l)), page.consoleLines.join('\n'));
  } finally {
    await clearFaults();
  }
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Clusters' }).click();
  await assert.doesNotReject(page.getByRole('link', { name: 'edge-prod' }).waitFor());
  await context.close();
});

// ---------------------------------------------------------------------------
// UI CONTRACT of the create forms after an uncertain create (5xx or no answer):
// the console looks the resource up by name and says what it found, before
// anything is sent again. The forms are being finished in src/app/{pools,clusters}.

async function fillPool(page, name) {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Instance type').selectOption('n1-standard-4');
  await page.getByLabel('Boot volume size (GB)').fill('100');
  await page.getByLabel('Boot volume type').selectOption('abs');
  await page.getByLabel('Node count').fill('1');
  const create = page.getByRole('button', { name: 'Create pool' });
  await waitEnabled(create);
  await planSettled(page);
  return create;
}

const createPosts = (page, suffix) =>
  page.timed.filter((r) => r.method === 'POST' && r.url.pathname.endsWith(suffix) && !/\/(availability|cost)$/.test(r.url.pathname));

test('UI CONTRACT: a pool create answered 503 is not re-sent; the console finds no pool and offers Try again', async () => {
  const { context, page } = await open(`${clusterPath()}/pools/new`);
  const create = await fillPool(page, 'x');
  // Only the create: an exact prefix would also match /pools/availability and /pools/cost.
  await fault({ match: { method: 'POST', path_prefix: `/v1/nks/clusters/${ids.cluster}/pools` }, count: 1, action: { type: 'status', status: 503, message: 'down for a moment' } });
  await create.click();
  const status = page.getByRole('status').filter({ hasText: 'No pool named x was created' });
  await status.waitFor({ timeout: 15_000 });
  await shot(page, 'fault-create-pool-none');
  assert.equal(createPosts(page, '/pools').length, 1, 'the create went out once: not re-sent blindly');
  assert.ok(page.timed.some((r) => r.method === 'GET' && r.url.pathname === `/v1/nks/clusters/${ids.cluster}/pools`), 'looked for it by listing');
  await page.getByRole('button', { name: 'Try again' }).click();
  await page.getByRole('status').filter({ hasText: 'Create pool — operation' }).waitFor({ timeout: 15_000 });
  assert.equal(createPosts(page, '/pools').length, 2, 'sent again only when asked');
  await context.close();
});

test('UI CONTRACT: a pool create whose answer is lost after it acted: the console finds the pool and links it', async () => {
  const { context, page } = await open(`${clusterPath()}/pools/new`);
  const create = await fillPool(page, 'x');
  // The server acts, then the connection is lost before the answer arrives.
  await page.route(`**/v1/nks/clusters/${ids.cluster}/pools`, async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    await route.fetch();
    await route.abort('connectionreset');
  });
  await create.click();
  const status = page.getByRole('status').filter({ hasText: 'A pool named x exists' });
  await status.waitFor({ timeout: 15_000 });
  await shot(page, 'fault-create-pool-exists');
  assert.equal(createPosts(page, '/pools').length, 1, 'not re-sent');
  assert.equal(await page.getByRole('button', { name: 'Try again' }).count(), 0);
  await status.getByRole('link', { name: 'Open pool x' }).click();
  await assert.doesNotReject(page.getByRole('heading', { name: 'x', exact: true, level: 1 }).waitFor());
  const pools = (await call(sim, 'GET', `/v1/nks/clusters/${ids.cluster}/pools`)).items.filter((p) => p.name === 'x');
  assert.equal(pools.length, 1, 'exactly one pool x: no duplicate');
  await context.close();
});

async function fillCluster(page, name) {
  // These tests are about the cluster alone: its first pool (on by default) is removed.
  await page.getByRole('button', { name: 'Remove first pool' }).click();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Kubernetes version').selectOption('v1.34.4');
  await page.getByLabel('VPC').selectOption({ label: 'prod-spare-vpc (10.21.0.0/24)' });
  await page.getByRole('radio', { name: 'On' }).check();
  const create = page.getByRole('button', { name: 'Create cluster' });
  await waitEnabled(create);
  await planSettled(page);
  return create;
}

test('UI CONTRACT: a cluster create dropped without an answer is not re-sent; the console finds no cluster', async () => {
  const { context, page } = await open(`/projects/${ids.project}/clusters/new`);
  const create = await fillCluster(page, 'y');
  // Every create is dropped until the outcome shows: Chromium itself silently re-sends
  // a request whose reused keep-alive connection closed without an answer (even a
  // POST, and more than once), so a counted drop never reaches the page.
  await fault({ match: { method: 'POST', path_prefix: '/v1/nks/clusters' }, action: { type: 'drop' } });
  try {
    await create.click();
    await page.getByRole('status').filter({ hasText: 'No cluster named y was created' }).waitFor({ timeout: 15_000 });
  } finally {
    await clearFaults();
  }
  await shot(page, 'fault-create-cluster-none');
  assert.equal(createPosts(page, '/v1/nks/clusters').length, 1, 'the console sent the create once: not re-sent blindly');
  await page.getByRole('button', { name: 'Try again' }).click();
  await page.getByRole('status').filter({ hasText: 'Create cluster — operation' }).waitFor({ timeout: 15_000 });
  await context.close();
});

test('UI CONTRACT: a cluster create answered 502 after it acted: the console finds the cluster and links it', async () => {
  const { context, page } = await open(`/projects/${ids.project}/clusters/new`);
  const create = await fillCluster(page, 'y');
  await page.route('**/v1/nks/clusters', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    await route.fetch();
    await route.fulfill({ status: 502, contentType: 'application/json', body: '{"message":"bad gateway"}' });
  });
  await create.click();
  const status = page.getByRole('status').filter({ hasText: 'A cluster named y exists' });
  await status.waitFor({ timeout: 15_000 });
  assert.equal(createPosts(page, '/v1/nks/clusters').length, 1, 'not re-sent');
  await status.getByRole('link', { name: 'Open cluster y' }).click();
  await assert.doesNotReject(page.getByRole('heading', { name: 'y', exact: true, level: 1 }).waitFor());
  await context.close();
});

// ---------------------------------------------------------------------------

test('slow answers: every action shows progress, cannot be sent twice, and navigation stays live', async () => {
  // Connecting.
  const { context, page } = await openPage(browser);
  page.timed = [];
  page.on('request', (r) => page.timed.push({ at: Date.now(), method: r.method(), url: new URL(r.url()) }));
  await page.goto(sim.url + '/');
  await fault({ match: { method: 'GET', path_prefix: '/v1/user' }, count: 1, action: { type: 'latency', ms: 2500 } });
  await page.getByLabel('API key').fill(DEMO_KEY);
  await page.getByRole('button', { name: 'Connect' }).click();
  const connecting = page.getByRole('button', { name: 'Connecting…' });
  await connecting.waitFor();
  assert.equal(await connecting.isDisabled(), true);
  await page.getByRole('table', { name: 'Clusters' }).waitFor({ timeout: 15_000 });

  // A slow list: "Loading…", and the header's links still work meanwhile.
  await fault({ match: { method: 'GET', path_prefix: '/v1/nks/clusters' }, action: { type: 'latency', ms: 6000 } });
  await page.reload();
  await page.getByText('Loading clusters…').waitFor();
  const started = Date.now();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
  assert.ok(Date.now() - started < 3000, 'navigation waited for the hanging call');
  await clearFaults();

  // Saving.
  const patches = [];
  page.on('request', (r) => r.method() === 'PATCH' && !/\/(availability|cost)$/.test(new URL(r.url()).pathname) && patches.push(r));
  await page.goto(sim.url + `${poolPath()}/edit`);
  await page.getByLabel('Tags').fill('slow');
  const save = page.getByRole('button', { name: 'Save' });
  await waitEnabled(save);
  await fault({ match: { method: 'PATCH', path_prefix: `/v1/nks/clusters/${ids.cluster}/pools/${ids.baseline}` }, count: 1, action: { type: 'latency', ms: 2500 } });
  await save.click();
  const saving = page.getByRole('button', { name: 'Saving…' });
  await saving.waitFor();
  assert.equal(await saving.isDisabled(), true);
  await saving.click({ force: true }).catch(() => {});
  await page.getByRole('heading', { name: 'baseline', exact: true }).waitFor({ timeout: 20_000 });
  assert.equal(patches.length, 1, 'one PATCH for a double submit');

  // Creating.
  await page.goto(sim.url + `${clusterPath()}/pools/new`);
  const create = await fillPool(page, 'slowpoke');
  await fault({ match: { method: 'POST', path_prefix: `/v1/nks/clusters/${ids.cluster}/pools` }, count: 1, action: { type: 'latency', ms: 2500 } });
  const posts = [];
  page.on('request', (r) => r.method() === 'POST' && new URL(r.url()).pathname.endsWith('/pools') && posts.push(r));
  await create.click();
  const creating = page.getByRole('button', { name: 'Creating…' });
  await creating.waitFor();
  assert.equal(await creating.isDisabled(), true);
  await creating.click({ force: true }).catch(() => {});
  await page.getByRole('status').filter({ hasText: 'Create pool — operation' }).waitFor({ timeout: 15_000 });
  assert.equal(posts.length, 1, 'one POST for a double submit');
  await context.close();
});

test('a page whose code does not arrive says so, keeps the console usable, and loads on retry', async () => {
  const { context, page } = await openPage(browser);
  // The operations page is split off (src/app/lazy.rs): its module is fetched on first visit.
  let refuse = true;
  const refused = [];
  await page.route(/\/split_operations_page-[0-9a-f]{16}\.wasm$/, (route) => {
    if (!refuse) return route.continue();
    refused.push(route.request().url());
    return route.abort('connectionfailed');
  });
  await page.goto(`${sim.url}/projects/${ids.project}/clusters`);
  await connect(page);
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Operations' }).click();
  await page.getByRole('heading', { name: 'This page could not be loaded' }).waitFor();
  assert.ok(refused.length >= 1, 'the page module was requested and refused');
  await shot(page, 'lazy-page-failed');
  // The rest of the console still works: another page opens.
  await nav.getByRole('link', { name: 'Clusters' }).click();
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  await nav.getByRole('link', { name: 'Operations' }).click();
  await page.getByRole('heading', { name: 'This page could not be loaded' }).waitFor();
  refuse = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await page.getByRole('table', { name: 'Operations' }).waitFor();
  await context.close();
});
