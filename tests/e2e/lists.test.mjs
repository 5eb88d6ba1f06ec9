// Lists that can grow say how much of them a filter shows, lead back to all of
// it, and sort by a click on a column's header (issue 23, item 3). The `large`
// world's project holds 40 clusters.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, shot } from './harness.mjs';

let sim;
let browser;
let project;
let clusters;

before(async () => {
  sim = await startSim({ timeScale: '0.01' });
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
  await sim?.stop();
});

beforeEach(async () => {
  await sim.control('DELETE', '/_sim/faults');
  await sim.control('POST', '/_sim/reset', { seed: 'large', time_scale: 0.01 });
  const projects = await sim.api('/v1/projects');
  project = projects.items.find((p) => p.name === 'Large').id;
  clusters = (await sim.api(`/v1/nks/clusters?project_id=${project}&limit=100`)).items;
});

const table = (page) => page.getByRole('table', { name: 'Clusters' });
const count = (page) => page.locator('.list-count [role="status"]');
/** The names in the table, top to bottom. */
const shownNames = (page) => table(page).locator('tbody tr td:first-child').allTextContents();
const lower = (a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0);

async function waitCount(page, text) {
  await page.waitForFunction(
    (want) => document.querySelector('.list-count [role="status"]')?.textContent === want,
    text,
    { timeout: 10_000 },
  );
}

test('the cluster list says "13 of 40" while filtered, Clear filters leads back to all, and a header click sorts', async () => {
  assert.equal(clusters.length, 40);
  const { context, page } = await openPage(browser);
  await page.goto(sim.url + `/projects/${project}/clusters`);
  await connect(page);
  await table(page).waitFor();
  await waitCount(page, '40 clusters');
  assert.equal(await page.getByRole('link', { name: 'Clear filters' }).count(), 0, 'nothing to clear');

  // Filtered by name: how many of how many, the rows are those.
  const expected = clusters.filter((c) => c.name.toLowerCase().includes('1')).map((c) => c.name);
  await page.getByLabel('Filter by name').fill('1');
  await waitCount(page, `${expected.length} of 40 clusters`);
  assert.deepEqual((await shownNames(page)).sort(), [...expected].sort());

  // A header click sorts by its column (the filter stays), a second turns it round.
  const nameHeader = table(page).getByRole('columnheader', { name: 'Name' });
  assert.equal(await nameHeader.getAttribute('aria-sort'), 'none');
  await nameHeader.getByRole('button').click();
  await page.waitForURL(/sort=name/);
  assert.equal(await nameHeader.getAttribute('aria-sort'), 'ascending');
  assert.deepEqual(await shownNames(page), [...expected].sort(lower));
  await nameHeader.getByRole('button').click();
  await page.waitForURL(/sort=-name/);
  assert.equal(await nameHeader.getAttribute('aria-sort'), 'descending');
  assert.deepEqual(await shownNames(page), [...expected].sort(lower).reverse());
  assert.equal(await page.getByLabel('Sort by').inputValue(), '-name', 'the Sort by choice follows the header');
  await shot(page, 'clusters-filtered-sorted-1280');
  await page.setViewportSize({ width: 390, height: 860 });
  await shot(page, 'clusters-filtered-sorted-390');
  await page.setViewportSize({ width: 1280, height: 860 });

  // Clear filters: every cluster again, still in the order chosen.
  await page.getByRole('link', { name: 'Clear filters' }).click();
  await waitCount(page, '40 clusters');
  assert.equal(await page.getByLabel('Filter by name').inputValue(), '');
  assert.deepEqual(await shownNames(page), clusters.map((c) => c.name).sort(lower).reverse());

  // Created sorts newest first, then oldest first; a reload keeps it.
  const createdHeader = table(page).getByRole('columnheader', { name: 'Created' });
  await createdHeader.getByRole('button').click();
  await page.waitForURL(/sort=created/);
  assert.equal(await createdHeader.getAttribute('aria-sort'), 'descending');
  assert.equal(await nameHeader.getAttribute('aria-sort'), 'none');
  const byTime = [...clusters].sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0)).map((c) => c.name);
  assert.deepEqual(await shownNames(page), byTime);
  await createdHeader.getByRole('button').click();
  await page.waitForURL(/sort=-created/);
  await page.reload();
  await table(page).waitFor();
  assert.equal(await table(page).getByRole('columnheader', { name: 'Created' }).getAttribute('aria-sort'), 'ascending');
  assert.deepEqual(await shownNames(page), [...byTime].reverse());

  // A filter nothing matches: "0 of 40", and the way back.
  await page.getByLabel('Filter by name').fill('no-such-cluster');
  await waitCount(page, '0 of 40 clusters');
  await page.getByText('None of the 40 clusters match these filters.').waitFor();
  await page.getByRole('link', { name: 'Clear filters' }).click();
  await waitCount(page, '40 clusters');
  await context.close();
});

