// An operation's own page (/projects/…/operations/{id}): a submitted create or
// update lands there, so a reload or a shared link keeps its progress; it shows
// the statuses it was seen in, its changes, its time against the usual time of
// its kind, and its end: the resource, or the way back to the form holding what
// was asked. Each test starts from a fresh demo world.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, shot, apiCall, operationEnded } from './harness.mjs';

let sim;
let browser;
let ids;

before(async () => {
  sim = await startSim({ timeScale: '0.01' });
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
  await sim?.stop();
});

beforeEach(async () => {
  await sim.control('POST', '/_sim/reset', { seed: 'demo', time_scale: 0.01 });
  const projects = await sim.api('/v1/projects');
  const production = projects.items.find((p) => p.name === 'Production');
  const clusters = await sim.api(`/v1/nks/clusters?project_id=${production.id}`);
  const cluster = clusters.items.find((c) => c.name === 'edge-prod');
  const pools = await sim.api(`/v1/nks/clusters/${cluster.id}/pools`);
  const pool = (name) => pools.items.find((p) => p.name === name).id;
  ids = { project: production.id, cluster: cluster.id, baseline: pool('baseline') };
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const call = (method, route, body) => apiCall(sim, method, route, body);
/** Waits, through the API, until the operation has ended; returns it. */
const ended = (opId, timeout) => operationEnded(sim, opId, timeout);

async function open(path, size) {
  const { context, page } = await openPage(browser, size);
  await page.goto(sim.url + path);
  await connect(page);
  return { context, page };
}

/** Both widths of the page as it is now. */
async function shots(page, name) {
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 860 });
  await shot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 860 });
}

const opUrl = () => new RegExp(`/projects/${ids.project}/operations/([0-9a-f-]{36})(\\?.*)?$`);
const clusterPath = () => `/projects/${ids.project}/clusters/${ids.cluster}`;
const poolPath = () => `${clusterPath()}/pools/${ids.baseline}`;
const timeline = (page) => page.getByRole('list', { name: 'Statuses seen' });

