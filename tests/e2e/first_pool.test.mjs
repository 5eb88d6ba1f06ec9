// Create a cluster with its first pool: without a pool a new cluster never
// finishes provisioning, so the form holds one (on by default, removable), with
// Create pool's fields. Apply creates the cluster, follows its operation to done,
// then creates the pool in it. A cluster that is not made sends no pool; a pool
// that is not made says so and leads to Create pool, pre-filled.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, shot, DEMO_KEY } from './harness.mjs';

let sim;
let browser;
let project;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(method, route, body) {
  const res = await fetch(sim.url + route, {
    method,
    headers: { authorization: `Bearer ${DEMO_KEY}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  assert.ok(res.ok, `${method} ${route} answered ${res.status}: ${await res.clone().text()}`);
  return res.status === 204 ? null : res.json();
}

before(async () => {
  sim = await startSim({ seed: 'empty', timeScale: '0.01' });
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
  await sim?.stop();
});

// The empty world: one project, one free VPC, no cluster.
beforeEach(async () => {
  await sim.control('POST', '/_sim/reset', { seed: 'empty' });
  await sim.control('POST', '/_sim/time-scale', { time_scale: 0.01 });
  project = (await call('GET', '/v1/projects')).items.find((p) => p.name === 'Production').id;
});

async function open(width = 1280) {
  const { context, page } = await openPage(browser, { width });
  await page.goto(`${sim.url}/projects/${project}/clusters/new`);
  await connect(page);
  await page.getByRole('heading', { name: 'Create cluster' }).waitFor();
  await page.getByLabel('Kubernetes version').waitFor();
  return { context, page };
}

const plan = (page) => page.getByRole('complementary', { name: 'Plan' });
const firstPool = (page) => page.getByRole('group', { name: 'First pool' });
const fieldOf = (page, label) => page.locator('div.field').filter({ has: page.getByLabel(label, { exact: true }) });
const CREATE_POOL = 'POST /v1/nks/clusters/{cluster_id}/pools';

// The cluster's own fields; the first pool keeps its defaults unless a test changes them.
async function fill(page) {
  await page.getByLabel('Name', { exact: true }).fill('web');
  await page.getByLabel('Kubernetes version').selectOption('v1.34.4');
  await page.getByLabel('VPC', { exact: true }).selectOption({ index: 1 });
  await page.getByRole('radio', { name: 'Off' }).check();
  await page.getByLabel('Tags', { exact: true }).fill('shop');
}

async function requests() {
  await sleep(300);
  const { by_route } = await sim.control('GET', '/_sim/requests');
  return by_route;
}

test('the first pool is on by default with sensible values; the plan shows cluster and pool; Apply makes the cluster, then the pool in it', async () => {
  const { context, page } = await open();
  // Said why, and filled in: a name, the smallest instance type, one node.
  await assert.doesNotReject(firstPool(page).getByText(/never finishes provisioning without a worker node/).waitFor());
  assert.equal(await page.getByLabel('Pool name').inputValue(), 'baseline');
  await page.waitForFunction(() => document.querySelector('#pool-instance-type')?.value === 'n1-highcpu-2');
  assert.equal(await page.getByLabel('Node count').inputValue(), '1');
  assert.equal(await page.getByLabel('Boot volume size (GB)').inputValue(), '128');
  await fill(page);
  await page.getByLabel('Labels').fill('role=baseline');

  // The plan: the cluster's availability and cost, and the pool with its quota need.
  await assert.doesNotReject(plan(page).getByText('Availability: can be done.').waitFor({ timeout: 10_000 }));
  const clusterRows = await plan(page).getByRole('table', { name: 'Cost' }).getByRole('row').allTextContents();
  assert.ok(clusterRows.some((r) => r.includes('$73.0000')), clusterRows.join(' | '));
  const poolPart = plan(page).getByRole('region', { name: 'First pool' });
  await assert.doesNotReject(poolPart.getByText('1 node of n1-highcpu-2, 128 GB abs boot volume each').waitFor());
  await assert.doesNotReject(poolPart.getByText(/prices a pool only inside an existing cluster/).waitFor());
  const quota = await plan(page).getByRole('list', { name: 'Quota' }).textContent();
  assert.match(quota, /vCPU/);
  await assert.doesNotReject(plan(page).getByText(/The first pool is sent once the cluster's operation is done/).waitFor());
  await shot(page, 'first-pool-form-1280');

  // A slower cluster, so the wait for it can be seen.
  await sim.control('POST', '/_sim/time-scale', { time_scale: 0.04 });
  await sim.control('DELETE', '/_sim/requests');
  await page.getByRole('button', { name: 'Create cluster and pool' }).click();
  await assert.doesNotReject(page.getByRole('status').filter({ hasText: 'Creating cluster web; pool baseline follows once it is ready.' }).waitFor({ timeout: 10_000 }));
  await assert.doesNotReject(page.getByRole('status').filter({ hasText: 'Create cluster web — operation' }).waitFor());
  await assert.doesNotReject(page.getByText('Pool baseline: sent once the cluster is ready.').waitFor());
  await shot(page, 'first-pool-progress-1280');
  assert.equal((await requests())[CREATE_POOL] ?? 0, 0, 'no pool create while the cluster is being made');
  await sim.control('POST', '/_sim/time-scale', { time_scale: 0.01 });

  // Once the cluster is done the pool is sent, and its operation's page opens the pool.
  await page.waitForURL(new RegExp(`/projects/${project}/operations/[0-9a-f-]{36}\\?cluster=`), { timeout: 60_000 });
  await assert.doesNotReject(page.getByRole('heading', { name: 'baseline', exact: true }).waitFor({ timeout: 40_000 }));

  const web = (await call('GET', `/v1/nks/clusters?project_id=${project}`)).items.find((c) => c.name === 'web');
  const pools = (await call('GET', `/v1/nks/clusters/${web.id}/pools`)).items;
  assert.equal(pools.length, 1);
  assert.equal(pools[0].name, 'baseline');
  assert.equal(pools[0].node_count, 1);
  assert.equal(pools[0].node_config.instance_type, 'n1-highcpu-2');
  assert.deepEqual(pools[0].node_config.labels, ['role=baseline']);
  const ops = (await call('GET', `/v1/operations?project_id=${project}&type=create`)).items;
  const clusterOp = ops.find((o) => o.kind === 'nks_cluster');
  const poolOp = ops.find((o) => o.kind === 'nks_node_pool');
  assert.equal(clusterOp.status, 'done');
  assert.ok(poolOp.created_at >= clusterOp.updated_at, `the pool (${poolOp.created_at}) was sent after the cluster was done (${clusterOp.updated_at})`);
  const counts = await requests();
  assert.equal(counts['POST /v1/nks/clusters'], 1, 'one cluster create');
  assert.equal(counts[CREATE_POOL], 1, 'one pool create');

  // Both steps are in the operations feed.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operations' }).click();
  const table = page.getByRole('table', { name: 'Operations' });
  await table.waitFor();
  await assert.doesNotReject(table.getByRole('row').filter({ hasText: 'baseline' }).first().waitFor());
  const rows = await table.getByRole('row').allTextContents();
  assert.ok(rows.some((r) => /cluster/i.test(r) && /web/.test(r)), rows.join(' | '));
  assert.ok(rows.some((r) => /pool/i.test(r) && /baseline/.test(r)), rows.join(' | '));
  await shot(page, 'first-pool-feed');
  await context.close();
});

test('a cluster whose operation fails sends no pool, says so, and the form keeps everything typed', async () => {
  const { context, page } = await open();
  await fill(page);
  await page.getByLabel('Pool name').fill('workers');
  await page.getByLabel('Node count').fill('3');
  await plan(page).getByText('Availability: can be done.').waitFor({ timeout: 10_000 });
  await sim.control('POST', '/_sim/operations/next', { outcome: 'failed', kind: 'nks_cluster' });
  await sim.control('DELETE', '/_sim/requests');
  await page.getByRole('button', { name: 'Create cluster and pool' }).click();
  const failed = page.getByRole('alert').filter({ hasText: 'The platform ran the operation and it failed.' });
  await assert.doesNotReject(failed.waitFor({ timeout: 30_000 }));
  assert.match(await failed.textContent(), /Create cluster web/);
  await assert.doesNotReject(page.getByRole('status').filter({ hasText: 'Pool workers was not sent: cluster web was not made.' }).waitFor());
  await sleep(1500); // nothing goes out late either
  const counts = await requests();
  assert.equal(counts['POST /v1/nks/clusters'], 1);
  assert.equal(counts[CREATE_POOL] ?? 0, 0, 'no pool create after a failed cluster');
  // Everything typed is still there.
  assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), 'web');
  assert.equal(await page.getByLabel('Tags', { exact: true }).inputValue(), 'shop');
  assert.equal(await page.getByLabel('Pool name').inputValue(), 'workers');
  assert.equal(await page.getByLabel('Node count').inputValue(), '3');
  assert.equal(await page.getByLabel('Instance type').inputValue(), 'n1-highcpu-2');
  await shot(page, 'first-pool-cluster-failed');
  await context.close();
});

test('a pool the API refuses after the cluster is made: said clearly, and Create pool for the new cluster holds it for a retry', async () => {
  const { context, page } = await open();
  await fill(page);
  await page.getByLabel('Pool name').fill('workers');
  await page.getByLabel('Node count').fill('2');
  await page.getByLabel('Labels').fill('tier=web');
  await plan(page).getByText('Availability: can be done.').waitFor({ timeout: 10_000 });
  await page.getByRole('button', { name: 'Create cluster and pool' }).click();
  await page.getByRole('status').filter({ hasText: 'Create cluster web — operation' }).waitFor({ timeout: 10_000 });
  // Only the pool's create (the cluster's is POST /v1/nks/clusters, with no slash after).
  await sim.control('POST', '/_sim/faults', {
    match: { method: 'POST', path_prefix: '/v1/nks/clusters/' },
    count: 1,
    action: { type: 'status', status: 422, message: 'quota exceeded: nks.vcpu allows 8 in us-sva-2 and 2 remain' },
  });
  await assert.doesNotReject(page.getByRole('status').filter({ hasText: 'Cluster web is made, but pool workers was not.' }).waitFor({ timeout: 60_000 }));
  await assert.doesNotReject(page.getByText(/quota exceeded: nks\.vcpu allows 8/).first().waitFor());
  await assert.doesNotReject(page.getByRole('status').filter({ hasText: 'Cluster web is made; pool workers is not.' }).waitFor());
  await shot(page, 'first-pool-pool-refused');
  await sim.control('DELETE', '/_sim/faults');
  assert.equal((await requests())[CREATE_POOL], 1, 'the refused pool is not sent again by itself');

  // The way on: Create pool for web, holding what was typed for the pool.
  await page.getByRole('link', { name: 'Create pool workers in web' }).click();
  await page.getByRole('heading', { name: 'Create pool for web' }).waitFor();
  assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), 'workers');
  assert.equal(await page.getByLabel('Node count').inputValue(), '2');
  assert.equal(await page.getByLabel('Labels').inputValue(), 'tier=web');
  await page.waitForFunction(() => document.querySelector('#pool-instance-type')?.value === 'n1-highcpu-2');
  await page.getByRole('button', { name: 'Create pool' }).click();
  await assert.doesNotReject(page.getByRole('heading', { name: 'workers', exact: true }).waitFor({ timeout: 40_000 }));
  const web = (await call('GET', `/v1/nks/clusters?project_id=${project}`)).items.find((c) => c.name === 'web');
  const pools = (await call('GET', `/v1/nks/clusters/${web.id}/pools`)).items;
  assert.deepEqual(pools.map((p) => p.name), ['workers']);
  await context.close();
});

test('the first pool is checked before anything is sent, beside its fields; removing it says why a cluster needs one', async () => {
  const { context, page } = await open();
  await fill(page);
  await page.getByLabel('Pool name').fill('Bad_Name');
  await page.getByLabel('Node count').fill('0');
  await page.getByLabel('Instance type').selectOption('');
  await sim.control('DELETE', '/_sim/requests');
  await page.getByRole('button', { name: 'Create cluster and pool' }).click();
  await assert.doesNotReject(fieldOf(page, 'Pool name').getByRole('alert').filter({ hasText: 'capital letters' }).waitFor());
  await assert.doesNotReject(fieldOf(page, 'Node count').getByRole('alert').filter({ hasText: 'The first pool needs at least 1 node' }).waitFor());
  await assert.doesNotReject(fieldOf(page, 'Instance type').getByRole('alert').filter({ hasText: 'Choose an instance type.' }).waitFor());
  await assert.doesNotReject(page.getByText(/Nothing is sent until Pool name, Instance type and Node count are fixed|Nothing is sent until .*Pool name/).waitFor());
  // The focus goes to the first field in error.
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'pool-name');
  const counts = await requests();
  assert.equal(counts['POST /v1/nks/clusters'] ?? 0, 0, 'no cluster create');
  assert.equal(counts[CREATE_POOL] ?? 0, 0, 'no pool create');
  assert.equal(await page.getByLabel('Pool name').inputValue(), 'Bad_Name');
  await shot(page, 'first-pool-invalid-1280');

  // Removed: the form says what that means, and Apply creates only the cluster.
  await page.getByRole('button', { name: 'Remove first pool' }).click();
  await assert.doesNotReject(page.getByText(/No pool: without a worker node the new cluster never finishes provisioning/).waitFor());
  assert.equal(await page.getByLabel('Pool name').count(), 0);
  await assert.doesNotReject(page.getByRole('button', { name: 'Create cluster', exact: true }).waitFor());
  // Added back: what was typed is still there.
  await page.getByRole('button', { name: 'Add a first pool' }).click();
  assert.equal(await page.getByLabel('Pool name').inputValue(), 'Bad_Name');
  await context.close();
});

test('at 390 px the form with its first pool, the plan and the two steps stay readable', async () => {
  const { context, page } = await open(390);
  await fill(page);
  await plan(page).getByRole('region', { name: 'First pool' }).waitFor({ timeout: 10_000 });
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await shot(page, 'first-pool-form-390');
  assert.ok((await overflow()) <= 0, `no sideways scroll (${await overflow()} px)`);
  await sim.control('POST', '/_sim/time-scale', { time_scale: 0.04 });
  await page.getByRole('button', { name: 'Create cluster and pool' }).click();
  await page.getByText('Pool baseline: sent once the cluster is ready.').waitFor({ timeout: 10_000 });
  await shot(page, 'first-pool-progress-390');
  assert.ok((await overflow()) <= 0, `no sideways scroll in progress (${await overflow()} px)`);
  await context.close();
});

test('a reload while the cluster is being made loses nothing: the pool is still sent once the cluster is ready, and only once', async () => {
  const { context, page } = await open();
  await fill(page);
  await page.getByLabel('Pool name').fill('kept');
  await plan(page).getByText('Availability: can be done.').waitFor({ timeout: 10_000 });
  await sim.control('POST', '/_sim/time-scale', { time_scale: 0.03 });
  await sim.control('DELETE', '/_sim/requests');
  await page.getByRole('button', { name: 'Create cluster and pool' }).click();
  const waiting = page.getByRole('status').filter({ hasText: 'Creating cluster web; pool kept follows once it is ready.' });
  await waiting.waitFor({ timeout: 10_000 });
  await page.reload();
  await assert.doesNotReject(waiting.waitFor({ timeout: 15_000 }));
  await assert.doesNotReject(page.getByText('Pool kept: sent once the cluster is ready.').waitFor());
  await shot(page, 'first-pool-after-reload');
  await sim.control('POST', '/_sim/time-scale', { time_scale: 0.01 });
  await page.waitForURL(new RegExp(`/projects/${project}/operations/[0-9a-f-]{36}\\?cluster=`), { timeout: 60_000 });
  await assert.doesNotReject(page.getByRole('heading', { name: 'kept', exact: true }).waitFor({ timeout: 40_000 }));
  const counts = await requests();
  assert.equal(counts['POST /v1/nks/clusters'], 1, 'one cluster create');
  assert.equal(counts[CREATE_POOL], 1, 'one pool create');
  // Done: Create cluster starts afresh (web took the only VPC, so a new one is offered).
  await page.goto(`${sim.url}/projects/${project}/clusters/new`);
  await assert.doesNotReject(page.getByRole('button', { name: 'Create VPC, cluster and pool' }).waitFor());
  assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), '');
  assert.equal(await page.getByLabel('Pool name').inputValue(), 'baseline');
  await context.close();
});

test('a reload while the pool\'s create is on its way never sends it again, and says where to look', async () => {
  const { context, page } = await open();
  await fill(page);
  await plan(page).getByText('Availability: can be done.').waitFor({ timeout: 10_000 });
  await sim.control('DELETE', '/_sim/requests');
  await page.getByRole('button', { name: 'Create cluster and pool' }).click();
  await page.getByRole('status').filter({ hasText: 'Create cluster web — operation' }).waitFor({ timeout: 10_000 });
  // The pool's create (only it: POST under /v1/nks/clusters/) is held a while.
  await sim.control('POST', '/_sim/faults', { match: { method: 'POST', path_prefix: '/v1/nks/clusters/' }, count: 1, action: { type: 'latency', ms: 4000 } });
  await page.getByText('Pool baseline: sending the create…').waitFor({ timeout: 60_000 });
  await page.reload();
  const note = page.getByRole('status').filter({ hasText: "Pool baseline's create was sent before this page was reloaded" });
  await assert.doesNotReject(note.waitFor({ timeout: 15_000 }));
  assert.match(await note.textContent(), /not sent again/);
  await assert.doesNotReject(page.getByRole('link', { name: 'Create pool baseline in web' }).waitFor());
  await shot(page, 'first-pool-reload-while-sending');
  await sleep(5000); // the held create has long been answered; nothing else goes out
  await sim.control('DELETE', '/_sim/faults');
  const counts = await requests();
  assert.ok((counts[CREATE_POOL] ?? 0) <= 1, `the pool's create went out at most once (${counts[CREATE_POOL]})`);
  const web = (await call('GET', `/v1/nks/clusters?project_id=${project}`)).items.find((c) => c.name === 'web');
  const pools = (await call('GET', `/v1/nks/clusters/${web.id}/pools`)).items.filter((p) => p.name === 'baseline');
  assert.ok(pools.length <= 1, 'no second pool');
  // The link holds the pool as typed (the draft is rebuilt after the reload).
  await page.getByRole('link', { name: 'Create pool baseline in web' }).click();
  await page.getByRole('heading', { name: 'Create pool for web' }).waitFor();
  assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), 'baseline');
  await assert.doesNotReject(page.waitForFunction(() => document.querySelector('#pool-instance-type')?.value === 'n1-highcpu-2'));
  await context.close();
});
