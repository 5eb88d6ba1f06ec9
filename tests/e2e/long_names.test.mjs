// Long names never break a layout (issue 34, item 12): a name wraps or is cut
// short with the full text on hover and for screen readers, and the other
// columns keep whole words. Planted through the API (a 63-character VPC name is
// valid) and, for a name no longer accepted, with the simulator's /_sim/rename.
import { test, expect, shot } from './fixtures.mjs';

const clusterPath = (demo) => `/projects/${demo.project}/clusters/${demo.cluster}`;
const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
/** How many lines an element's text takes. */
const lines = (locator) =>
  locator.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });

const VPC_NAME = `v${'p'.repeat(61)}c`; // 63: the longest valid name
const STORED = `edge-${'x'.repeat(145)}`; // 150: older data, held by the API
const POOL_NAME = `pool-${'q'.repeat(58)}`; // 63

async function plant(api, control, demo) {
  const cluster = await api('GET', `/v1/nks/clusters/${demo.cluster}`);
  const vpcOp = await api('PATCH', `/v1/networking/vpcs/${cluster.vpc_id}`, { name: VPC_NAME });
  await control.finish({ id: vpcOp.id });
  await control('POST', '/_sim/rename', { kind: 'pool', id: demo.baseline, name: POOL_NAME });
}

for (const width of [390, 800, 1280]) {
  test(`at ${width} px a 63-character VPC name and pool name keep the cluster page inside the window, cut short with the full name on hover and for screen readers`, async ({ api, control, demo, open }) => {
    await plant(api, control, demo);
    const page = await open(clusterPath(demo), { width, height: 900 });
    const pools = page.getByRole('table', { name: 'Pools' });
    const link = pools.getByRole('link', { name: POOL_NAME, exact: true });
    await expect(link, 'the full name for screen readers').toBeVisible();
    await expect(page.getByRole('main')).toContainText(VPC_NAME);
    expect(await overflow(page), 'no sideways scroll').toBeLessThanOrEqual(0);
    // The name takes at most two lines, and says itself in full on hover.
    expect(await lines(link)).toBeLessThanOrEqual(2);
    await expect(link.locator('xpath=..')).toHaveAttribute('title', POOL_NAME);
    // The other columns keep whole words.
    const row = pools.getByRole('row').filter({ has: page.getByRole('link', { name: POOL_NAME, exact: true }) });
    await expect(row.getByText('n1-standard-8', { exact: true })).toBeVisible();
    expect(await lines(row.getByText('n1-standard-8', { exact: true })), 'n1-standard-8 on one line').toBe(1);
    expect(await lines(row.getByText('tier=general', { exact: true })), 'tier=general on one line').toBe(1);
    await shot(page, `long-names-cluster-${width}`);
  });
}

test('150-character names the API still holds keep the cluster page and the list inside 1280 px', async ({ api, control, demo, open }) => {
  const cluster = await api('GET', `/v1/nks/clusters/${demo.cluster}`);
  for (const [kind, id] of [['cluster', demo.cluster], ['vpc', cluster.vpc_id], ['pool', demo.baseline]]) {
    await control('POST', '/_sim/rename', { kind, id, name: STORED });
  }
  const page = await open(clusterPath(demo), { width: 1280, height: 900 });
  await expect(page.getByRole('table', { name: 'Pools' }).getByRole('link', { name: STORED, exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: STORED, exact: true })).toBeVisible();
  expect(await overflow(page), 'no sideways scroll').toBeLessThanOrEqual(0);
  await page.goto(page.url().replace(/\/clusters\/.*$/, '/clusters'));
  await expect(page.getByRole('table', { name: 'Clusters' }).getByRole('link', { name: STORED, exact: true })).toBeVisible();
  expect(await overflow(page), 'the clusters list: no sideways scroll').toBeLessThanOrEqual(0);
  await shot(page, 'long-names-list-1280');
});
