// Operations an on-call operator can trust: an ended operation's time stays
// fixed, an operation the API forgets ends as "no longer known" instead of
// hanging, and "unknown" says what it means. Each test starts from a fresh demo
// world.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, shot, DEMO_KEY } from './harness.mjs';

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
  ids = { project: production.id, cluster: cluster.id, baseline: pool('baseline'), zero: pool('batch-zero') };
});

/** Scales a pool through the API, as another tool would. */
async function scale(pool, count) {
  const res = await fetch(`${sim.url}/v1/nks/clusters/${ids.cluster}/pools/${pool}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${DEMO_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ node_count: count }),
  });
  assert.ok(res.ok, `PATCH answered ${res.status}`);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const poolPath = () => `/projects/${ids.project}/clusters/${ids.cluster}/pools/${ids.baseline}`;

async function open(path, size) {
  const { context, page } = await openPage(browser, size);
  await page.goto(sim.url + path);
  await connect(page);
  return { context, page };
}

test('an ended operation shows the time it took, and that time stays fixed', async () => {
  const { context, page } = await open(poolPath());
  const nodes = page.getByRole('table', { name: 'Nodes' });
  await nodes.waitFor();
  const node = (await nodes.getByRole('row').nth(1).getByRole('cell').first().textContent()).trim();
  await page.getByRole('button', { name: `Delete node ${node}` }).click();
  const dialog = page.getByRole('dialog', { name: `Delete node ${node}` });
  await dialog.getByLabel(`Type ${node} to confirm`).fill(node);
  await dialog.getByRole('button', { name: 'Delete node' }).click();
  const progress = dialog.getByRole('status').filter({ hasText: 'is done' });
  await progress.waitFor({ timeout: 30_000 });
  const first = (await progress.textContent()).trim();
  await sleep(2_500);
  const later = (await progress.textContent()).trim();
  assert.match(first, /done · \d+ s/);
  assert.equal(later, first, 'the elapsed time of an ended operation does not keep counting');
  await context.close();
});

test('an operation the API no longer knows ends as such, and nothing is left in flight', async () => {
  // Slow enough that the update is still pending when the world is reset.
  await sim.control('POST', '/_sim/time-scale', { time_scale: 1 });
  const { context, page } = await open(`${poolPath()}/edit`);
  await page.getByLabel('Node count').fill('4');
  await page.getByText(/Scaling up from 3 to 4: safe/).waitFor();
  await page.getByRole('button', { name: 'Save' }).click();
  const progress = page.getByRole('status').filter({ hasText: 'Update pool — operation' });
  await progress.waitFor();
  await page.getByText('1 operation in flight').waitFor();

  // A restarted API: the operation's id now answers 404.
  await sim.control('POST', '/_sim/reset', { seed: 'demo', time_scale: 1 });
  await assert.doesNotReject(progress.getByText('no longer known', { exact: true }).waitFor({ timeout: 20_000 }));
  await assert.doesNotReject(page.getByText(/no longer known to the API \(it answered 404\)/).first().waitFor());
  await assert.doesNotReject(page.getByText('0 operations in flight').waitFor());
  await assert.doesNotReject(page.getByRole('button', { name: 'Check now' }).waitFor());
  await shot(page, 'operation-lost');
  // No longer asked about.
  await sim.control('DELETE', '/_sim/requests');
  await sleep(3_000);
  const counts = await sim.control('GET', '/_sim/requests');
  const asked = Object.keys(counts.by_path).filter((p) => p.startsWith('GET /v1/operations'));
  assert.deepEqual(asked, [], 'the lost operation is not polled any more');
  await context.close();
});

test('a success notice leaves by itself; a failure stays until closed by keyboard; neither covers the page', async () => {
  // Started elsewhere (as another tool would), adopted when the page opens: an
  // update the platform fails, and one that ends well.
  await sim.control('POST', '/_sim/time-scale', { time_scale: 0.05 });
  await sim.control('POST', '/_sim/operations/next', { outcome: 'failed', kind: 'nks_node_pool' });
  await scale(ids.baseline, 4);
  await scale(ids.zero, 1);
  const { context, page } = await open(`/projects/${ids.project}/clusters/${ids.cluster}`);
  await page.getByRole('heading', { name: 'edge-prod' }).waitFor();
  const notices = page.locator('.notices');
  const failed = notices.getByRole('status').filter({ hasText: 'the platform ran the operation and it failed' });
  const done = notices.getByRole('status').filter({ hasText: 'Update pool: done.' });
  await failed.waitFor({ timeout: 30_000 });
  await done.waitFor({ timeout: 30_000 });

  // Nothing is drawn over the page's content: the notices sit above it.
  const [box, heading] = [await notices.boundingBox(), await page.getByRole('heading', { name: 'edge-prod' }).boundingBox()];
  assert.ok(box.y + box.height <= heading.y, 'the notices end before the page heading starts');
  assert.notEqual(await notices.evaluate((n) => getComputedStyle(n).position), 'fixed');
  await shot(page, 'notices');

  await assert.doesNotReject(done.waitFor({ state: 'detached', timeout: 12_000 }), 'the success notice left by itself');
  await sleep(1_000);
  assert.equal(await failed.count(), 1, 'the failure stays');
  await failed.getByRole('button', { name: 'Dismiss' }).focus();
  await page.keyboard.press('Enter');
  await assert.doesNotReject(failed.waitFor({ state: 'detached', timeout: 2_000 }));
  await context.close();
});