test('Create cluster lands on its operation page; a reload keeps the progress, the end opens the cluster, and a shared link shows it', async () => {
  await sim.control('POST', '/_sim/time-scale', { time_scale: 0.03 }); // a cluster create takes 36 s
  const { context, page } = await open(`/projects/${ids.project}/clusters/new`);
  // This test is about the cluster alone: its first pool (on by default) is removed.
  await page.getByRole('button', { name: 'Remove first pool' }).click();
  await page.getByLabel('Name', { exact: true }).fill('edge-staging');
  await page.getByLabel('Kubernetes version').selectOption('v1.34.4');
  await page.getByLabel('VPC').selectOption({ label: 'prod-spare-vpc (10.21.0.0/24)' });
  await page.getByRole('radio', { name: 'On' }).check();
  const create = page.getByRole('button', { name: 'Create cluster' });
  await page.waitForFunction(() => !document.querySelector('button[type=submit]')?.disabled, null, { timeout: 10_000 });
  await create.click();

  await page.waitForURL(opUrl(), { timeout: 15_000 });
  const opId = page.url().match(opUrl())[1];
  const op = await call('GET', `/v1/operations/${opId}`);
  assert.deepEqual([op.kind, op.type], ['nks_cluster', 'create'], 'the page is the cluster create\'s');
  const progress = page.getByRole('status').filter({ hasText: `Create cluster — operation ${opId} is` });
  await assert.doesNotReject(progress.waitFor());
  await assert.doesNotReject(page.getByRole('heading', { name: 'Create cluster edge-staging', exact: true }).waitFor());

  // A reload keeps the progress: the page reads the operation and follows it.
  await page.reload();
  await assert.doesNotReject(progress.waitFor({ timeout: 15_000 }));
  assert.match(await progress.textContent(), /is (pending|running) · \d+ s/);
  const main = page.getByRole('main');
  await assert.doesNotReject(main.getByRole('link', { name: 'edge-staging', exact: true }).waitFor());
  await assert.doesNotReject(timeline(page).getByText('pending').waitFor());
  await shots(page, 'operation-running');
  assert.ok(page.url().endsWith(`/operations/${opId}`), 'still on the operation page');

  // Its end, watched: the cluster opens, as the form did.
  await assert.doesNotReject(page.getByRole('heading', { name: 'edge-staging', exact: true }).waitFor({ timeout: 60_000 }));
  assert.ok(page.url().endsWith(`/clusters/${op.resource_id}`), page.url());

  // The same address in a fresh browser (a shared link): the ended operation,
  // and its resource linked, not opened.
  const shared = await open(`/projects/${ids.project}/operations/${opId}`);
  const done = shared.page.getByRole('status').filter({ hasText: `Create cluster — operation ${opId} is done` });
  await assert.doesNotReject(done.waitFor({ timeout: 15_000 }));
  await assert.doesNotReject(shared.page.getByRole('heading', { name: 'Create cluster edge-staging', exact: true }).waitFor());
  const link = shared.page.getByRole('link', { name: 'Open the cluster edge-staging' });
  await assert.doesNotReject(link.waitFor());
  await sleep(1_000);
  assert.ok(shared.page.url().endsWith(`/operations/${opId}`), 'an operation that had ended is linked, not opened');
  const steps = await timeline(shared.page).getByRole('listitem').allTextContents();
  assert.equal(steps.length, 2, steps.join(' | '));
  assert.match(steps[0], /^pending \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  assert.match(steps[1], /^done \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  await assert.doesNotReject(shared.page.getByText(/^Took \d+ s\./).waitFor());
  await shots(shared.page, 'operation-done');
  await link.click();
  await assert.doesNotReject(shared.page.getByRole('heading', { name: 'edge-staging', exact: true }).waitFor());
  assert.ok(shared.page.url().endsWith(`/clusters/${op.resource_id}`), shared.page.url());
  await shared.context.close();
  await context.close();
});

test('an operation the API no longer knows shows as such on its page, followed or read after a reload', async () => {
  await sim.control('POST', '/_sim/time-scale', { time_scale: 1 }); // still running when the world restarts
  const { context, page } = await open(`${poolPath()}/edit`);
  await page.getByLabel('Node count').fill('4');
  await page.getByText(/Scaling up from 3 to 4: safe/).waitFor();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL(opUrl(), { timeout: 15_000 });
  const progress = page.getByRole('status').filter({ hasText: 'Update pool — operation' });
  await progress.waitFor();
  await assert.doesNotReject(page.getByRole('heading', { name: 'Update pool baseline', exact: true }).waitFor());
  await assert.doesNotReject(page.getByRole('list', { name: 'Changes' }).getByText('node_count: 3 → 4').waitFor());

  await sim.control('POST', '/_sim/reset', { seed: 'demo', time_scale: 1 });
  await assert.doesNotReject(progress.getByText('no longer known', { exact: true }).waitFor({ timeout: 20_000 }));
  await assert.doesNotReject(progress.getByText(/no longer known to the API \(it answered 404\)/).waitFor());
  await assert.doesNotReject(timeline(page).getByText('no longer known').waitFor());
  assert.equal(await page.getByText(/^Elapsed \d/).count(), 0, 'no time is claimed for a lost operation');
  await shots(page, 'operation-lost');

  // Read again after a reload: the API answers 404, and the page says so.
  await page.reload();
  const unknown = page.getByRole('status').filter({ hasText: 'no longer known' });
  await assert.doesNotReject(unknown.waitFor({ timeout: 15_000 }));
  await assert.doesNotReject(unknown.getByText(/no longer known to the API \(it answered 404\)/).waitFor());
  assert.equal(await page.getByText('Loading the operation…').count(), 0);
  await shot(page, 'operation-lost-reloaded');
  await context.close();
});

test('the usual time: none without history, then the median of past ones of the kind, a bar, and past it without calling it failed', async () => {
  // An ended cluster update, opened later: nothing of its kind ended before it.
  const first = await call('PATCH', `/v1/nks/clusters/${ids.cluster}`, { tags: ['one'] });
  await ended(first.id);
  const { context, page } = await open(`/projects/${ids.project}/operations/${first.id}`);
  await assert.doesNotReject(page.getByText('No usual time: no past cluster updates in this project ended yet.').waitFor({ timeout: 15_000 }));
  assert.equal(await page.getByRole('progressbar').count(), 0);

  // Two more, of 3 s each; then one through the form, at 30 s.
  await sim.control('POST', '/_sim/time-scale', { time_scale: 0.05 });
  for (const tags of [['two'], ['three']]) await ended((await call('PATCH', `/v1/nks/clusters/${ids.cluster}`, { tags })).id);
  await sim.control('POST', '/_sim/time-scale', { time_scale: 0.5 });
  await page.goto(`${sim.url}${clusterPath()}/edit`);
  await page.getByLabel('Tags').fill('four');
  await page.getByRole('button', { name: 'Save', disabled: false }).click();
  await page.waitForURL(opUrl(), { timeout: 15_000 });
  const usual = page.getByText(/Usually about (\d+) s, from 3 past cluster updates\./);
  await assert.doesNotReject(usual.waitFor({ timeout: 15_000 }));
  const about = Number((await usual.textContent()).match(/Usually about (\d+) s/)[1]);
  assert.ok(about >= 1 && about <= 4, `the median of three 3 s updates, not ${about} s`);
  const bar = page.getByRole('progressbar', { name: 'Time so far against the usual time' });
  await assert.doesNotReject(bar.waitFor());
  assert.equal(await bar.getAttribute('max'), String(about));
  // Past the usual time: said, without calling it failed; it is still followed.
  const past = page.getByText(/^Running past the usual time \(about \d+ s\) by \d+ s\./);
  await assert.doesNotReject(past.waitFor({ timeout: 15_000 }));
  assert.match(await past.textContent(), /does not mean it failed: it is still followed/);
  assert.equal(await bar.getAttribute('value'), await bar.getAttribute('max'), 'the bar is full');
  assert.match(await page.getByRole('status').filter({ hasText: 'Update cluster — operation' }).textContent(), /is (pending|running)/);
  await shots(page, 'operation-past-usual');
  await context.close();
});

test('a failed update shows the failure, and "Back to the form" returns to the form as it was filled', async () => {
  await sim.control('POST', '/_sim/operations/next', { outcome: 'failed', kind: 'nks_node_pool' });
  const { context, page } = await open(`${poolPath()}/edit`);
  await page.getByLabel('Node count').fill('6');
  await page.getByLabel('Tags').fill('asked, twice');
  await page.getByText(/Scaling up from 3 to 6: safe/).waitFor();
  await page.getByRole('button', { name: 'Save', disabled: false }).click();
  await page.waitForURL(opUrl(), { timeout: 15_000 });
  const failed = page.getByRole('alert').filter({ hasText: 'The platform ran the operation and it failed.' });
  await assert.doesNotReject(failed.waitFor({ timeout: 30_000 }));
  await assert.doesNotReject(page.getByText(/The API gives no reason for a failed operation/).waitFor());
  await assert.doesNotReject(timeline(page).getByText('failed').waitFor());
  await shots(page, 'operation-failed');
  await page.getByRole('link', { name: 'Back to the form, with what was asked' }).click();
  await page.getByRole('heading', { name: 'Edit pool baseline' }).waitFor();
  assert.ok(page.url().endsWith(`${poolPath()}/edit`), page.url());
  assert.equal(await page.getByLabel('Node count').inputValue(), '6');
  assert.equal(await page.getByLabel('Tags').inputValue(), 'asked, twice');
  await context.close();
});

test('a replacement pool\'s page ends on what to do with the old pool, and the operations list links each operation', async () => {
  const { context, page } = await open(`${clusterPath()}/pools/new?replace=${ids.baseline}`);
  await page.getByRole('heading', { name: 'Replace pool' }).waitFor();
  await page.waitForFunction(() => document.querySelector('#pool-name')?.value === 'baseline-v2');
  await page.getByRole('button', { name: 'Create pool', disabled: false }).click({ timeout: 15_000 });
  await page.waitForURL(opUrl(), { timeout: 15_000 });
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('cluster'), ids.cluster);
  assert.equal(url.searchParams.get('replace'), ids.baseline);
  const ready = page.getByRole('heading', { name: 'The replacement pool is ready' });
  await assert.doesNotReject(ready.waitFor({ timeout: 30_000 }));
  await assert.doesNotReject(page.getByLabel('Drain commands', { exact: true }).waitFor());
  await assert.doesNotReject(page.getByRole('link', { name: 'Then delete the old pool' }).waitFor());
  assert.ok(page.url().includes('/operations/'), 'a replacement stays on its page');
  const opId = url.pathname.split('/').pop();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operations' }).click();
  const row = page.getByRole('table', { name: 'Operations' }).getByRole('row').filter({ hasText: 'edge-prod / baseline-v2' });
  await row.getByRole('link', { name: 'Create pool' }).click();
  await page.waitForURL(opUrl());
  assert.equal(new URL(page.url()).pathname, `/projects/${ids.project}/operations/${opId}`);
  assert.equal(new URL(page.url()).searchParams.get('cluster'), ids.cluster, 'a pool\'s operation carries its cluster');
  await assert.doesNotReject(page.getByRole('link', { name: 'Open the pool baseline-v2' }).waitFor({ timeout: 15_000 }));
  await context.close();
});
