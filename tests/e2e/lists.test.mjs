// Lists that can grow say how much of them a filter shows, lead back to all of
// it, and sort by a click on a column's header (issue 23, item 3). The `large`
// world's project holds 40 clusters.
import { test, expect, shot } from './fixtures.mjs';

test.use({ seed: 'large' });

const table = (page) => page.getByRole('table', { name: 'Clusters' });
const count = (page) => page.locator('.list-count [role="status"]');
/** The name cells of the table, top to bottom. */
const nameCells = (page) => table(page).locator('tbody tr td:first-child');
const lower = (a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0);

/** The Large project's clusters, as the API lists them. */
const largeClusters = async (api, projects) => (await api('GET', `/v1/nks/clusters?project_id=${projects.Large}&limit=100`)).items;

test('the cluster list says "13 of 40" while filtered, Clear filters leads back to all, and a header click sorts', async ({ api, projects, open }) => {
  const clusters = await largeClusters(api, projects);
  expect(clusters).toHaveLength(40);
  const page = await open(`/projects/${projects.Large}/clusters`);
  await expect(table(page)).toBeVisible();
  await expect(count(page)).toHaveText('40 clusters');
  await expect(page.getByRole('link', { name: 'Clear filters' }), 'nothing to clear').toHaveCount(0);

  // Filtered by name: how many of how many, the rows are those.
  const expected = clusters.filter((c) => c.name.toLowerCase().includes('1')).map((c) => c.name);
  await page.getByLabel('Filter by name').fill('1');
  await expect(count(page)).toHaveText(`${expected.length} of 40 clusters`);
  await expect.poll(async () => (await nameCells(page).allTextContents()).sort()).toEqual([...expected].sort());

  // A header click sorts by its column (the filter stays), a second turns it round.
  const nameHeader = table(page).getByRole('columnheader', { name: 'Name' });
  await expect(nameHeader).toHaveAttribute('aria-sort', 'none');
  await nameHeader.getByRole('button').click();
  await expect(page).toHaveURL(/sort=name/);
  await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(nameCells(page)).toHaveText([...expected].sort(lower));
  await nameHeader.getByRole('button').click();
  await expect(page).toHaveURL(/sort=-name/);
  await expect(nameHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(nameCells(page)).toHaveText([...expected].sort(lower).reverse());
  await expect(page.getByLabel('Sort by'), 'the Sort by choice follows the header').toHaveValue('-name');
  await shot(page, 'clusters-filtered-sorted-1280');
  await page.setViewportSize({ width: 390, height: 860 });
  await shot(page, 'clusters-filtered-sorted-390');
  await page.setViewportSize({ width: 1280, height: 860 });

  // Clear filters: every cluster again, still in the order chosen.
  await page.getByRole('link', { name: 'Clear filters' }).click();
  await expect(count(page)).toHaveText('40 clusters');
  await expect(page.getByLabel('Filter by name')).toHaveValue('');
  await expect(nameCells(page)).toHaveText(clusters.map((c) => c.name).sort(lower).reverse());

  // Created sorts newest first, then oldest first; a reload keeps it.
  const createdHeader = table(page).getByRole('columnheader', { name: 'Created' });
  await createdHeader.getByRole('button').click();
  await expect(page).toHaveURL(/sort=created/);
  await expect(createdHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(nameHeader).toHaveAttribute('aria-sort', 'none');
  const byTime = [...clusters].sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0)).map((c) => c.name);
  await expect(nameCells(page)).toHaveText(byTime);
  await createdHeader.getByRole('button').click();
  await expect(page).toHaveURL(/sort=-created/);
  await page.reload();
  await expect(table(page).getByRole('columnheader', { name: 'Created' })).toHaveAttribute('aria-sort', 'ascending');
  await expect(nameCells(page)).toHaveText([...byTime].reverse());

  // A filter nothing matches: "0 of 40", and the way back.
  await page.getByLabel('Filter by name').fill('no-such-cluster');
  await expect(count(page)).toHaveText('0 of 40 clusters');
  await expect(page.getByText('None of the 40 clusters match these filters.')).toBeVisible();
  await page.getByRole('link', { name: 'Clear filters' }).click();
  await expect(count(page)).toHaveText('40 clusters');
});

