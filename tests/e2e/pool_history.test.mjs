// Pool size history (issue 23, item 2): the pool page's "Size history" draws
// the pool's node count over time from its operations, a marker per change
// named for its kind, and lists the same steps. Manual scale-downs (no drain)
// are told apart from the autoscaler's drains; a change the API does not
// attribute to the pool is shown as such, never guessed. Every expected step is
// computed here from the simulator's operations, never typed in.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, shot, demoIds, apiCall, operationEnded } from './harness.mjs';

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
  ids = await demoIds(sim);
});

const poolPath = (pool = ids.baseline) => `/projects/${ids.project}/clusters/${ids.cluster}/pools/${pool}`;
const poolApi = () => `/v1/nks/clusters/${ids.cluster}/pools/${ids.baseline}`;

async function open(width = 1280, pool = ids.baseline) {
  const { context, page } = await openPage(browser, { width, height: 900 });
  await page.goto(sim.url + poolPath(pool));
  await connect(page);
  return { context, page };
}

/** Every item of a list endpoint, through its pagination. */
async function all(route) {
  const items = [];
  let cursor = null;
  for (;;) {
    const sep = route.includes('?') ? '&' : '?';
    const page = await sim.api(`${route}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    items.push(...page.items);
    cursor = page.pagination?.next_cursor;
    if (!cursor || page.items.length === 0) return items;
  }
}

async function scale(count) {
  const op = await apiCall(sim, 'PATCH', poolApi(), { node_count: count });
  return operationEnded(sim, op.id);
}

async function deleteNode(nodeId) {
  const op = await apiCall(sim, 'DELETE', `${poolApi()}/nodes/${nodeId}`);
  return operationEnded(sim, op.id);
}

async function drainNode(nodeId) {
  const op = await sim.control('POST', '/_sim/drain', { cluster_id: ids.cluster, pool_id: ids.baseline, node_id: nodeId });
  assert.equal(op.details.changes.drained.to, true);
  return operationEnded(sim, op.id);
}

/** The changes the API's operations show for the pool, oldest first, with
 *  their kind as the console names it: the pool's updates of node_count, and
 *  the deletes of the nodes in `nodeIds`. */
async function changesFromApi(nodeIds) {
  const own = await all(`/v1/operations?project_id=${ids.project}&resource_id=${ids.baseline}`);
  const deletes = (await all(`/v1/operations?project_id=${ids.project}&kind=nks_node&type=delete`)).filter((o) =>
    nodeIds.includes(o.resource_id),
  );
  const changes = [];
  for (const op of own) {
    const c = op.details?.changes?.node_count;
    if (op.type !== 'update' || !c || op.status !== 'done') continue;
    changes.push({ at: op.created_at, from: c.from, to: c.to, kind: c.to > c.from ? 'scale-up' : 'manual scale-down: no drain' });
  }
  for (const op of deletes) {
    const c = op.details.changes.node_count;
    const drained = op.details.changes.drained?.to === true;
    changes.push({ at: op.updated_at, from: c.from, to: c.to, kind: drained ? 'autoscaler drain' : 'node deleted: no drain', node: op.resource_id });
  }
  return changes.sort((a, b) => a.at.localeCompare(b.at));
}

const section = (page) => page.getByRole('region', { name: 'Size history' });
const chart = (page) => section(page).getByRole('group', { name: 'Node count over time' });
const markerNames = async (page) =>
  Promise.all((await chart(page).getByRole('img').all()).map((m) => m.getAttribute('aria-label')));
/** Polls `read` until `done(value)` holds; returns the last value either way. */
async function until(read, done, timeout = 40_000) {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

const listItems = (page) => section(page).getByRole('list', { name: 'Size changes' }).getByRole('listitem');

test('a pool with only its create shows one flat step and says it has not changed size', async () => {
  // batch-zero's only operation is its create (baseline's seed has a scale-up).
  const own = await all(`/v1/operations?project_id=${ids.project}&resource_id=${ids.zero}`);
  assert.deepEqual(own.map((o) => o.type), ['create']);
  const { context, page } = await open(1280, ids.zero);
  await assert.doesNotReject(chart(page).waitFor({ timeout: 20_000 }));
  assert.deepEqual((await markerNames(page)).map((n) => n.split(',')[0]), ['Created']);
  await assert.doesNotReject(section(page).getByText('No size changes since it was created.').waitFor());
  assert.equal(await listItems(page).count(), 1);
  assert.match(await listItems(page).first().textContent(), /created; 0 node\(s\) now/);
  await context.close();
});

test('scale-up, manual scale-down, a node delete and an autoscaler drain are steps of their own kind, as the API\'s operations say', async () => {
  const { context, page } = await open();
  // The page reads the pool's nodes: their deletes are known to be this pool's.
  await page.getByRole('table', { name: 'Nodes' }).getByRole('row').nth(3).waitFor();
  const seen = (await all(`${poolApi()}/nodes`)).map((n) => n.id);
  await assert.doesNotReject(chart(page).waitFor({ timeout: 20_000 }));

  await scale(5);
  await scale(4); // manual: the platform terminates nodes without drain
  await drainNode(seen[0]);
  await deleteNode(seen[1]);
  const expected = await changesFromApi(seen);
  // The demo seed's own scale-up of baseline (2 → 3) comes first.
  assert.deepEqual(
    expected.map((c) => c.kind),
    ['scale-up', 'scale-up', 'manual scale-down: no drain', 'autoscaler drain', 'node deleted: no drain'],
  );

  // The page re-reads the pool on its own (at most 15 s) and the history with it.
  const names = await until(
    () => markerNames(page),
    (n) => n.length === 1 + expected.length && !n.some((x) => x.startsWith('Unattributed')),
  );
  assert.equal(names.length, 1 + expected.length, names.join('\n'));
  assert.match(names[0], /^Created/);
  const title = (kind) => kind[0].toUpperCase() + kind.slice(1);
  expected.forEach((c, i) => assert.ok(names[i + 1].startsWith(`${title(c.kind)}: ${c.from} → ${c.to}`), `${names[i + 1]} / ${c.kind}`));
  assert.ok(!names.some((n) => n.startsWith('Unattributed')), names.join('\n'));

  const items = await listItems(page).allTextContents();
  assert.equal(items.length, 1 + expected.length, items.join('\n'));
  assert.ok(items[0].includes(`created (its first count is not recorded; the first recorded change started from ${expected[0].from})`), items[0]);
  expected.forEach((c, i) => {
    assert.ok(items[i + 1].includes(`· ${c.from} → ${c.to} · ${c.kind}`), `${items[i + 1]} / ${JSON.stringify(c)}`);
    if (c.node) assert.ok(items[i + 1].includes(`(node ${c.node})`), items[i + 1]);
  });
  // Each kind has its words in the legend.
  const legend = await section(page).getByRole('list', { name: 'Legend' }).textContent();
  for (const words of ['scale-up', 'manual scale-down: no drain', 'autoscaler drain', 'unattributed change']) {
    assert.ok(legend.includes(words), legend);
  }
  // The chart's right end is the pool's count now.
  const pool = await apiCall(sim, 'GET', poolApi());
  assert.equal(pool.node_count, expected.at(-1).to);
  await section(page).scrollIntoViewIfNeeded();
  await shot(page, 'pool-history-1280');
  await context.close();

  // At 390 px, in a new tab, the nodes deleted before it opened are not known
  // to be this pool's: the API does not name a node delete's pool, so those two
  // steps are drawn as one change it does not attribute.
  const narrow = await open(390);
  await assert.doesNotReject(chart(narrow.page).waitFor({ timeout: 20_000 }));
  const narrowNames = await markerNames(narrow.page);
  assert.equal(narrowNames.length, 5, narrowNames.join('\n'));
  assert.match(narrowNames[4], /^Unattributed change: −2 between .* and now$/);
  await section(narrow.page).scrollIntoViewIfNeeded();
  await shot(narrow.page, 'pool-history-390');
  await narrow.context.close();
});

test('a change the pool\'s operations do not account for is drawn apart and said in words, between the changes around it', async () => {
  await scale(4);
  const nodes = (await all(`${poolApi()}/nodes`)).map((n) => n.id);
  // Deleted before any page saw the node: nothing ties the delete to this pool.
  const gone = await deleteNode(nodes[0]);
  assert.equal(gone.resource_id, nodes[0]);
  await scale(5);
  const later = (await all(`${poolApi()}/nodes`)).map((n) => n.id);
  await deleteNode(later[0]);
  const own = (await all(`/v1/operations?project_id=${ids.project}&resource_id=${ids.baseline}`))
    .filter((o) => o.details?.changes?.node_count)
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
  assert.deepEqual(own.map((o) => [o.details.changes.node_count.from, o.details.changes.node_count.to]), [[2, 3], [3, 4], [3, 5]]);

  const { context, page } = await open();
  await assert.doesNotReject(chart(page).waitFor({ timeout: 20_000 }));
  const names = await markerNames(page);
  assert.deepEqual(
    names.map((n) => n.split(':')[0].split(',')[0]),
    ['Created', 'Scale-up', 'Scale-up', 'Unattributed change', 'Scale-up', 'Unattributed change'],
    names.join('\n'),
  );
  assert.match(names[3], /^Unattributed change: −1 between .+ and .+$/);
  assert.match(names[5], /^Unattributed change: −1 between .+ and now$/);
  const items = await listItems(page).allTextContents();
  assert.equal(items.length, 6, items.join('\n'));
  assert.ok(items[3].startsWith('between '), items[3]);
  assert.ok(
    items[3].includes("· 4 → 3 · −1: nodes removed outside this pool's operations (the API does not name a node delete's pool)"),
    items[3],
  );
  assert.ok(items[5].includes(' and now · 5 → 4 · −1: nodes removed outside'), items[5]);
  // The unattributed changes are dashed on the chart; nothing else is.
  assert.equal(await chart(page).locator('line[stroke-dasharray]').count(), 2);
  await shot(page, 'pool-history-gap-1280');
  await context.close();
});

test('a failed read of the history shows the error with Retry, never an empty chart', async () => {
  await sim.control('POST', '/_sim/faults', {
    match: { method: 'GET', path_prefix: '/v1/operations' },
    action: { type: 'status', status: 503, message: 'operations down' },
  });
  const { context, page } = await open();
  const alert = section(page).getByRole('alert').filter({ hasText: 'operations down' });
  await assert.doesNotReject(alert.waitFor({ timeout: 30_000 }));
  assert.equal(await chart(page).count(), 0);
  assert.equal(await section(page).getByText('No size changes').count(), 0);
  // The rest of the page stands.
  await assert.doesNotReject(page.getByRole('table', { name: 'Nodes' }).waitFor());
  await shot(page, 'pool-history-error-1280');
  await sim.control('DELETE', '/_sim/faults');
  await alert.getByRole('button', { name: 'Retry' }).click();
  await assert.doesNotReject(chart(page).waitFor({ timeout: 20_000 }));
  assert.equal(await alert.count(), 0);
  await context.close();
});

test('a failed scale-up whose count the pool keeps is drawn as the count the API reports, marked failed', async () => {
  await sim.control('POST', '/_sim/operations/next', { outcome: 'failed', kind: 'nks_node_pool' });
  const failed = await scale(6);
  assert.equal(failed.status, 'failed');
  // The API keeps a failed update's count as the pool's desired count.
  const pool = await apiCall(sim, 'GET', poolApi());
  assert.equal(pool.node_count, 6);
  const { context, page } = await open();
  await assert.doesNotReject(chart(page).waitFor({ timeout: 20_000 }));
  const names = await markerNames(page);
  // After the seed's scale-up (2 → 3).
  assert.equal(names.length, 3, names.join('\n'));
  assert.match(names[2], /^Scale-up: 3 → 6, .*\(failed, yet the pool reads 6 since\)$/);
  const items = await listItems(page).allTextContents();
  assert.ok(items[2].includes('· 3 → 6 · scale-up (failed, yet the pool reads 6 since)'), items.join('\n'));
  await context.close();
});