/** Every pool of a cluster, in the API's order, through its cursors. */
async function allPools(clusterId) {
  const items = [];
  let cursor = null;
  do {
    const page = await sim.api(`/v1/nks/clusters/${clusterId}/pools?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    items.push(...page.items);
    cursor = page.pagination.next_cursor;
  } while (cursor);
  return items;
}

test('a cluster\'s pools sort by a header\'s click, filtered or not, from the first page, and say how many', async () => {
  const big = clusters.find((c) => c.name === 'big');
  const pools = await allPools(big.id);
  const { context, page } = await openPage(browser);
  await page.goto(sim.url + `/projects/${project}/clusters/${big.id}?filter=pool-01&page=2`);
  await connect(page);
  const poolsTable = page.getByRole('table', { name: 'Pools' });
  await poolsTable.waitFor({ timeout: 20_000 });
  const has = (text) => text.toLowerCase().includes('pool-01');
  const matching = pools.filter((p) => has(p.name) || has(p.node_config.instance_type) || p.node_config.labels.some(has));
  assert.ok(matching.length > 50 && matching.length < pools.length, `the filter narrows to more than a page: ${matching.length}`);
  const names = () => poolsTable.locator('tbody tr td:first-child').allTextContents();

  // Largest first, ties in the API's order, from the first page; the filter stays.
  const nodes = poolsTable.getByRole('columnheader', { name: 'Nodes' });
  assert.equal(await nodes.getAttribute('aria-sort'), 'none');
  await nodes.getByRole('button').click();
  await page.waitForURL((url) => url.searchParams.get('sort') === 'nodes' && url.searchParams.get('filter') === 'pool-01' && !url.searchParams.has('page'));
  assert.equal(await nodes.getAttribute('aria-sort'), 'descending');
  const byNodes = matching.map((p, i) => [p, i]).sort(([a, i], [b, j]) => b.node_count - a.node_count || i - j).map(([p]) => p.name);
  assert.deepEqual(await names(), byNodes.slice(0, 50));
  await page.getByRole('navigation', { name: 'Pool pages' }).getByText(`1–50 of ${matching.length.toLocaleString('en-US')} matching`).waitFor();

  // The other way round: smallest first.
  await nodes.getByRole('button').click();
  await page.waitForURL((url) => url.searchParams.get('sort') === '-nodes');
  assert.equal(await nodes.getAttribute('aria-sort'), 'ascending');
  const smallest = matching.map((p, i) => [p, i]).sort(([a, i], [b, j]) => a.node_count - b.node_count || i - j).map(([p]) => p.name);
  assert.deepEqual(await names(), smallest.slice(0, 50));

  // By name, unfiltered: every pool A to Z, and the Next page goes on in that order.
  await page.getByLabel('Filter pools').fill('');
  const name = poolsTable.getByRole('columnheader', { name: 'Name' });
  await name.getByRole('button').click();
  await page.waitForURL((url) => url.searchParams.get('sort') === 'name' && !url.searchParams.has('filter'));
  const byName = [...pools].map((p) => p.name).sort(lower);
  assert.deepEqual(await names(), byName.slice(0, 50));
  await page.getByRole('navigation', { name: 'Pool pages' }).getByRole('button', { name: 'Next' }).click();
  await page.waitForURL((url) => url.searchParams.get('page') === '2' && url.searchParams.get('sort') === 'name');
  await page.waitForFunction((first) => document.querySelector('table[aria-label="Pools"] tbody tr td a')?.textContent === first, byName[50]);
  assert.deepEqual(await names(), byName.slice(50, 100));
  await shot(page, 'pools-sorted-1280');
  await context.close();
});

test('one cluster reads "1 cluster"; at phone width the list scrolls sideways a line a row, its names kept in view', async () => {
  await sim.control('POST', '/_sim/reset', { seed: 'demo', time_scale: 0.01 });
  const production = (await sim.api('/v1/projects')).items.find((p) => p.name === 'Production').id;
  const { context, page } = await openPage(browser, { width: 390, height: 860 });
  await page.goto(sim.url + `/projects/${production}/clusters`);
  await connect(page);
  await table(page).waitFor();
  await waitCount(page, '1 cluster');
  const row = table(page).getByRole('row').filter({ has: page.getByRole('link', { name: 'edge-prod', exact: true }) });
  const { height } = await row.boundingBox();
  assert.ok(height < 60, `a row is a line or two, not a column of words: ${height} px`);
  const name = row.locator('td').first();
  assert.equal(await name.evaluate((td) => getComputedStyle(td).position), 'sticky');
  await shot(page, 'clusters-phone-390');
  await context.close();
});
