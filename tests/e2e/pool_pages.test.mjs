// A cluster's pools come in API pages of 100 (issue 23, item 3, last bullet).
// When one page cannot be read (after the client's own retries), the cluster
// page shows the pools that loaded, marks the gap in the table's place ("Pools
// 701–1,000 could not be read") with a Retry that reads from that page alone,
// and never presents the pools read as all of them: the count, the filter's
// count and the capacity figures say "of the pools read". A refresh that fails
// partway keeps what was shown; a first page that fails shows the error.
// The `large` world's cluster "big" has 1,000 pools: pages 1–10.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, shot } from './harness.mjs';

let sim;
let browser;
let project;
let big;
/** The cursor that reads page n of big's pools (cursors[1] is null). */
let cursors;
let pools;

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
  const clusters = (await sim.api(`/v1/nks/clusters?project_id=${project}&limit=100`)).items;
  big = clusters.find((c) => c.name === 'big');
  pools = [];
  cursors = [undefined, null];
  let cursor = null;
  for (;;) {
    const page = await sim.api(`/v1/nks/clusters/${big.id}/pools?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    pools.push(...page.items);
    cursor = page.pagination.next_cursor;
    if (!cursor) break;
    cursors.push(cursor);
  }
  assert.equal(pools.length, 1000);
  assert.equal(cursors.length, 11, 'ten pages');
});

/** Page `page` of big's pools fails `count` times (the client tries a read three times). */
const failPage = (page, count = 3) =>
  sim.control('POST', '/_sim/faults', {
    match: { method: 'GET', path_prefix: `/v1/nks/clusters/${big.id}/pools` },
    count,
    action: { type: 'page_fail', page, status: 503 },
  });

/** The page numbers of the reads of big's pool list the tab made, in order. */
const poolReads = (page) =>
  page.requestsMade
    .map((r) => new URL(r.url))
    .filter((u) => u.pathname === `/v1/nks/clusters/${big.id}/pools`)
    .map((u) => {
      const n = cursors.indexOf(u.searchParams.get('cursor'));
      return n === -1 ? `unknown cursor ${u.searchParams.get('cursor')}` : n;
    });

const pager = (page) => page.getByRole('navigation', { name: 'Pool pages' });
const poolsTable = (page) => page.getByRole('table', { name: 'Pools' });
const rowNames = (page) => poolsTable(page).locator('tbody tr td:first-child').allTextContents();

/** Waits until the pager's count reads `text` exactly. */
async function waitCount(page, text, timeout = 30_000) {
  await page.waitForFunction(
    (want) => document.querySelector('nav[aria-label="Pool pages"] .pager-count')?.textContent === want,
    text,
    { timeout },
  );
}

async function open(size) {
  const { context, page } = await openPage(browser, size);
  await page.goto(sim.url + `/projects/${project}/clusters/${big.id}`);
  await connect(page);
  return { context, page };
}

test('page 8 of the pools fails: the 700 read are shown, the gap and the count say so, and Retry reads from page 8 on', async () => {
  await failPage(8);
  const { context, page } = await open();
  const gap = page.getByRole('group', { name: 'Pools not read' });
  await gap.waitFor({ timeout: 30_000 });
  await assert.doesNotReject(gap.getByText('Pools 701–1,000 could not be read.').waitFor());
  await assert.doesNotReject(gap.getByText('700 of 1,000 pools read: those shown are not all of this cluster\'s pools.').waitFor());
  await assert.doesNotReject(gap.getByText('Retry reads page 8 onward.').waitFor());
  const alert = gap.getByRole('alert');
  assert.match(await alert.getAttribute('class'), /outcome-temporary/, 'one of the five outcomes: temporary');
  assert.match(await alert.textContent(), /List pools answered 503/);
  // The rows are those read; the count never says "of 1,000" as if all were there.
  await waitCount(page, '1–50 of the 700 read');
  await assert.doesNotReject(pager(page).getByText('700 of 1,000 pools read', { exact: true }).waitFor());
  assert.deepEqual(await rowNames(page), pools.slice(0, 50).map((p) => p.name));
  assert.deepEqual(poolReads(page), [1, 2, 3, 4, 5, 6, 7, 8, 8, 8], 'pages 1 to 7, then page 8 three times (the client retried twice)');

  // Retry: page 8 and the pages after it, not page 1 again; then all 1,000.
  const before = poolReads(page).length;
  await gap.getByRole('button', { name: 'Retry' }).click();
  await waitCount(page, '1–50 of 1,000', 20_000);
  assert.deepEqual(poolReads(page).slice(before, before + 3), [8, 9, 10], 'Retry read pages 8, 9 and 10');
  assert.equal(await gap.count(), 0, 'no gap left');
  assert.equal(await pager(page).getByText('pools read').count(), 0);
  assert.deepEqual(await rowNames(page), pools.slice(0, 50).map((p) => p.name));
  // The pools of page 10 are there now.
  await page.getByLabel('Filter pools').fill('pool-099');
  await waitCount(page, '1–10 of 10 matching (of 1,000)');
  assert.deepEqual(await rowNames(page), pools.slice(990).map((p) => p.name));
  await context.close();
});

test('with a gap, the filter, its count and the capacity figures speak of the pools read, not of all', async () => {
  await failPage(8);
  const { context, page } = await open();
  const gap = page.getByRole('group', { name: 'Pools not read' });
  await gap.waitFor({ timeout: 30_000 });
  // A pool past the gap is not "missing from the cluster": it was not read.
  await page.getByLabel('Filter pools').fill('pool-0749');
  await assert.doesNotReject(page.getByText('None of the 700 pools read match this filter (300 could not be read).').waitFor());
  await page.getByLabel('Filter pools').fill('pool-069');
  await waitCount(page, '1–10 of 10 matching among the 700 read');
  assert.deepEqual(await rowNames(page), pools.slice(690, 700).map((p) => p.name));
  await page.getByLabel('Filter pools').fill('');
  await waitCount(page, '1–50 of the 700 read');
  // vCPU and memory: the sums of the pools read, as floors that say so; each
  // row's share of the cluster withheld (its total is not known).
  const figures = page.getByRole('list', { name: 'Capacity and cost' });
  await page.waitForFunction(() => document.querySelector('ul[aria-label="Capacity and cost"]')?.textContent.includes('The sum of the 700 pools read'), null, { timeout: 20_000 });
  const text = await figures.textContent();
  assert.match(text, /vCPU\s*≥ [\d,]+ \(The sum of the 700 pools read; pools 701–1,000 could not be read\.\)/);
  assert.match(text, /Memory\s*≥ [\d,]+ GB \(The sum of the 700 pools read; pools 701–1,000 could not be read\.\)/);
  const share = poolsTable(page).locator('tbody tr').first().locator('td').nth(3);
  await page.waitForFunction(() => document.querySelector('table[aria-label="Pools"] tbody tr td:nth-child(4)')?.textContent.includes('pools 701'), null, { timeout: 20_000 });
  assert.equal((await share.locator('span').first().textContent()).trim(), '—');
  assert.match(await share.textContent(), /The cluster's total is not known: pools 701–1,000 could not be read/);
  await shot(page, 'pool-pages-gap-1280');
  await page.setViewportSize({ width: 390, height: 860 });
  await shot(page, 'pool-pages-gap-390');
  const box = await gap.boundingBox();
  assert.ok(box.x + box.width <= 390, `the gap's notice fits 390 px: ends at ${box.x + box.width}`);
  const count = await pager(page).locator('.pager-count').last().boundingBox();
  assert.ok(count.x + count.width <= 390, `the count fits 390 px: ends at ${count.x + count.width}`);
  await context.close();
});

