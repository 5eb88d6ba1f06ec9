// Operations, end to end: operations started through the API (as another tool
// would) are adopted by the console and followed by its one poller to the end;
// failures read as the platform's, `unknown` keeps being polled, deadlines end in
// "ran out of time" without a re-issue, a reload resumes, two tabs share one
// poller, and fifty operations cost what one does.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, shot, DEMO_KEY } from './harness.mjs';

/** The PATCH routes called and how often: the changes, not the cost quotes
 *  (`PATCH …/cost` prices a change and changes nothing; the cluster page asks for one). */
const mutations = (counts) =>
  Object.entries(counts.by_route).filter(([r]) => r.startsWith('PATCH ') && !r.endsWith('/cost'));

let sim;
let browser;

before(async () => {
  sim = await startSim({ timeScale: '0.01' });
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
  await sim?.stop();
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(method, route, body) {
  const res = await fetch(sim.url + route, {
    method,
    headers: { authorization: `Bearer ${DEMO_KEY}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  assert.ok(res.ok, `${method} ${route} answered ${res.status}: ${await res.clone().text()}`);
  return res.json();
}

/** A fresh world (ids change on every reset) and what the tests need from it. */
async function reset({ seed = 'demo', timeScale = 0.01 } = {}) {
  await sim.control('POST', '/_sim/reset', { seed });
  await sim.control('POST', '/_sim/time-scale', { time_scale: timeScale });
  const projects = await call('GET', '/v1/projects');
  const project = (name) => projects.items.find((p) => p.name === name);
  return { project };
}

async function demoPools() {
  const prod = (await call('GET', '/v1/projects')).items.find((p) => p.name === 'Production');
  const cluster = (await call('GET', `/v1/nks/clusters?project_id=${prod.id}`)).items[0];
  const pools = (await call('GET', `/v1/nks/clusters/${cluster.id}/pools`)).items;
  return { prod, cluster, baseline: pools.find((p) => p.name === 'baseline') };
}

const scale = (pool, count) =>
  call('PATCH', `/v1/nks/clusters/${pool.cluster_id}/pools/${pool.id}`, { node_count: count });

/** Requests the simulator served whose route starts with `GET /v1/operations`. */
async function operationRequests() {
  const counts = await sim.control('GET', '/_sim/requests');
  return Object.entries(counts.by_route)
    .filter(([route]) => route.startsWith('GET /v1/operations'))
    .reduce((sum, [, n]) => sum + n, 0);
}

async function pollsOf(opId) {
  const counts = await sim.control('GET', '/_sim/requests');
  return counts.by_path[`GET /v1/operations/${opId}`] ?? 0;
}

async function openConsole(path, { context } = {}) {
  let page;
  if (context) {
    page = await context.newPage();
    page.requestsMade = [];
    page.on('request', (req) => page.requestsMade.push({ url: req.url() }));
  } else {
    ({ context, page } = await openPage(browser));
  }
  await page.goto(sim.url + path);
  await connect(page);
  return { context, page };
}

const indicator = (page) => page.getByRole('link', { name: /operations? in flight/i });

async function inFlight(page, n) {
  const text = n === 1 ? '1 operation in flight' : `${n} operations in flight`;
  await indicator(page).filter({ hasText: text }).waitFor({ timeout: 15_000 });
}

const notice = (page, text) => page.getByRole('status').filter({ hasText: text });

test('an operation started elsewhere is adopted and followed from running to done, with a notice', async () => {
  await reset({ timeScale: 0.05 }); // a pool update takes 6 s
  const { prod, baseline } = await demoPools();
  const op = await scale(baseline, 4);
  const { context, page } = await openConsole(`/projects/${prod.id}/operations`);
  await inFlight(page, 1);
  const table = page.getByRole('table', { name: 'Operations' });
  const row = table.getByRole('row').filter({ hasText: 'node_count: 3 → 4' });
  await row.filter({ hasText: /pending|running/ }).waitFor();
  await assert.doesNotReject(row.getByRole('link', { name: 'edge-prod / baseline' }).waitFor());
  await shot(page, 'operations-running');

  await notice(page, 'Update pool: done.').waitFor({ timeout: 15_000 });
  await row.filter({ hasText: 'done' }).waitFor();
  await inFlight(page, 0);
  assert.equal((await call('GET', `/v1/operations/${op.id}`)).status, 'done');
  await shot(page, 'operations-done');

  // Filters live in the URL, so they survive a reload.
  await page.getByLabel('Status').selectOption('done');
  await page.waitForURL(/[?&]status=done/);
  await page.getByLabel('Kind').selectOption('nks_node_pool');
  await page.waitForURL(/[?&]kind=nks_node_pool/);
  await page.reload();
  await table.waitFor();
  assert.equal(await page.getByLabel('Status').inputValue(), 'done');
  assert.equal(await page.getByLabel('Kind').inputValue(), 'nks_node_pool');
  const statuses = await table.getByRole('row').allTextContents();
  assert.ok(statuses.length > 1);
  for (const r of statuses.slice(1)) assert.match(r, /done/);
  await context.close();
});

test('a failed operation is reported in the guide\'s words, as the platform\'s failure, and never re-sent', async () => {
  // The operation starts before the console opens and must still be in flight when
  // the console lists what to follow: 6 s (not 1.2 s) leaves room for a cold load.
  await reset({ timeScale: 0.05 });
  const { prod, cluster, baseline } = await demoPools();
  await sim.control('POST', '/_sim/operations/next', { outcome: 'failed', kind: 'nks_node_pool' });
  await scale(baseline, 5);
  const { context, page } = await openConsole(`/projects/${prod.id}/clusters/${cluster.id}`);
  const failed = notice(page, 'the platform ran the operation and it failed');
  await failed.waitFor({ timeout: 15_000 });
  const text = await failed.textContent();
  assert.match(text, /^Update pool: /);
  assert.doesNotMatch(text, /reach the API|Temporary|try later/);
  assert.equal(await page.getByText('Cannot reach the API.').count(), 0, 'not an outage');
  await shot(page, 'operation-failed');
  const counts = await sim.control('GET', '/_sim/requests');
  const patches = mutations(counts);
  assert.deepEqual(patches.map(([, n]) => n), [1], 'the mutation went out once: ours, from the test');
  await context.close();
});

test('an operation stuck in unknown keeps being polled until it ends', async () => {
  await reset();
  const { prod, cluster, baseline } = await demoPools();
  await sim.control('POST', '/_sim/operations/next', { outcome: 'unknown', unknown_ms: 8000 });
  const op = await scale(baseline, 4);
  const { context, page } = await openConsole(`/projects/${prod.id}/clusters/${cluster.id}`);
  await inFlight(page, 1);
  assert.equal((await call('GET', `/v1/operations/${op.id}`)).status, 'unknown');
  const first = await pollsOf(op.id);
  await sleep(3500);
  const later = await pollsOf(op.id);
  assert.ok(later > first, `still polled while unknown: ${first} → ${later}`);
  await inFlight(page, 1);
  await notice(page, 'Update pool: done.').waitFor({ timeout: 15_000 });
  await context.close();
});

test('a deadline passing says "ran out of time", re-sends nothing, and keep watching resumes', async () => {
  await reset();
  const { prod, cluster, baseline } = await demoPools();
  await sim.control('POST', '/_sim/operations/next', { outcome: 'unknown', unknown_ms: 60_000 });
  const op = await scale(baseline, 4);
  const { context, page } = await openPage(browser);
  await context.addInitScript(() => localStorage.setItem('nks-console.deadline-secs', '3'));
  await page.goto(`${sim.url}/projects/${prod.id}/clusters/${cluster.id}`);
  await connect(page);
  const expired = notice(page, 'ran out of time');
  await expired.waitFor({ timeout: 15_000 });
  await inFlight(page, 0);
  await shot(page, 'operation-out-of-time');
  const stopped = await pollsOf(op.id);
  await sleep(1500);
  assert.equal(await pollsOf(op.id), stopped, 'no polling after the deadline until asked');
  await expired.getByRole('button', { name: 'Keep watching' }).click();
  await inFlight(page, 1);
  await sleep(1500);
  assert.ok((await pollsOf(op.id)) > stopped, 'polling resumed');
  const counts = await sim.control('GET', '/_sim/requests');
  const patches = mutations(counts);
  assert.deepEqual(patches.map(([, n]) => n), [1], 'never re-issued');
  await context.close();
});

test('a reload mid-operation resumes following it from the saved id, never the key', async () => {
  const { project } = await reset({ timeScale: 0.2 }); // 24 s: outlives the test
  const { prod, cluster, baseline } = await demoPools();
  const op = await scale(baseline, 4);
  const { context, page } = await openConsole(`/projects/${prod.id}/clusters/${cluster.id}`);
  await inFlight(page, 1);
  const saved = await page.evaluate(() => localStorage.getItem('nks-console.operations'));
  assert.deepEqual(JSON.parse(saved), [op.id]);
  assert.ok(!saved.includes(DEMO_KEY));
  // On another project, adoption would not find it: only the saved id brings it back.
  await page.getByLabel('Project', { exact: true }).selectOption({ label: 'Staging' });
  await page.waitForURL(new RegExp(`/projects/${project('Staging').id}/clusters`));
  await page.reload();
  await inFlight(page, 1);
  const before = await pollsOf(op.id);
  await sleep(2500);
  assert.ok((await pollsOf(op.id)) > before, 'followed after the reload');
  await context.close();
});

test('two tabs share one poller, and the second takes over when the first closes', async () => {
  await reset({ timeScale: 1 }); // a pool update takes 2 min
  const { prod, cluster, baseline } = await demoPools();
  await scale(baseline, 4);
  const path = `/projects/${prod.id}/clusters/${cluster.id}`;
  const { context, page: first } = await openConsole(path);
  await inFlight(first, 1);
  await sleep(1000);
  const WINDOW = 6000;

  await sim.control('DELETE', '/_sim/requests');
  await sleep(WINDOW);
  const oneTab = await operationRequests();

  const { page: second } = await openConsole(path, { context });
  await inFlight(second, 1);
  // The header can show the shared state before the cluster page (loaded on first
  // use) has made its own first reads, its recent operations among them. Those are
  // the page's reads, not polling: let them land before counting.
  await second.locator('ul.recent-ops').or(second.getByText('No operations on this cluster.')).waitFor();
  await sim.control('DELETE', '/_sim/requests');
  second.requestsMade.length = 0;
  await sleep(WINDOW);
  const twoTabs = await operationRequests();
  const fromSecond = second.requestsMade.filter((r) => new URL(r.url).pathname.startsWith('/v1/operations'));
  console.log(`operation requests in ${WINDOW} ms: one tab ${oneTab}, two tabs ${twoTabs}`);
  assert.equal(
    fromSecond.length,
    0,
    `the second tab follows; it does not poll (it asked for ${fromSecond.map((r) => r.url).join(', ')})`,
  );
  assert.ok(twoTabs <= oneTab, `two tabs ${twoTabs} > one tab ${oneTab}`);

  await first.close();
  const deadline = Date.now() + 15_000;
  while (!second.requestsMade.some((r) => new URL(r.url).pathname.startsWith('/v1/operations/'))) {
    assert.ok(Date.now() < deadline, 'the second tab took over polling');
    await sleep(250);
  }
  await inFlight(second, 1);
  await context.close();
});

test('fifty operations in flight cost the same requests as one', async () => {
  const { project } = await reset({ seed: 'large', timeScale: 1 });
  const large = project('Large');
  const big = (await call('GET', `/v1/nks/clusters?project_id=${large.id}&limit=100`)).items.find((c) => c.name === 'big');
  const pools = (await call('GET', `/v1/nks/clusters/${big.id}/pools?limit=100`)).items.slice(0, 50);
  const WINDOW = 6000;
  const measure = async (n) => {
    const { context, page } = await openConsole(`/projects/${large.id}/clusters`);
    await inFlight(page, n);
    await sleep(1000);
    await sim.control('DELETE', '/_sim/requests');
    await sleep(WINDOW);
    const count = await operationRequests();
    await context.close();
    return count;
  };
  const other = (pool) => (pool.node_count > 0 ? pool.node_count - 1 : 1);
  await scale(pools[0], other(pools[0]));
  const one = await measure(1);
  for (const pool of pools.slice(1)) await scale(pool, other(pool));
  const fifty = await measure(50);
  console.log(`operation requests in ${WINDOW} ms: 1 op ${one}, 50 ops ${fifty}`);
  assert.ok(fifty <= one + 1, `50 ops made ${fifty} requests, 1 op ${one}`);
});