/** Every pool of a cluster, in the API's order, through its cursors. */
async function allPools(api, clusterId) {
  const items = [];
  let cursor = null;
  do {
    const page = await api('GET', `/v1/nks/clusters/${clusterId}/pools?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    items.push(...page.items);
    cursor = page.pagination.next_cursor;
  } while (cursor);
  return items;
}

test('a cluster\'s pools sort by a header\'s click, filtered or not, from the first page, and say how many', async ({ api, projects, open }) => {
  const big = (await largeClusters(api, projects)).find((c) => c.name === 'big');
  const pools = await allPools(api, big.id);
  const page = await open(`/projects/${projects.Large}/clusters/${big.id}?filter=pool-01&page=2`);
  const poolsTable = page.getByRole('table', { name: 'Pools' });
  await expect(poolsTable).toBeVisible();
  const has = (text) => text.toLowerCase().includes('pool-01');
  const matching = pools.filter((p) => has(p.name) || has(p.node_config.instance_type) || p.node_config.labels.some(has));
  expect(matching.length > 50 && matching.length < pools.length, `the filter narrows to more than a page: ${matching.length}`).toBe(true);
  const names = poolsTable.locator('tbody tr td:first-child');

  // Largest first, ties in the API's order, from the first page; the filter stays.
  const nodes = poolsTable.getByRole('columnheader', { name: 'Nodes' });
  await expect(nodes).toHaveAttribute('aria-sort', 'none');
  await nodes.getByRole('button').click();
  await page.waitForURL((url) => url.searchParams.get('sort') === 'nodes' && url.searchParams.get('filter') === 'pool-01' && !url.searchParams.has('page'));
  await expect(nodes).toHaveAttribute('aria-sort', 'descending');
  const byNodes = matching.map((p, i) => [p, i]).sort(([a, i], [b, j]) => b.node_count - a.node_count || i - j).map(([p]) => p.name);
  await expect(names).toHaveText(byNodes.slice(0, 50));
  await expect(page.getByRole('navigation', { name: 'Pool pages' }).getByText(`1–50 of ${matching.length.toLocaleString('en-US')} matching`)).toBeVisible();

  // The other way round: smallest first.
  await nodes.getByRole('button').click();
  await page.waitForURL((url) => url.searchParams.get('sort') === '-nodes');
  await expect(nodes).toHaveAttribute('aria-sort', 'ascending');
  const smallest = matching.map((p, i) => [p, i]).sort(([a, i], [b, j]) => a.node_count - b.node_count || i - j).map(([p]) => p.name);
  await expect(names).toHaveText(smallest.slice(0, 50));

  // By name, unfiltered: every pool A to Z, and the Next page goes on in that order.
  await page.getByLabel('Filter pools').fill('');
  const name = poolsTable.getByRole('columnheader', { name: 'Name' });
  await name.getByRole('button').click();
  await page.waitForURL((url) => url.searchParams.get('sort') === 'name' && !url.searchParams.has('filter'));
  const byName = [...pools].map((p) => p.name).sort(lower);
  await expect(names).toHaveText(byName.slice(0, 50));
  await page.getByRole('navigation', { name: 'Pool pages' }).getByRole('button', { name: 'Next' }).click();
  await page.waitForURL((url) => url.searchParams.get('page') === '2' && url.searchParams.get('sort') === 'name');
  await expect(names).toHaveText(byName.slice(50, 100));
  await shot(page, 'pools-sorted-1280');
});

test.describe('the demo world', () => {
  test.use({ seed: 'demo' });

  test('one cluster reads "1 cluster"; at phone width the list scrolls sideways a line a row, its names kept in view', async ({ demo, open }) => {
    const page = await open(`/projects/${demo.project}/clusters`, { width: 390, height: 860 });
    await expect(table(page)).toBeVisible();
    await expect(count(page)).toHaveText('1 cluster');
    const row = table(page).getByRole('row').filter({ has: page.getByRole('link', { name: 'edge-prod', exact: true }) });
    await expect(row).toBeVisible();
    const { height } = await row.boundingBox();
    expect(height, `a row is a line or two, not a column of words: ${height} px`).toBeLessThan(60);
    await expect(row.locator('td').first()).toHaveCSS('position', 'sticky');
    await shot(page, 'clusters-phone-390');
  });
});
