// Layouts that hold at a phone's, a tablet's and a desktop's width: headers,
// badges and figures never break inside a word, the plan is read before Apply
// on a phone, "Log out" stays on one line, and cards have no empty band. Each
// page is also photographed at 390, 800 and 1280 px for people to look at.
// Every measure is taken once what it measures is on screen.
import { test, expect, shot } from './fixtures.mjs';

const clusterPath = (demo) => `/projects/${demo.project}/clusters/${demo.cluster}`;

/** The texts of the matched elements that take more than one line. */
async function broken(page, selector) {
  return page.evaluate((sel) => [...document.querySelectorAll(sel)]
    .filter((e) => e.offsetParent !== null && e.textContent.trim() !== '')
    .filter((e) => {
      const range = document.createRange();
      range.selectNodeContents(e);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      return lines.size > 1;
    })
    .map((e) => e.textContent.trim()), selector);
}

/** How far the page scrolls sideways (0 or less: it does not). */
const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Fills the create-pool form until the plan prices it. */
async function pricedPoolForm(page) {
  await expect(page.getByRole('heading', { name: 'Create pool' })).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill('layout-check');
  await page.getByLabel('Instance type').selectOption({ label: 'n1-highcpu-8 — 8 vCPU, 16 GB memory' });
  await page.getByLabel('Node count').fill('2');
  await expect(page.getByRole('table', { name: 'Cost' })).toBeVisible();
}

test('at 1280 px table headers, status badges and the plan\'s figures never break inside a word', async ({ demo, sim, open }) => {
  const page = await open(`${clusterPath(demo)}/pools/new`, { width: 1280, height: 900 });
  await pricedPoolForm(page);
  expect(await broken(page, '.plan-rows th, .plan-rows td + td')).toEqual([]);
  await page.goto(sim.url + `/projects/${demo.project}/operations`);
  await expect(page.getByRole('table', { name: 'Operations' })).toBeVisible();
  expect(await broken(page, '.table th, .badge')).toEqual([]);
  // A one-word cell ("update", "cluster") is never cut in two.
  const cells = await broken(page, 'table[aria-label="Operations"] td:not(:has(.badge))');
  expect(cells.filter((text) => !/\s/.test(text))).toEqual([]);
  // The clusters list with its capacity and cost, twelve columns: a name, a tag
  // or a figure is never cut to make them fit.
  await page.goto(sim.url + `/projects/${demo.project}/clusters`);
  const clusters = 'table[aria-label="Clusters"]';
  await expect(page.locator(`${clusters} td.figure`).filter({ hasText: '$' }).first()).toBeVisible();
  // Every figure is read (a cell still being read is "…" with a hidden word beside it).
  await expect(page.locator(`${clusters} td.figure [title="Being read"]`)).toHaveCount(0);
  expect(await broken(page, `${clusters} th:not([aria-sort]), ${clusters} .th-sort, ${clusters} td:first-child, ${clusters} .chip, ${clusters} td.figure, ${clusters} .badge`)).toEqual([]);
});

test('on a phone the plan comes after the fields and before the Apply button', async ({ demo, open }) => {
  const page = await open(`${clusterPath(demo)}/pools/new`, { width: 390, height: 900 });
  await pricedPoolForm(page);
  const tags = await page.getByLabel('Tags').boundingBox();
  const plan = await page.getByRole('complementary', { name: 'Plan' }).boundingBox();
  const apply = await page.getByRole('button', { name: 'Create pool' }).boundingBox();
  expect(plan.y, `the plan (y ${plan.y}) is below the last field (y ${tags.y})`).toBeGreaterThan(tags.y + tags.height);
  expect(apply.y, `Apply (y ${apply.y}) is below the plan (ends at ${plan.y + plan.height})`).toBeGreaterThan(plan.y + plan.height);
  const sideways = await overflow(page);
  expect(sideways, `the form scrolls sideways by ${sideways}px`).toBeLessThanOrEqual(0);
  await shot(page, 'layout-create-pool-390');
});

test('"Log out" stays on one line, and a delete card starts with its title', async ({ demo, open }) => {
  for (const width of [390, 800, 1280]) {
    const page = await open(`${clusterPath(demo)}/pools/${demo.baseline}`, { width, height: 900 });
    await expect(page.getByRole('heading', { name: 'Delete pool' })).toBeVisible();
    expect(await broken(page, '.topbar .btn'), `at ${width} px`).toEqual([]);
    const gap = await page.evaluate(() => {
      const card = document.getElementById('delete');
      return card.querySelector('h2').getBoundingClientRect().top - card.getBoundingClientRect().top;
    });
    expect(gap, `the delete card's title starts ${gap}px below its edge at ${width} px`).toBeLessThanOrEqual(30);
    await page.close();
  }
});

