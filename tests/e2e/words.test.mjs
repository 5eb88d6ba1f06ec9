// Words and numbers read as English (issue 34, items 18 and 20): one plural
// helper ("1 node", "2 pools", never "node(s)"), and one number format for the
// counts that sit side by side in a row.
import { test, expect, shot } from './fixtures.mjs';

const clusterPath = (demo) => `/projects/${demo.project}/clusters/${demo.cluster}`;

test('counts agree with their nouns: a cluster of 2 pools, a pool of 3 nodes, a pool of 1 node', async ({ api, demo, open }) => {
  const pools = (await api('GET', `/v1/nks/clusters/${demo.cluster}/pools`)).items;
  expect(pools.map((p) => p.name).sort()).toEqual(['baseline', 'batch-zero']);
  const page = await open(clusterPath(demo));
  await expect(page.locator('#delete')).toContainText('Deleting cluster edge-prod deletes its 2 pools and every node in them.');
  await page.goto(page.url() + `/pools/${demo.baseline}`);
  await expect(page.locator('#delete')).toContainText('terminates its 3 nodes without draining them');
  await api('PATCH', `/v1/nks/clusters/${demo.cluster}/pools/${demo.zero}`, { node_count: 1 });
  await page.goto(page.url().replace(demo.baseline, demo.zero));
  await expect(page.locator('#delete')).toContainText('terminates its 1 node without draining it');
  await expect(page.locator('main')).not.toContainText('(s)');
});

test.describe('the large world', () => {
  test.use({ seed: 'large' });

  test('a row of the clusters list writes every count one way: 1,000 pools beside 1,999 nodes', async ({ api, projects, open }) => {
    const clusters = (await api('GET', `/v1/nks/clusters?project_id=${projects.Large}&limit=100`)).items;
    const big = clusters.find((c) => c.name === 'big');
    expect(big.pool_ids.length, 'big has a four-digit pool count').toBeGreaterThanOrEqual(1000);
    const page = await open(`/projects/${projects.Large}/clusters`);
    const table = page.getByRole('table', { name: 'Clusters' });
    // The capacity columns arrive with their own code: read the headers once they are drawn.
    await expect(table.getByRole('columnheader', { name: 'Nodes', exact: true })).toBeVisible();
    const headers = await table.locator('thead th').allTextContents();
    const row = table.locator('tbody tr').filter({ has: page.getByRole('link', { name: 'big', exact: true }) });
    const cell = (name) => row.locator('td').nth(headers.findIndex((h) => h.trim() === name));
    await expect(cell('Pools')).toHaveText(big.pool_ids.length.toLocaleString('en-US'));
    await expect(cell('Nodes')).toHaveText(/^\d{1,3}(,\d{3})+$/);
    await shot(page, 'clusters-large-counts');
  });
});

test('the project selector agrees with the page: "Project not found" on an unknown project, and on Settings the project the links lead to', async ({ demo, open }) => {
  const page = await open(`/projects/00000000-0000-4000-8000-000000000000/clusters`);
  await expect(page.getByRole('main').getByText(/Project not found/).first()).toBeVisible();
  const selector = page.getByLabel('Project', { exact: true });
  await expect(selector.locator('option:checked')).toHaveText('Project not found');
  await page.goto(page.url().replace(/\/projects\/.*$/, `/projects/${demo.project}/clusters`));
  await expect(selector.locator('option:checked')).toHaveText('Production');
  // Moved to an unknown project inside the app (no reload): the selector follows.
  await page.evaluate(() => {
    history.pushState({}, '', location.pathname.replace(/\/projects\/[^/]+/, '/projects/00000000-0000-4000-8000-000000000000'));
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(selector.locator('option:checked')).toHaveText('Project not found');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  const clusters = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Clusters' });
  await expect(clusters).toHaveAttribute('href', new RegExp(`/projects/${demo.project}/clusters$`));
  await expect(selector.locator('option:checked'), 'the project the links lead to').toHaveText('Production');
  await shot(page, 'selector-on-settings');
});

test.describe('the empty world', () => {
  test.use({ seed: 'empty' });

  test('an operations list with none says "no operations", not "none of 0 · page 1 of 1"', async ({ projects, open }) => {
    const page = await open(`/projects/${projects.Production}/operations`);
    const count = page.locator('.pager-count');
    await expect(count).toHaveText('no operations');
    await shot(page, 'operations-none');
  });
});
