// Pool size history (issue 23, item 2): the pool page's "Size history" draws
// the pool's node count over time from its operations, a marker per change
// named for its kind, and lists the same steps. Manual scale-downs (no drain)
// are told apart from the autoscaler's drains; a change the API does not
// attribute to the pool is shown as such, never guessed. Every expected step is
// computed here from the simulator's operations, never typed in. The changes
// are made through the API and ended by the test (`control.finish`), a second
// apart on the simulator's clock, as the API's whole-second timestamps need.
import { test, expect, shot } from './fixtures.mjs';

const poolPath = (demo, pool = demo.baseline) => `/projects/${demo.project}/clusters/${demo.cluster}/pools/${pool}`;
const poolApi = (demo) => `/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}`;

const openPool = (open, demo, { width = 1280, pool = demo.baseline, context } = {}) =>
  open(poolPath(demo, pool), { width, height: 900, context });

/** Every item of a list endpoint, through its pagination. */
async function all(api, route) {
  const items = [];
  let cursor = null;
  for (;;) {
    const sep = route.includes('?') ? '&' : '?';
    const page = await api('GET', `${route}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    items.push(...page.items);
    cursor = page.pagination?.next_cursor;
    if (!cursor || page.items.length === 0) return items;
  }
}

/** The pool's changes, made through the API (as another tool would) and ended
 *  at once; the simulator's clock then moves a second on, so the next change
 *  is stamped later (the API's times are to the second). Each answers the
 *  ended operation. */
function changes({ api, control, demo }) {
  const end = async (op) => {
    await control.finish({ id: op.id });
    await control.advance(1_000);
    const ended = await api('GET', `/v1/operations/${op.id}`);
    expect(['done', 'failed'], `operation ${op.id} ended`).toContain(ended.status);
    return ended;
  };
  return {
    scale: async (count) => end(await api('PATCH', poolApi(demo), { node_count: count })),
    deleteNode: async (nodeId) => end(await api('DELETE', `${poolApi(demo)}/nodes/${nodeId}`)),
    drainNode: async (nodeId) => {
      const op = await control('POST', '/_sim/drain', { cluster_id: demo.cluster, pool_id: demo.baseline, node_id: nodeId });
      expect(op.details.changes.drained.to).toBe(true);
      return end(op);
    },
  };
}

/** The changes the API's operations show for the pool, oldest first, with
 *  their kind as the console names it: the pool's updates of node_count, and
 *  the deletes of the nodes in `nodeIds`. */
async function changesFromApi(api, demo, nodeIds) {
  const own = await all(api, `/v1/operations?project_id=${demo.project}&resource_id=${demo.baseline}`);
  const deletes = (await all(api, `/v1/operations?project_id=${demo.project}&kind=nks_node&type=delete`)).filter((o) =>
    nodeIds.includes(o.resource_id),
  );
  const found = [];
  for (const op of own) {
    const c = op.details?.changes?.node_count;
    if (op.type !== 'update' || !c || op.status !== 'done') continue;
    found.push({ at: op.created_at, from: c.from, to: c.to, kind: c.to > c.from ? 'scale-up' : 'manual scale-down: no drain' });
  }
  for (const op of deletes) {
    const c = op.details.changes.node_count;
    const drained = op.details.changes.drained?.to === true;
    found.push({ at: op.updated_at, from: c.from, to: c.to, kind: drained ? 'autoscaler drain' : 'node deleted: no drain', node: op.resource_id });
  }
  return found.sort((a, b) => a.at.localeCompare(b.at));
}

const section = (page) => page.getByRole('region', { name: 'Size history' });
const chart = (page) => section(page).getByRole('group', { name: 'Node count over time' });
const markers = (page) => chart(page).getByRole('img');
const listItems = (page) => section(page).getByRole('list', { name: 'Size changes' }).getByRole('listitem');
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A marker's name starting with `words`. */
const startsWith = (words) => new RegExp(`^${escape(words)}`);
/** A marker of kind `kind`: its name is the kind, then ':' or ',' or nothing. */
const ofKind = (kind) => new RegExp(`^${escape(kind)}([:,]|$)`);

/** The chart's markers, in order, their names matching `names` one by one. */
async function expectMarkers(page, names) {
  await expect(markers(page)).toHaveCount(names.length);
  for (const [i, name] of names.entries()) await expect(markers(page).nth(i)).toHaveAttribute('aria-label', name);
}

test('a pool with only its create shows one flat step and says it has not changed size', async ({ api, demo, open }) => {
  // batch-zero's only operation is its create (baseline's seed has a scale-up).
  const own = await all(api, `/v1/operations?project_id=${demo.project}&resource_id=${demo.zero}`);
  expect(own.map((o) => o.type)).toEqual(['create']);
  const page = await openPool(open, demo, { pool: demo.zero });
  await expect(chart(page)).toBeVisible();
  await expectMarkers(page, [ofKind('Created')]);
  await expect(section(page).getByText('No size changes since it was created.')).toBeVisible();
  await expect(listItems(page)).toHaveCount(1);
  await expect(listItems(page).first()).toHaveText(/created; 0 nodes now/);
});

test('scale-up, manual scale-down, a node delete and an autoscaler drain are steps of their own kind, as the API\'s operations say', async ({ api, control, demo, context, open }) => {
  const { scale, deleteNode, drainNode } = changes({ api, control, demo });
  // The page re-reads the pool every 15 s on the browser's clock: this tab's
  // clock is the test's, moved on to that refresh instead of waited out.
  await context.clock.install();
  const page = await openPool(open, demo, { context });
  // The page reads the pool's nodes: their deletes are known to be this pool's.
  await expect(page.getByRole('table', { name: 'Nodes' }).getByRole('row').nth(3)).toBeVisible();
  const seen = (await all(api, `${poolApi(demo)}/nodes`)).map((n) => n.id);
  await expect(chart(page)).toBeVisible();

  await scale(5);
  await scale(4); // manual: the platform terminates nodes without drain
  await drainNode(seen[0]);
  await deleteNode(seen[1]);
  const expected = await changesFromApi(api, demo, seen);
  // The demo seed's own scale-up of baseline (2 → 3) comes first.
  expect(expected.map((c) => c.kind)).toEqual(['scale-up', 'scale-up', 'manual scale-down: no drain', 'autoscaler drain', 'node deleted: no drain']);

  // The page re-reads the pool on its own (every 15 s) and the history with it.
  await page.clock.fastForward(15_000);
  const title = (kind) => kind[0].toUpperCase() + kind.slice(1);
  await expectMarkers(page, [ofKind('Created'), ...expected.map((c) => startsWith(`${title(c.kind)}: ${c.from} → ${c.to}`))]);
  await expect(chart(page).getByRole('img', { name: /^Unattributed/ })).toHaveCount(0);

  await expect(listItems(page)).toHaveCount(1 + expected.length);
  await expect(listItems(page).first()).toContainText(
    `created (its first count is not recorded; the first recorded change started from ${expected[0].from})`,
  );
  for (const [i, c] of expected.entries()) {
    await expect(listItems(page).nth(i + 1)).toContainText(`· ${c.from} → ${c.to} · ${c.kind}`);
    if (c.node) await expect(listItems(page).nth(i + 1)).toContainText(`(node ${c.node})`);
  }
  // Each kind has its words in the legend.
  const legend = section(page).getByRole('list', { name: 'Legend' });
  for (const words of ['scale-up', 'manual scale-down: no drain', 'autoscaler drain', 'unattributed change']) {
    await expect(legend).toContainText(words);
  }
  // The chart's right end is the pool's count now.
  const pool = await api('GET', poolApi(demo));
  expect(pool.node_count).toBe(expected.at(-1).to);
  await section(page).scrollIntoViewIfNeeded();
  await shot(page, 'pool-history-1280');
  await page.close();

  // At 390 px, in a new tab, the nodes deleted before it opened are not known
  // to be this pool's: the API does not name a node delete's pool, so those two
  // steps are drawn as one change it does not attribute.
  const narrow = await openPool(open, demo, { width: 390 });
  await expect(chart(narrow)).toBeVisible();
  await expect(markers(narrow)).toHaveCount(5);
  await expect(markers(narrow).nth(4)).toHaveAttribute('aria-label', /^Unattributed change: −2 between .* and now$/);
  await section(narrow).scrollIntoViewIfNeeded();
  await shot(narrow, 'pool-history-390');
});

test('a change the pool\'s operations do not account for is drawn apart and said in words, between the changes around it', async ({ api, control, demo, open }) => {
  const { scale, deleteNode } = changes({ api, control, demo });
  await scale(4);
  const nodes = (await all(api, `${poolApi(demo)}/nodes`)).map((n) => n.id);
  // Deleted before any page saw the node: nothing ties the delete to this pool.
  const gone = await deleteNode(nodes[0]);
  expect(gone.resource_id).toBe(nodes[0]);
  await scale(5);
  const later = (await all(api, `${poolApi(demo)}/nodes`)).map((n) => n.id);
  await deleteNode(later[0]);
  const own = (await all(api, `/v1/operations?project_id=${demo.project}&resource_id=${demo.baseline}`))
    .filter((o) => o.details?.changes?.node_count)
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
  expect(own.map((o) => [o.details.changes.node_count.from, o.details.changes.node_count.to])).toEqual([[2, 3], [3, 4], [3, 5]]);

  const page = await openPool(open, demo);
  await expect(chart(page)).toBeVisible();
  await expectMarkers(page, [
    ofKind('Created'),
    ofKind('Scale-up'),
    ofKind('Scale-up'),
    /^Unattributed change: −1 between .+ and .+$/,
    ofKind('Scale-up'),
    /^Unattributed change: −1 between .+ and now$/,
  ]);
  await expect(listItems(page)).toHaveCount(6);
  await expect(listItems(page).nth(3)).toHaveText(/^between /);
  await expect(listItems(page).nth(3)).toContainText(
    "· 4 → 3 · −1: nodes removed outside this pool's operations (the API does not name a node delete's pool)",
  );
  await expect(listItems(page).nth(5)).toContainText(' and now · 5 → 4 · −1: nodes removed outside');
  // The unattributed changes are dashed on the chart; nothing else is.
  await expect(chart(page).locator('line[stroke-dasharray]')).toHaveCount(2);
  await shot(page, 'pool-history-gap-1280');
});

test('a failed read of the history shows the error with Retry, never an empty chart', async ({ control, demo, open }) => {
  await control.fault({
    match: { method: 'GET', path_prefix: '/v1/operations' },
    action: { type: 'status', status: 503, message: 'operations down' },
  });
  const page = await openPool(open, demo);
  const alert = section(page).getByRole('alert').filter({ hasText: 'operations down' });
  await expect(alert).toBeVisible();
  await expect(chart(page)).toHaveCount(0);
  await expect(section(page).getByText('No size changes')).toHaveCount(0);
  // The rest of the page stands.
  await expect(page.getByRole('table', { name: 'Nodes' })).toBeVisible();
  await shot(page, 'pool-history-error-1280');
  await control.clearFaults();
  // One retry button is shown: the history's own Retry, or, while other calls wait
  // to be tried again (the tracker's poll meets the same fault), their "Retry now",
  // which the history's failed read has joined.
  await page.getByRole('button', { name: /^Retry( now)?$/ }).first().click();
  await expect(chart(page)).toBeVisible();
  await expect(alert).toHaveCount(0);
});

test('a failed scale-up whose count the pool keeps is drawn as the count the API reports, marked failed', async ({ api, control, demo, open }) => {
  const { scale } = changes({ api, control, demo });
  await control.nextOutcome({ outcome: 'failed', kind: 'nks_node_pool' });
  const failed = await scale(6);
  expect(failed.status).toBe('failed');
  // The API keeps a failed update's count as the pool's desired count.
  const pool = await api('GET', poolApi(demo));
  expect(pool.node_count).toBe(6);
  const page = await openPool(open, demo);
  await expect(chart(page)).toBeVisible();
  // After the seed's scale-up (2 → 3).
  await expectMarkers(page, [ofKind('Created'), ofKind('Scale-up'), /^Scale-up: 3 → 6, .*\(failed, yet the pool reads 6 since\)$/]);
  await expect(listItems(page).nth(2)).toContainText('· 3 → 6 · scale-up (failed, yet the pool reads 6 since)');
});

for (const width of [390, 1280]) {
  test(`at ${width} px the legend's words are whole and "now" under the axis is one line`, async ({ demo, open }) => {
    const page = await openPool(open, demo, { width });
    await expect(chart(page)).toBeVisible();
    const legend = section(page).getByRole('list', { name: 'Legend' });
    await expect(legend.getByRole('listitem')).toHaveCount(4);
    await expect(legend).toContainText('manual scale-down: no drain');
    const cut = await legend.getByRole('listitem').evaluateAll((items) =>
      items.filter((li) => li.scrollWidth > li.clientWidth).map((li) => li.textContent));
    expect(cut, 'no legend entry cut short').toEqual([]);
    const now = section(page).locator('.ops-timeline-axis > span').last();
    await expect(now).toHaveText('now');
    // A word broken over lines has a box per line.
    expect(await now.evaluate((el) => el.getClientRects().length), '"now" on one line').toBe(1);
    await section(page).scrollIntoViewIfNeeded();
    await shot(page, `pool-history-legend-${width}`);
  });
}