for (const width of [390, 800, 1280]) {
  test(`the main pages at ${width} px: nothing scrolls sideways but a wide table`, async ({ demo, sim, open }) => {
    const pages = [
      ['clusters', `/projects/${demo.project}/clusters?figures=off`, (p) => p.getByRole('table', { name: 'Clusters' })],
      ['clusters-figures', `/projects/${demo.project}/clusters`, (p) => p.locator('td.figure').filter({ hasText: '$' }).first()],
      ['cluster', clusterPath(demo), (p) => p.getByRole('table', { name: 'Pools' })],
      ['pool', `${clusterPath(demo)}/pools/${demo.baseline}`, (p) => p.getByRole('heading', { name: 'Delete pool' })],
      ['operations', `/projects/${demo.project}/operations`, (p) => p.getByRole('table', { name: 'Operations' })],
    ];
    const page = await open(pages[0][1], { width, height: 900 });
    for (const [name, path, ready] of pages) {
      await page.goto(sim.url + path);
      await expect(ready(page)).toBeVisible();
      const sideways = await overflow(page);
      expect(sideways, `${name} scrolls sideways by ${sideways}px at ${width} px`).toBeLessThanOrEqual(0);
      await shot(page, `layout-${name}-${width}`);
    }
  });
}

/** The darkest pixel (0 black … 255 white) the page paints in a strip `w` × 6 px
 *  centred on the bottom edge of `cell`, starting `dx` px into it: a drawn rule is darker than the surface. */
async function darkestAtBottom(page, cell, dx = 6, w = 4) {
  const box = await cell.boundingBox();
  const png = await page.screenshot({ clip: { x: box.x + dx, y: box.y + box.height - 3, width: w, height: 6 } });
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const canvas = Object.assign(document.createElement('canvas'), { width: img.width, height: img.height });
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const { data } = ctx.getImageData(0, 0, img.width, img.height);
    let min = 255;
    for (let i = 0; i < data.length; i += 4) min = Math.min(min, (data[i] + data[i + 1] + data[i + 2]) / 3);
    return min;
  }, png.toString('base64'));
}

test('at 390 px the scrolling tables draw the header rule and the row rules under their sticky first column too', async ({ demo, open }) => {
  const page = await open(clusterPath(demo), { width: 390, height: 844 });
  for (const name of ['Load balancers', 'Persistent volume claims']) {
    const table = page.getByRole('table', { name });
    await table.scrollIntoViewIfNeeded();
    const [first, second] = [table.locator('thead th').nth(0), table.locator('thead th').nth(1)];
    await expect(first).toBeVisible();
    const rule = await darkestAtBottom(page, second);
    expect(rule, `${name}: the header rule under the second column is drawn`).toBeLessThan(245);
    expect(await darkestAtBottom(page, first), `${name}: … and under the sticky first column`).toBeLessThan(245);
    const firstCell = table.locator('tbody tr').first().locator('td').first();
    expect(await darkestAtBottom(page, firstCell), `${name}: the row rule under the first cell`).toBeLessThan(245);
    await shot(table, `sticky-rules-${name.replace(/ /g, '-').toLowerCase()}-390`);
  }
});

for (const width of [1280, 800, 390]) {
  test(`at ${width} px the plan's cost tables stay inside the plan's card, on Edit pool and Create pool`, async ({ demo, open }) => {
    const inside = (page, name) =>
      page.getByRole('table', { name }).evaluate((t) => {
        const card = t.closest('.plan').getBoundingClientRect();
        const table = t.getBoundingClientRect();
        return table.left >= card.left && table.right <= card.right;
      });
    const page = await open(`${clusterPath(demo)}/pools/${demo.baseline}/edit`, { width, height: 900 });
    await page.getByLabel('Node count').fill('5');
    await expect(page.getByRole('table', { name: 'Cost change' })).toBeVisible();
    expect(await inside(page, 'Cost change'), 'Edit pool: the cost change inside the card').toBe(true);
    expect(await overflow(page), 'Edit pool: no sideways scroll').toBeLessThanOrEqual(0);
    await shot(page.getByRole('complementary', { name: 'Plan' }), `plan-cost-change-${width}`);
    await page.goto(page.url().replace(/pools\/.*$/, 'pools/new'));
    await pricedPoolForm(page);
    expect(await inside(page, 'Cost'), 'Create pool: the cost inside the card').toBe(true);
    expect(await overflow(page), 'Create pool: no sideways scroll').toBeLessThanOrEqual(0);
  });
}

test('at 390 px the operations table shows each operation\'s status without scrolling sideways', async ({ api, demo, open }) => {
  await api('PATCH', `/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}`, { node_count: 4 });
  const page = await open(`/projects/${demo.project}/operations`, { width: 390, height: 844 });
  const table = page.getByRole('table', { name: 'Operations' });
  const status = table.getByRole('columnheader', { name: 'Status' });
  await expect(status).toBeVisible();
  const box = await status.boundingBox();
  expect(box.x + box.width, `the Status header ends at ${box.x + box.width}`).toBeLessThanOrEqual(390);
  const badge = table.locator('tbody tr').first().locator('.badge').first();
  const badgeBox = await badge.boundingBox();
  expect(badgeBox.x + badgeBox.width, 'the first row\'s status is on screen').toBeLessThanOrEqual(390);
  await shot(page, 'operations-status-390');
});
