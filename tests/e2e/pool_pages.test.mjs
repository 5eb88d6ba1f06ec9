// A cluster's pools come in API pages of 100 (issue 23, item 3, last bullet).
// When one page cannot be read (after the client's own retries), the cluster
// page shows the pools that loaded, marks the gap in the table's place ("Pools
// 701–1,000 could not be read") with a Retry that reads from that page alone,
// and never presents the pools read as all of them: the count, the filter's
// count and the capacity figures say "of the pools read". A refresh that fails
// partway keeps what was shown; a first page that fails shows the error.
// The `large` world's cluster "big" has 1,000 pools: pages 1–10.
import { test as base, expect, shot } from './fixtures.mjs';

/** The `large` world's cluster "big": its project, id, its 1,000 pools in the
 *  API's order, and the cursor that reads page n of them (cursors[1] is null). */
const test = base.extend({
  big: async ({ api, projects }, use) => {
    const project = projects.Large;
    const clusters = (await api('GET', `/v1/nks/clusters?project_id=${project}&limit=100`)).items;
    const { id } = clusters.find((c) => c.name === 'big');
    const pools = [];
    const cursors = [undefined, null];
    let cursor = null;
    for (;;) {
      const page = await api('GET', `/v1/nks/clusters/${id}/pools?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      pools.push(...page.items);
      cursor = page.pagination.next_cursor;
      if (!cursor) break;
      cursors.push(cursor);
    }
    expect(pools).toHaveLength(1000);
    expect(cursors, 'ten pages').toHaveLength(11);
    await use({ project, id, pools, cursors });
  },
});

// These tests read the requests the page made.
test.use({ recordRequests: true });

test.use({ seed: 'large' });

/** Page `page` of big's pools fails until the test clears the fault (the
 *  client tries a read three times). The page's own refresh (every 15 s) may
 *  come meanwhile and meets the same fault, so what is shown stays as it is
 *  until the test lets the page be read and asks for a Retry. */
const failPage = (control, big, page) =>
  control.fault({
    match: { method: 'GET', path_prefix: `/v1/nks/clusters/${big.id}/pools` },
    action: { type: 'page_fail', page, status: 503 },
  });

/** The page numbers of the reads of big's pool list the tab made, in order. */
const poolReads = (page, big) =>
  page.requestsMade
    .map((r) => new URL(r.url))
    .filter((u) => u.pathname === `/v1/nks/clusters/${big.id}/pools`)
    .map((u) => {
      const n = big.cursors.indexOf(u.searchParams.get('cursor'));
      return n === -1 ? `unknown cursor ${u.searchParams.get('cursor')}` : n;
    });

const pager = (page) => page.getByRole('navigation', { name: 'Pool pages' });
/** The pager's count (the first of its counts; a gap adds "N of M pools read"). */
const pagerCount = (page) => pager(page).locator('.pager-count').first();
const poolsTable = (page) => page.getByRole('table', { name: 'Pools' });
const rowNames = (page) => poolsTable(page).locator('tbody tr td:first-child');
const names = (pools) => pools.map((p) => p.name);

const openBig = (open, big, options) => open(`/projects/${big.project}/clusters/${big.id}`, options);

test('page 8 of the pools fails: the 700 read are shown, the gap and the count say so, and Retry reads from page 8 on', async ({ big, control, open }) => {
  await failPage(control, big, 8);
  const page = await openBig(open, big);
  const gap = page.getByRole('group', { name: 'Pools not read' });
  await expect(gap).toBeVisible();
  await expect(gap.getByText('Pools 701–1,000 could not be read.')).toBeVisible();
  await expect(gap.getByText('700 of 1,000 pools read: those shown are not all of this cluster\'s pools.')).toBeVisible();
  await expect(gap.getByText('Retry reads page 8 onward.')).toBeVisible();
  const alert = gap.getByRole('alert');
  await expect(alert, 'one of the five outcomes: temporary').toHaveAttribute('class', /outcome-temporary/);
  await expect(alert).toContainText('List pools answered 503');
  // The rows are those read; the count never says "of 1,000" as if all were there.
  await expect(pagerCount(page)).toHaveText('1–50 of the 700 read');
  await expect(pager(page).getByText('700 of 1,000 pools read', { exact: true })).toBeVisible();
  await expect(rowNames(page)).toHaveText(names(big.pools.slice(0, 50)));
  expect(poolReads(page, big), 'pages 1 to 7, then page 8 three times (the client retried twice)').toEqual([1, 2, 3, 4, 5, 6, 7, 8, 8, 8]);

  // Retry: page 8 and the pages after it, not page 1 again; then all 1,000.
  await control.clearFaults();
  const before = poolReads(page, big).length;
  await gap.getByRole('button', { name: 'Retry' }).click();
  await expect(pagerCount(page)).toHaveText('1–50 of 1,000');
  expect(poolReads(page, big).slice(before, before + 3), 'Retry read pages 8, 9 and 10').toEqual([8, 9, 10]);
  await expect(gap, 'no gap left').toHaveCount(0);
  await expect(pager(page).getByText('pools read')).toHaveCount(0);
  await expect(rowNames(page)).toHaveText(names(big.pools.slice(0, 50)));
  // The pools of page 10 are there now.
  await page.getByLabel('Filter pools').fill('pool-099');
  await expect(pagerCount(page)).toHaveText('1–10 of 10 matching (of 1,000)');
  await expect(rowNames(page)).toHaveText(names(big.pools.slice(990)));
});

test('with a gap, the filter, its count and the capacity figures speak of the pools read, not of all', async ({ big, control, open }) => {
  await failPage(control, big, 8);
  const page = await openBig(open, big);
  const gap = page.getByRole('group', { name: 'Pools not read' });
  await expect(gap).toBeVisible();
  // A pool past the gap is not "missing from the cluster": it was not read.
  await page.getByLabel('Filter pools').fill('pool-0749');
  await expect(page.getByText('None of the 700 pools read match this filter (300 could not be read).')).toBeVisible();
  await page.getByLabel('Filter pools').fill('pool-069');
  await expect(pagerCount(page)).toHaveText('1–10 of 10 matching among the 700 read');
  await expect(rowNames(page)).toHaveText(names(big.pools.slice(690, 700)));
  await page.getByLabel('Filter pools').fill('');
  await expect(pagerCount(page)).toHaveText('1–50 of the 700 read');
  // vCPU and memory: the sums of the pools read, as floors that say so; each
  // row's share of the cluster withheld (its total is not known).
  const figures = page.getByRole('list', { name: 'Capacity and cost' });
  await expect(figures).toHaveText(/vCPU\s*≥ [\d,]+ \(The sum of the 700 pools read; pools 701–1,000 could not be read\.\)/);
  await expect(figures).toHaveText(/Memory\s*≥ [\d,]+ GB \(The sum of the 700 pools read; pools 701–1,000 could not be read\.\)/);
  // Too many pools to count ready nodes here: the nodes figure keeps its floor
  // and says where readiness is counted, never "— of ≥ N ready".
  const nodes = figures.getByRole('listitem').filter({ hasText: 'Nodes' });
  await expect(nodes).toContainText(/^Nodes ≥ [\d,]+ .*\(ready: on each pool's page\)/);
  await expect(nodes).not.toContainText(/ of (≥|—|…)|— of /);
  const share = poolsTable(page).locator('tbody tr').first().locator('td').nth(3);
  await expect(share).toContainText("The cluster's total is not known: pools 701–1,000 could not be read");
  await expect(share.locator('span').first()).toHaveText('—');
  await shot(page, 'pool-pages-gap-1280');
  await page.setViewportSize({ width: 390, height: 860 });
  await shot(page, 'pool-pages-gap-390');
  const box = await gap.boundingBox();
  expect(box.x + box.width, `the gap's notice fits 390 px: ends at ${box.x + box.width}`).toBeLessThanOrEqual(390);
  const count = await pager(page).locator('.pager-count').last().boundingBox();
  expect(count.x + count.width, `the count fits 390 px: ends at ${count.x + count.width}`).toBeLessThanOrEqual(390);
});

test('a refresh that fails partway keeps the 1,000 shown and says it stopped; Retry reads from its failed page', async ({ big, control, context, open }) => {
  // The page refreshes its lists every 15 s on the browser's clock: this tab's
  // clock is the test's, moved on to the next refresh instead of waited out.
  await context.clock.install();
  const page = await openBig(open, big, { context });
  await expect(pagerCount(page)).toHaveText('1–50 of 1,000');
  // The next refresh stops at page 8.
  await failPage(control, big, 8);
  const reads = poolReads(page, big).length;
  await page.clock.fastForward(15_000);
  const stopped = page.getByRole('group', { name: 'Refresh stopped' });
  await expect(stopped).toBeVisible();
  await expect(
    stopped.getByText('The last refresh stopped at page 8: pools 701–1,000 could not be read again. The list below is the one read before; it may be out of date.'),
  ).toBeVisible();
  await expect(stopped.getByText('Retry reads page 8 onward.')).toBeVisible();
  await expect(stopped.getByRole('alert')).toContainText('503');
  expect(poolReads(page, big).slice(reads), 'the refresh read pages 1 to 7, then failed on page 8').toEqual([1, 2, 3, 4, 5, 6, 7, 8, 8, 8]);
  // What was shown stays: all 1,000, not the 700 the refresh read.
  await expect(pagerCount(page)).toHaveText('1–50 of 1,000');
  await expect(page.getByRole('group', { name: 'Pools not read' })).toHaveCount(0);
  await expect(rowNames(page)).toHaveText(names(big.pools.slice(0, 50)));
  await control.clearFaults();
  const before = poolReads(page, big).length;
  await stopped.getByRole('button', { name: 'Retry' }).click();
  await expect(stopped).toHaveCount(0);
  expect(poolReads(page, big).slice(before, before + 3), 'Retry read pages 8, 9 and 10').toEqual([8, 9, 10]);
  await expect(pagerCount(page)).toHaveText('1–50 of 1,000');
});

test('a first page that fails shows the error with Retry, never an empty list; a retry that then stops at page 8 shows the 700', async ({ big, control, open }) => {
  await failPage(control, big, 1);
  const page = await openBig(open, big);
  const failed = page.getByRole('alert').filter({ hasText: 'List pools answered 503' });
  await expect(failed).toBeVisible();
  await expect(poolsTable(page), 'no table').toHaveCount(0);
  await expect(page.getByText('This cluster has no pools.'), 'never an empty list').toHaveCount(0);
  await expect(pager(page)).toHaveCount(0);
  expect(poolReads(page, big)).toEqual([1, 1, 1]);
  // Retry reads from page 1; this time page 8 fails.
  await control.clearFaults();
  await failPage(control, big, 8);
  let before = poolReads(page, big).length;
  await failed.getByRole('button', { name: 'Retry' }).click();
  const gap = page.getByRole('group', { name: 'Pools not read' });
  await expect(gap).toBeVisible();
  await expect(pagerCount(page)).toHaveText('1–50 of the 700 read');
  expect(poolReads(page, big).slice(before)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 8, 8]);
  await control.clearFaults();
  before = poolReads(page, big).length;
  await gap.getByRole('button', { name: 'Retry' }).click();
  await expect(pagerCount(page)).toHaveText('1–50 of 1,000');
  expect(poolReads(page, big).slice(before, before + 3)).toEqual([8, 9, 10]);
});
