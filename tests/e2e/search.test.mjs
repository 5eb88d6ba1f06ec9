// The header's search (issue 23, item 3): `/` from anywhere but a field opens a
// search of the current project's clusters and pools by name or id; choosing
// one opens its page; Escape closes it and gives the focus back; a project of
// 1,000 pools is searched whole (through the API's pages); a cluster whose
// pools cannot be read is named, with a Retry, instead of silently missing.
import { test, expect, shot, seriousViolations } from './fixtures.mjs';

const searchBox = (page) => page.getByRole('combobox', { name: 'Search clusters and pools' });
const options = (page) => page.getByRole('listbox', { name: 'Clusters and pools' }).getByRole('option');

for (const width of [1280, 390]) {
  test(`at ${width} px: / opens the search, a pool is found by name and Enter opens its page`, async ({ demo, open }) => {
    const page = await open(`/projects/${demo.project}/clusters`, { width });
    await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
    await expect(searchBox(page), 'closed until asked for').toHaveCount(0);
    await page.keyboard.press('/');
    await expect(searchBox(page), 'the box has the focus').toBeFocused();
    await page.keyboard.type('basel');
    await expect(options(page).filter({ hasText: 'edge-prod / baseline' })).toBeVisible();
    await expect(options(page).locator('.combo-name'), 'only the matching pool').toHaveText(['edge-prod / baseline']);
    await shot(page, `search-open-${width}`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/projects/${demo.project}/clusters/${demo.cluster}/pools/${demo.baseline}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'baseline', exact: true })).toBeVisible();
    await expect(searchBox(page), 'closed once a page is chosen').toHaveCount(0);
  });
}

test('the Search button opens it too; a cluster is found by id; a click opens it', async ({ demo, open }) => {
  const page = await open(`/projects/${demo.project}/operations`);
  await page.getByRole('button', { name: 'Search' }).click();
  await searchBox(page).fill(demo.cluster.slice(0, 8));
  const option = options(page).filter({ hasText: demo.cluster });
  await expect(option.first(), 'the cluster, named').toHaveText(/^edge-prod/);
  await option.first().click();
  await expect(page).toHaveURL(new RegExp(`/projects/${demo.project}/clusters/${demo.cluster}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'edge-prod', exact: true })).toBeVisible();
});

test('/ typed in a field stays in the field; Escape closes the search and gives the focus back', async ({ demo, open }) => {
  const page = await open(`/projects/${demo.project}/clusters/new`);
  const name = page.getByLabel('Name', { exact: true });
  await name.fill('');
  await name.pressSequentially('a/b');
  await expect(name).toHaveValue('a/b');
  await expect(searchBox(page)).toHaveCount(0);

  await page.locator('h1').click();
  await page.keyboard.press('/');
  await expect(searchBox(page)).toBeVisible();
  await page.keyboard.type('edge');
  await expect(options(page).first()).toBeVisible();
  await page.keyboard.press('Escape'); // closes the list
  await page.keyboard.press('Escape'); // clears what was typed
  await expect(searchBox(page)).toHaveValue('');
  await page.keyboard.press('Escape'); // closes the search
  await expect(searchBox(page)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Search' }), 'the focus is back on the Search button').toBeFocused();
  await expect(name, 'nothing typed is lost').toHaveValue('a/b');
});

test('a cluster whose pools cannot be read is named, and Retry reads them', async ({ control, demo, open }) => {
  const fault = await control.fault({
    match: { method: 'GET', path_prefix: `/v1/nks/clusters/${demo.cluster}/pools` },
    action: { type: 'status', status: 403, message: 'denied for the test' },
  });
  const page = await open(`/projects/${demo.project}/clusters`);
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  await page.keyboard.press('/');
  const hint = page.locator('#site-search-hint');
  await expect(hint.getByText('The pools of edge-prod could not be read, so none of them is found.')).toBeVisible();
  await searchBox(page).fill('baseline');
  await expect(page.getByText('No cluster or pool of this project matches.')).toBeVisible();
  await shot(page, 'search-pools-unread');

  await control('DELETE', `/_sim/faults/${fault.id}`);
  await hint.getByRole('button', { name: 'Retry' }).click();
  await expect(hint.getByText('Clusters and pools of Production, by name or id.')).toBeVisible();
  await expect(searchBox(page), 'the search stays open').toHaveCount(1);
  await expect(searchBox(page), 'the focus is back in the box').toBeFocused();
  await expect(options(page).filter({ hasText: 'edge-prod / baseline' })).toBeVisible();
  await expect(searchBox(page), 'what was typed stays').toHaveValue('baseline');
  await shot(page, 'search-pools-retried');

  // A click elsewhere closes it.
  await page.getByRole('heading', { level: 1, name: 'Clusters' }).click();
  await expect(searchBox(page)).toHaveCount(0);
});

test.describe('the large world', () => {
  test.use({ seed: 'large' });

  test("a project of 1,000 pools is searched whole, through the API's pages", async ({ projects, open }) => {
    const page = await open(`/projects/${projects.Large}/clusters`);
    await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
    await page.keyboard.press('/');
    await searchBox(page).fill('pool-0999');
    await expect(options(page).filter({ hasText: 'big / pool-0999' })).toBeVisible();
  });

  test("a page of a cluster's pools that cannot be read: the pools read are found, the ones missing are named, Retry reads them", async ({ api, control, projects, open }) => {
    const large = projects.Large;
    const big = (await api('GET', `/v1/nks/clusters?project_id=${large}&limit=100`)).items.find((c) => c.name === 'big');
    const fault = await control.fault({
      match: { method: 'GET', path_prefix: `/v1/nks/clusters/${big.id}/pools` },
      action: { type: 'page_fail', page: 8, status: 503 },
    });
    const page = await open(`/projects/${large}/clusters`);
    await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
    await page.keyboard.press('/');
    const hint = page.locator('#site-search-hint');
    await expect(hint.getByText('big: pools 701–1,000 could not be read, so they are not found.')).toBeVisible();
    await searchBox(page).fill('pool-0005');
    await expect(options(page).filter({ hasText: 'big / pool-0005' })).toBeVisible();
    await searchBox(page).fill('pool-0999');
    await expect(page.getByText('No cluster or pool of this project matches.')).toBeVisible();
    await shot(page, 'search-pools-partly-read');

    await control('DELETE', `/_sim/faults/${fault.id}`);
    await hint.getByRole('button', { name: 'Retry' }).click();
    await expect(options(page).filter({ hasText: 'big / pool-0999' })).toBeVisible();
    await expect(hint.getByText(/could not be read/)).toHaveCount(0);
  });
});
