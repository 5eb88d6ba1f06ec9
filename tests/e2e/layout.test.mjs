// Layouts that hold at a phone's, a tablet's and a desktop's width: headers,
// badges and figures never break inside a word, the plan is read before Apply
// on a phone, "Log out" stays on one line, and cards have no empty band. Each
// page is also photographed at 390, 800 and 1280 px for people to look at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, shot, demoIds } from './harness.mjs';

let sim;
let browser;
let ids;

before(async () => {
  sim = await startSim({ timeScale: '0.01' });
  browser = await startBrowser();
  ids = await demoIds(sim);
});

after(async () => {
  await browser?.close();
  await sim?.stop();
});

const clusterPath = () => `/projects/${ids.project}/clusters/${ids.cluster}`;

async function open(width, path) {
  const { context, page } = await openPage(browser, { width, height: 900 });
  await page.goto(sim.url + path);
  await connect(page);
  return { context, page };
}

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

/** Fills the create-pool form until the plan prices it. */
async function pricedPoolForm(page) {
  await page.getByRole('heading', { name: 'Create pool' }).waitFor();
  await page.getByLabel('Name', { exact: true }).fill('layout-check');
  await page.getByLabel('Instance type').selectOption({ label: 'n1-highcpu-8 — 8 vCPU, 16 GB memory' });
  await page.getByLabel('Node count').fill('2');
  await page.getByRole('table', { name: 'Cost' }).waitFor({ timeout: 20_000 });
}

test('at 1280 px table headers, status badges and the plan\'s figures never break inside a word', async () => {
  const { context, page } = await open(1280, `${clusterPath()}/pools/new`);
  await pricedPoolForm(page);
  assert.deepEqual(await broken(page, '.plan-rows th, .plan-rows td + td'), []);
  await page.goto(sim.url + `/projects/${ids.project}/operations`);
  await page.getByRole('table', { name: 'Operations' }).waitFor();
  assert.deepEqual(await broken(page, '.table th, .badge'), []);
  // A one-word cell ("update", "cluster") is never cut in two.
  const cells = await broken(page, 'table[aria-label="Operations"] td:not(:has(.badge))');
  assert.deepEqual(cells.filter((text) => !/\s/.test(text)), []);
  // The clusters list with its capacity and cost, twelve columns: a name, a tag
  // or a figure is never cut to make them fit.
  await page.goto(sim.url + `/projects/${ids.project}/clusters?figures=on`);
  await page.locator('table[aria-label="Clusters"] td.figure').filter({ hasText: '$' }).first().waitFor({ timeout: 20_000 });
  const clusters = 'table[aria-label="Clusters"]';
  assert.deepEqual(await broken(page, `${clusters} th:not([aria-sort]), ${clusters} .th-sort, ${clusters} td:first-child, ${clusters} .chip, ${clusters} td.figure, ${clusters} .badge`), []);
  await context.close();
});

test('on a phone the plan comes after the fields and before the Apply button', async () => {
  const { context, page } = await open(390, `${clusterPath()}/pools/new`);
  await pricedPoolForm(page);
  const tags = await page.getByLabel('Tags').boundingBox();
  const plan = await page.getByRole('complementary', { name: 'Plan' }).boundingBox();
  const apply = await page.getByRole('button', { name: 'Create pool' }).boundingBox();
  assert.ok(plan.y > tags.y + tags.height, `the plan (y ${plan.y}) is below the last field (y ${tags.y})`);
  assert.ok(apply.y > plan.y + plan.height, `Apply (y ${apply.y}) is below the plan (ends at ${plan.y + plan.height})`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the form scrolls sideways by ${overflow}px`);
  await shot(page, 'layout-create-pool-390');
  await context.close();
});

test('"Log out" stays on one line, and a delete card starts with its title', async () => {
  for (const width of [390, 800, 1280]) {
    const { context, page } = await open(width, `${clusterPath()}/pools/${ids.baseline}`);
    await page.getByRole('heading', { name: 'Delete pool' }).waitFor();
    assert.deepEqual(await broken(page, '.topbar .btn'), [], `at ${width} px`);
    const gap = await page.evaluate(() => {
      const card = document.getElementById('delete');
      return card.querySelector('h2').getBoundingClientRect().top - card.getBoundingClientRect().top;
    });
    assert.ok(gap <= 30, `the delete card's title starts ${gap}px below its edge at ${width} px`);
    await context.close();
  }
});

for (const width of [390, 800, 1280]) {
  test(`the main pages at ${width} px: nothing scrolls sideways but a wide table`, async () => {
    const pages = [
      ['clusters', `/projects/${ids.project}/clusters`, (p) => p.getByRole('table', { name: 'Clusters' })],
      ['clusters-figures', `/projects/${ids.project}/clusters?figures=on`, (p) => p.locator('td.figure').filter({ hasText: '$' }).first()],
      ['cluster', clusterPath(), (p) => p.getByRole('table', { name: 'Pools' })],
      ['pool', `${clusterPath()}/pools/${ids.baseline}`, (p) => p.getByRole('heading', { name: 'Delete pool' })],
      ['operations', `/projects/${ids.project}/operations`, (p) => p.getByRole('table', { name: 'Operations' })],
    ];
    const { context, page } = await open(width, pages[0][1]);
    for (const [name, path, ready] of pages) {
      await page.goto(sim.url + path);
      await ready(page).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${name} scrolls sideways by ${overflow}px at ${width} px`);
      await shot(page, `layout-${name}-${width}`);
    }
    await context.close();
  });
}
