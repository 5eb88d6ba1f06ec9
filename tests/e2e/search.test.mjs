// The header's search (issue 23, item 3): `/` from anywhere but a field opens a
// search of the current project's clusters and pools by name or id; choosing
// one opens its page; Escape closes it and gives the focus back; a project of
// 1,000 pools is searched whole (through the API's pages); a cluster whose
// pools cannot be read is named, with a Retry, instead of silently missing.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, shot, demoIds, seriousViolations } from './harness.mjs';

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
  await sim.control('DELETE', '/_sim/faults');
  await sim.control('POST', '/_sim/reset', { seed: 'demo', time_scale: 0.01 });
  ids = await demoIds(sim);
});

async function open(path, size) {
  const { context, page } = await openPage(browser, size);
  await page.goto(sim.url + path);
  await connect(page);
  return { context, page };
}

const searchBox = (page) => page.getByRole('combobox', { name: 'Search clusters and pools' });
const options = (page) => page.getByRole('listbox', { name: 'Clusters and pools' }).getByRole('option');

for (const width of [1280, 390]) {
  test(`at ${width} px: / opens the search, a pool is found by name and Enter opens its page`, async () => {
    const { context, page } = await open(`/projects/${ids.project}/clusters`, { width });
    await page.getByRole('table', { name: 'Clusters' }).waitFor();
    assert.equal(await searchBox(page).count(), 0, 'closed until asked for');
    await page.keyboard.press('/');
    await searchBox(page).waitFor();
    assert.equal(await searchBox(page).evaluate((el) => el === document.activeElement), true, 'the box has the focus');
    await page.keyboard.type('basel');
    await options(page).filter({ hasText: 'edge-prod / baseline' }).waitFor();
    assert.deepEqual(
      (await options(page).locator('.combo-name').allTextContents()),
      ['edge-prod / baseline'],
      'only the matching pool',
    );
    await shot(page, `search-open-${width}`);
    assert.deepEqual(await seriousViolations(page), []);
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/projects/${ids.project}/clusters/${ids.cluster}/pools/${ids.baseline}`);
    await page.getByRole('heading', { level: 1, name: 'baseline', exact: true }).waitFor();
    assert.equal(await searchBox(page).count(), 0, 'closed once a page is chosen');
    await context.close();
  });
}

test('the Search button opens it too; a cluster is found by id; a click opens it', async () => {
  const { context, page } = await open(`/projects/${ids.project}/operations`);
  await page.getByRole('button', { name: 'Search' }).click();
  await searchBox(page).fill(ids.cluster.slice(0, 8));
  const option = options(page).filter({ hasText: ids.cluster });
  await option.first().waitFor();
  assert.match(await option.first().textContent(), /^edge-prod/, 'the cluster, named');
  await option.first().click();
  await page.waitForURL(`**/projects/${ids.project}/clusters/${ids.cluster}`);
  await page.getByRole('heading', { level: 1, name: 'edge-prod', exact: true }).waitFor();
  await context.close();
});

test('/ typed in a field stays in the field; Escape closes the search and gives the focus back', async () => {
  const { context, page } = await open(`/projects/${ids.project}/clusters/new`);
  const name = page.getByLabel('Name', { exact: true });
  await name.fill('');
  await name.pressSequentially('a/b');
  assert.equal(await name.inputValue(), 'a/b');
  assert.equal(await searchBox(page).count(), 0);

  await page.locator('h1').click();
  await page.keyboard.press('/');
  await searchBox(page).waitFor();
  await page.keyboard.type('edge');
  await options(page).first().waitFor();
  await page.keyboard.press('Escape'); // closes the list
  await page.keyboard.press('Escape'); // clears what was typed
  assert.equal(await searchBox(page).inputValue(), '');
  await page.keyboard.press('Escape'); // closes the search
  await searchBox(page).waitFor({ state: 'detached' });
  assert.equal(
    await page.getByRole('button', { name: 'Search' }).evaluate((el) => el === document.activeElement),
    true,
    'the focus is back on the Search button',
  );
  assert.equal(await name.inputValue(), 'a/b', 'nothing typed is lost');
  await context.close();
});

test('a project of 1,000 pools is searched whole, through the API\'s pages', async () => {
  await sim.control('POST', '/_sim/reset', { seed: 'large', time_scale: 0.01 });
  const large = (await sim.api('/v1/projects')).items.find((p) => p.name === 'Large').id;
  const { context, page } = await open(`/projects/${large}/clusters`);
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  await page.keyboard.press('/');
  await searchBox(page).fill('pool-0999');
  await options(page).filter({ hasText: 'big / pool-0999' }).waitFor({ timeout: 20_000 });
  await context.close();
});

test('a cluster whose pools cannot be read is named, and Retry reads them', async () => {
  const fault = await sim.control('POST', '/_sim/faults', {
    match: { method: 'GET', path_prefix: `/v1/nks/clusters/${ids.cluster}/pools` },
    action: { type: 'status', status: 403, message: 'denied for the test' },
  });
  const { context, page } = await open(`/projects/${ids.project}/clusters`);
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  await page.keyboard.press('/');
  const hint = page.locator('#site-search-hint');
  await hint.getByText('The pools of edge-prod could not be read, so none of them is found.').waitFor({ timeout: 20_000 });
  await searchBox(page).fill('baseline');
  await page.getByText('No cluster or pool of this project matches.').waitFor();
  await shot(page, 'search-pools-unread');

  await sim.control('DELETE', `/_sim/faults/${fault.id}`);
  await hint.getByRole('button', { name: 'Retry' }).click();
  await hint.getByText('Clusters and pools of Production, by name or id.').waitFor({ timeout: 20_000 });
  assert.equal(await searchBox(page).count(), 1, 'the search stays open');
  assert.equal(await searchBox(page).evaluate((el) => el === document.activeElement), true, 'the focus is back in the box');
  await options(page).filter({ hasText: 'edge-prod / baseline' }).waitFor({ timeout: 20_000 });
  assert.equal(await searchBox(page).inputValue(), 'baseline', 'what was typed stays');
  await shot(page, 'search-pools-retried');

  // A click elsewhere closes it.
  await page.getByRole('heading', { level: 1, name: 'Clusters' }).click();
  await searchBox(page).waitFor({ state: 'detached' });
  await context.close();
});

test('a page of a cluster\'s pools that cannot be read: the pools read are found, the ones missing are named, Retry reads them', async () => {
  await sim.control('POST', '/_sim/reset', { seed: 'large', time_scale: 0.01 });
  const large = (await sim.api('/v1/projects')).items.find((p) => p.name === 'Large').id;
  const big = (await sim.api(`/v1/nks/clusters?project_id=${large}&limit=100`)).items.find((c) => c.name === 'big');
  const fault = await sim.control('POST', '/_sim/faults', {
    match: { method: 'GET', path_prefix: `/v1/nks/clusters/${big.id}/pools` },
    action: { type: 'page_fail', page: 8, status: 503 },
  });
  const { context, page } = await open(`/projects/${large}/clusters`);
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  await page.keyboard.press('/');
  const hint = page.locator('#site-search-hint');
  await hint.getByText('big: pools 701–1,000 could not be read, so they are not found.').waitFor({ timeout: 30_000 });
  await searchBox(page).fill('pool-0005');
  await options(page).filter({ hasText: 'big / pool-0005' }).waitFor();
  await searchBox(page).fill('pool-0999');
  await page.getByText('No cluster or pool of this project matches.').waitFor();
  await shot(page, 'search-pools-partly-read');

  await sim.control('DELETE', `/_sim/faults/${fault.id}`);
  await hint.getByRole('button', { name: 'Retry' }).click();
  await options(page).filter({ hasText: 'big / pool-0999' }).waitFor({ timeout: 30_000 });
  assert.equal(await hint.getByText(/could not be read/).count(), 0);
  await context.close();
});