test('a refresh that fails partway keeps the 1,000 shown and says it stopped; Retry reads from its failed page', async () => {
  const { context, page } = await open();
  await waitCount(page, '1–50 of 1,000');
  const reads = poolReads(page).length;
  // The next refresh (every 15 s) stops at page 8.
  await failPage(8);
  const stopped = page.getByRole('group', { name: 'Refresh stopped' });
  await stopped.waitFor({ timeout: 40_000 });
  await assert.doesNotReject(
    stopped.getByText('The last refresh stopped at page 8: pools 701–1,000 could not be read again. The list below is the one read before; it may be out of date.').waitFor(),
  );
  await assert.doesNotReject(stopped.getByText('Retry reads page 8 onward.').waitFor());
  assert.match(await stopped.getByRole('alert').textContent(), /503/);
  assert.deepEqual(poolReads(page).slice(reads), [1, 2, 3, 4, 5, 6, 7, 8, 8, 8], 'the refresh read pages 1 to 7, then failed on page 8');
  // What was shown stays: all 1,000, not the 700 the refresh read.
  await waitCount(page, '1–50 of 1,000');
  assert.equal(await page.getByRole('group', { name: 'Pools not read' }).count(), 0);
  assert.deepEqual(await rowNames(page), pools.slice(0, 50).map((p) => p.name));
  const before = poolReads(page).length;
  await stopped.getByRole('button', { name: 'Retry' }).click();
  await stopped.waitFor({ state: 'detached', timeout: 20_000 });
  assert.deepEqual(poolReads(page).slice(before, before + 3), [8, 9, 10], 'Retry read pages 8, 9 and 10');
  await waitCount(page, '1–50 of 1,000');
  await context.close();
});

test('a first page that fails shows the error with Retry, never an empty list; a retry that then stops at page 8 shows the 700', async () => {
  await failPage(1);
  const { context, page } = await open();
  const failed = page.getByRole('alert').filter({ hasText: 'List pools answered 503' });
  await failed.waitFor({ timeout: 30_000 });
  assert.equal(await poolsTable(page).count(), 0, 'no table');
  assert.equal(await page.getByText('This cluster has no pools.').count(), 0, 'never an empty list');
  assert.equal(await pager(page).count(), 0);
  assert.deepEqual(poolReads(page), [1, 1, 1]);
  // Retry reads from page 1; this time page 8 fails.
  await failPage(8);
  await failed.getByRole('button', { name: 'Retry' }).click();
  const gap = page.getByRole('group', { name: 'Pools not read' });
  await gap.waitFor({ timeout: 30_000 });
  await waitCount(page, '1–50 of the 700 read');
  assert.deepEqual(poolReads(page).slice(3), [1, 2, 3, 4, 5, 6, 7, 8, 8, 8]);
  await gap.getByRole('button', { name: 'Retry' }).click();
  await waitCount(page, '1–50 of 1,000', 20_000);
  assert.deepEqual(poolReads(page).slice(13, 16), [8, 9, 10]);
  await context.close();
});
