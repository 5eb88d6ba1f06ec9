// The operations page at scale (issue 22, "Operations at scale"): the `large`
// world's project holds over 2,000 operations on over 1,000 resources. The page
// reads them 50 at a time through the API's cursors, with Next and Previous, the
// page in the URL (Back, Forward, reload and a shared link land on it); the
// resource filter is a search box with sorted suggestions, every filter applied
// by the API; a page that cannot be read says so in its place, with a retry of
// that page alone; a deleted resource keeps its last known name; times never wrap.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, shot, DEMO_KEY } from './harness.mjs';

let sim;
let browser;
let large;

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
  large = projects.items.find((p) => p.name === 'Large').id;
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(method, route, body) {
  const res = await fetch(sim.url + route, {
    method,
    headers: { authorization: `Bearer ${DEMO_KEY}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  assert.ok(res.ok, `${method} ${route} answered ${res.status}: ${await res.clone().text()}`);
  return res.json();
}

/** The operations the API lists for `query`, newest first, `limit` from `offset`. */
async function listed(query, { offset = 0, limit = 100 } = {}) {
  const items = [];
  let cursor = null;
  let total = 0;
  while (items.length < offset + limit) {
    const page = await call('GET', `/v1/operations?project_id=${large}&sort=created_at:desc&limit=100${query}${cursor ? `&cursor=${cursor}` : ''}`);
    items.push(...page.items);
    total = page.pagination.total_count;
    cursor = page.pagination.next_cursor;
    if (!cursor) break;
  }
  return { items: items.slice(offset, offset + limit), total };
}

async function open(path, size) {
  const { context, page } = await openPage(browser, size);
  await page.goto(sim.url + path);
  await connect(page);
  return { context, page };
}

const table = (page) => page.getByRole('table', { name: 'Operations' });
const pager = (page) => page.getByRole('navigation', { name: 'Operation pages' });
const pagerCount = (page) => pager(page).locator('.pager-count');
/** The ids of the operations the table shows, from each row's link to its page. */
const shownIds = (page) =>
  table(page).locator('tbody tr td:first-child a').evaluateAll((links) => links.map((a) => a.getAttribute('href').split('/').pop().split('?')[0]));
const operationReads = (page) => page.requestsMade.map((r) => new URL(r.url)).filter((u) => u.pathname === '/v1/operations');
/** Reads of the list's pages, newest first (not the tracker's own search for operations in flight). */
const pageReads = (page) => operationReads(page).filter((u) => u.searchParams.get('sort') === 'created_at:desc');
const fmt = (n) => n.toLocaleString('en-US');

async function waitForCount(page, text) {
  try {
    await page.waitForFunction(
      (want) => document.querySelector('nav[aria-label="Operation pages"] .pager-count')?.textContent.startsWith(want),
      text,
      { timeout: 15_000 },
    );
  } catch (err) {
    // Say what the page showed and read instead, so a timeout can be told apart.
    const shown = await pagerCount(page).textContent().catch(() => '(no pager)');
    const reads = operationReads(page).slice(-4).map((u) => u.search);
    throw new Error(`waited for "${text}", the pager shows "${shown}" at ${page.url()}; last reads: ${reads.join(' | ')}`, { cause: err });
  }
}

test('the operations come 50 a page with Next and Previous, and the page is in the URL', async () => {
  const { items: newest, total } = await listed('', { limit: 150 });
  assert.ok(total > 2000, `the large world has over 2,000 operations, not ${total}`);
  const pages = Math.ceil(total / 50);
  const { context, page } = await open(`/projects/${large}/operations`);
  await table(page).waitFor();
  await waitForCount(page, `1–50 of ${fmt(total)} · page 1 of ${pages}`);
  assert.deepEqual(await shownIds(page), newest.slice(0, 50).map((o) => o.id), 'the 50 newest, newest first');
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  assert.ok(height < 8_000, `one page of rows, not every operation: ${height}px tall`);
  assert.ok(await pager(page).getByRole('button', { name: 'Previous' }).isDisabled(), 'no page before the first');
  const first = pageReads(page);
  assert.equal(first.length, 1, `one page read, not all ${pages}: ${first.map((u) => u.search).join(' ')}`);
  assert.equal(first[0].searchParams.get('limit'), '50');
  assert.equal(first[0].searchParams.get('cursor'), null);
  await shot(page, 'operations-scale-page1');

  await pager(page).getByRole('button', { name: 'Next' }).click();
  await waitForCount(page, `51–100 of ${fmt(total)} · page 2 of ${pages}`);
  assert.deepEqual(await shownIds(page), newest.slice(50, 100).map((o) => o.id));
  assert.ok(new URL(page.url()).searchParams.get('cursor'), 'the page is in the URL');
  await pager(page).getByRole('button', { name: 'Next' }).click();
  await waitForCount(page, `101–150 of ${fmt(total)} · page 3 of ${pages}`);
  const third = page.url();
  assert.deepEqual(await shownIds(page), newest.slice(100, 150).map((o) => o.id));

  // Back and Forward step through the pages; a reload stays on the page.
  await page.goBack();
  await waitForCount(page, '51–100 of');
  assert.deepEqual(await shownIds(page), newest.slice(50, 100).map((o) => o.id));
  await page.goForward();
  await waitForCount(page, '101–150 of');
  await page.reload();
  await waitForCount(page, `101–150 of ${fmt(total)} · page 3 of ${pages}`);
  assert.deepEqual(await shownIds(page), newest.slice(100, 150).map((o) => o.id));
  await pager(page).getByRole('button', { name: 'Previous' }).click();
  await waitForCount(page, '51–100 of');
  await pager(page).getByRole('button', { name: 'Previous' }).click();
  await waitForCount(page, '1–50 of');
  assert.deepEqual(await shownIds(page), newest.slice(0, 50).map((o) => o.id));
  assert.ok(await pager(page).getByRole('button', { name: 'Previous' }).isDisabled());
  await context.close();

  // A shared link opens the same page, with its way back.
  const shared = await open(new URL(third).pathname + new URL(third).search);
  await waitForCount(shared.page, `101–150 of ${fmt(total)} · page 3 of ${pages}`);
  assert.deepEqual(await shownIds(shared.page), newest.slice(100, 150).map((o) => o.id));
  await pager(shared.page).getByRole('button', { name: 'Previous' }).click();
  await waitForCount(shared.page, '51–100 of');
  await shared.context.close();
});

test('the resource filter is a search box with sorted suggestions, and every filter goes to the API', async () => {
  const { context, page } = await open(`/projects/${large}/operations`);
  await table(page).waitFor();
  const search = page.getByRole('combobox', { name: 'Resource' });
  assert.equal(await search.evaluate((el) => el.tagName), 'INPUT', 'a search box, not a select of every resource');
  const suggestions = page.getByRole('listbox', { name: 'Resources' });

  await search.fill('pool-00');
  await suggestions.getByRole('option', { name: /big \/ pool-0000/ }).waitFor({ timeout: 15_000 });
  const options = await suggestions.getByRole('option').allTextContents();
  assert.equal(options.length, 10, 'a short list');
  assert.deepEqual(
    options.map((o) => o.match(/^big \/ pool-\d{4}/)?.[0]),
    ['0000', '0001', '0002', '0003', '0004', '0005', '0006', '0007', '0008', '0009'].map((n) => `big / pool-${n}`),
    'sorted by name',
  );
  await assert.doesNotReject(page.getByText('90 more match: keep typing.').waitFor());

  // The clusters and their pools, ordered as a person orders names.
  await search.fill('large-');
  await suggestions.getByRole('option', { name: /^large-05 \/ workers/ }).waitFor();
  const labels = (await suggestions.getByRole('option').allTextContents()).map((o) => o.replace(/[0-9a-f-]{36}$/, ''));
  assert.deepEqual(labels, [1, 2, 3, 4, 5].flatMap((n) => [`large-0${n}`, `large-0${n} / workers`]));
  await shot(page, 'operations-scale-search');

  // By keyboard: the highlighted suggestion is chosen, and the API filters.
  await search.fill('pool-0042');
  await suggestions.getByRole('option', { name: /big \/ pool-0042/ }).waitFor();
  await search.press('ArrowDown');
  await search.press('Enter');
  await page.waitForURL(/[?&]resource=/);
  const poolId = new URL(page.url()).searchParams.get('resource');
  const { items: ofPool } = await listed(`&resource_id=${poolId}`);
  assert.ok(ofPool.length >= 2, 'its create and its update');
  await waitForCount(page, `1–${ofPool.length} of ${ofPool.length} · page 1 of 1`);
  assert.deepEqual(await shownIds(page), ofPool.map((o) => o.id));
  for (const row of await table(page).locator('tbody tr').all()) {
    await assert.doesNotReject(row.getByRole('link', { name: 'big / pool-0042' }).waitFor());
  }
  assert.ok(pageReads(page).some((u) => u.searchParams.get('resource_id') === poolId), 'filtered by the API');
  assert.equal(await suggestions.isVisible(), false, 'the list closes once chosen');

  // A reload keeps it, shown by name; clearing shows every resource again.
  await page.reload();
  await table(page).waitFor();
  await page.waitForFunction(() => document.querySelector('#ops-resource')?.value === 'big / pool-0042', null, { timeout: 15_000 });
  await assert.doesNotReject(page.getByText('Showing operations of big / pool-0042.').waitFor());
  await page.getByRole('button', { name: 'Show every resource' }).click();
  await page.waitForURL((url) => !url.searchParams.has('resource'));
  await waitForCount(page, '1–50 of');

  // Status, kind and type with paging: the API filters and its cursors follow.
  // One filter at a time, each in the URL before the next (what quick changes
  // in a row do is not this test's subject).
  await page.getByLabel('Kind').selectOption('nks_node_pool');
  await page.waitForURL(/kind=nks_node_pool/);
  await page.getByLabel('Type').selectOption('update');
  await page.waitForURL(/type=update/);
  await page.getByLabel('Status').selectOption('done');
  await page.waitForURL((url) => ['kind', 'type', 'status'].every((k) => url.searchParams.has(k)));
  const { items: updates, total } = await listed('&kind=nks_node_pool&type=update&status=done', { limit: 100 });
  assert.ok(total > 50, `more than a page of pool updates: ${total}`);
  await waitForCount(page, `1–50 of ${fmt(total)}`);
  await pager(page).getByRole('button', { name: 'Next' }).click();
  await waitForCount(page, `51–100 of ${fmt(total)}`);
  assert.deepEqual(await shownIds(page), updates.slice(50, 100).map((o) => o.id));
  const url = new URL(page.url());
  assert.deepEqual(
    [url.searchParams.get('status'), url.searchParams.get('kind'), url.searchParams.get('type')],
    ['done', 'nks_node_pool', 'update'],
  );
  const last = pageReads(page).pop();
  assert.deepEqual(
    [last.searchParams.get('status'), last.searchParams.get('kind'), last.searchParams.get('type'), last.searchParams.get('limit')],
    ['done', 'nks_node_pool', 'update', '50'],
  );
  await context.close();
});

test('a page that cannot be read says so in its place, and Retry reads that page alone', async () => {
  const { total } = await listed('', { limit: 10 });
  const { context, page } = await open(`/projects/${large}/operations`);
  await waitForCount(page, '1–50 of');
  // The second page's read fails, and so do the client's two retries.
  await sim.control('POST', '/_sim/faults', {
    match: { method: 'GET', path_prefix: '/v1/operations' },
    count: 3,
    action: { type: 'page_fail', page: 2, status: 503 },
  });
  const before = pageReads(page).length;
  await pager(page).getByRole('button', { name: 'Next' }).click();
  const failed = page.getByRole('group', { name: 'Page 2 of the operations' });
  await failed.waitFor({ timeout: 20_000 });
  await assert.doesNotReject(failed.getByText('Page 2 of the operations could not be read.').waitFor());
  const alert = failed.getByRole('alert');
  assert.match(await alert.getAttribute('class'), /outcome-temporary/, 'one of the five outcomes: temporary');
  assert.match(await alert.textContent(), /503/);
  assert.equal(await table(page).count(), 0, 'no rows of another page under page 2');
  assert.equal(await page.getByText('No operations').count(), 0, 'never an empty list');
  await assert.doesNotReject(pagerCount(page).filter({ hasText: 'page 2 could not be read' }).waitFor());
  assert.ok(await pager(page).getByRole('button', { name: 'Next' }).isDisabled(), 'no next page known');
  assert.ok(!(await pager(page).getByRole('button', { name: 'Previous' }).isDisabled()), 'the way back stays');
  await shot(page, 'operations-scale-page-failed');
  const narrow = await context.newPage();
  narrow.requestsMade = [];
  await narrow.setViewportSize({ width: 390, height: 800 });
  await sim.control('POST', '/_sim/faults', {
    match: { method: 'GET', path_prefix: '/v1/operations' },
    count: 3,
    action: { type: 'page_fail', page: 2, status: 503 },
  });
  await narrow.goto(page.url());
  await connect(narrow);
  await narrow.getByRole('group', { name: 'Page 2 of the operations' }).waitFor({ timeout: 20_000 });
  await shot(narrow, 'operations-scale-page-failed-390');
  const overflow = await narrow.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px at 390 px`);
  await narrow.close();

  const reads = pageReads(page).slice(before);
  assert.equal(reads.length, 3, 'page 2 was read three times (the client retried twice)');
  const cursor = new URL(page.url()).searchParams.get('cursor');
  assert.ok(reads.every((u) => u.searchParams.get('cursor') === cursor));
  await failed.getByRole('button', { name: 'Retry' }).click();
  await waitForCount(page, `51–100 of ${fmt(total)}`);
  const retried = pageReads(page).slice(before + 3);
  assert.equal(retried.length, 1, 'Retry read one page');
  assert.equal(retried[0].searchParams.get('cursor'), cursor, 'and it was page 2');
  assert.equal(await shownIds(page).then((ids) => ids.length), 50);
  await context.close();
});

test('a rate-limited page says it is retrying in N s, then shows the page', async () => {
  const { context, page } = await open(`/projects/${large}/operations`);
  await waitForCount(page, '1–50 of');
  // The tracker's search for operations in flight (by status, once the page is
  // idle) goes first, so the one 429 below meets the page's read.
  for (let i = 0; i < 100 && operationReads(page).filter((u) => u.searchParams.has('status')).length < 3; i++) await sleep(100);
  await sim.control('POST', '/_sim/faults', {
    match: { method: 'GET', path_prefix: '/v1/operations' },
    count: 1,
    action: { type: 'status', status: 429, message: 'slow down', retry_after: '4' },
  });
  await pager(page).getByRole('button', { name: 'Next' }).click();
  const wait = page.getByRole('status').filter({ hasText: 'Rate limited by the API (429): List operations is retrying in' });
  await assert.doesNotReject(wait.waitFor({ timeout: 5_000 }));
  assert.match(await wait.textContent(), /retrying in [1-5] s\./, 'the 4 s asked for');
  await assert.doesNotReject(page.getByText('Loading page 2 of the operations…').waitFor({ timeout: 1_000 }));
  assert.equal(await table(page).count(), 0, 'page 1\'s rows do not stand in for page 2');
  await shot(page, 'operations-scale-rate-limited');
  await waitForCount(page, '51–100 of');
  assert.equal(await wait.count(), 0, 'the line leaves once the page came');
  await context.close();
});

test('times do not wrap, and a deleted resource keeps its last known name', async () => {
  // Rename a pool, then delete it, as another tool would.
  const prod = (await call('GET', '/v1/projects')).items.find((p) => p.name === 'Production');
  const cluster = (await call('GET', `/v1/nks/clusters?project_id=${prod.id}`)).items[0];
  const pools = (await call('GET', `/v1/nks/clusters/${cluster.id}/pools`)).items;
  const zero = pools.find((p) => p.name === 'batch-zero');
  const settle = async (op) => {
    for (let i = 0; i < 100 && (await call('GET', `/v1/operations/${op.id}`)).status !== 'done'; i++) await sleep(100);
  };
  await settle(await call('PATCH', `/v1/nks/clusters/${cluster.id}/pools/${zero.id}`, { name: 'zero-renamed' }));
  await settle(await call('DELETE', `/v1/nks/clusters/${cluster.id}/pools/${zero.id}`));

  for (const width of [1280, 390]) {
    const { context, page } = await open(`/projects/${prod.id}/operations`, { width });
    await table(page).waitFor();
    const deleted = table(page).locator('tbody tr').filter({ hasText: 'Delete pool' }).first();
    await assert.doesNotReject(deleted.getByText('zero-renamed').waitFor({ timeout: 15_000 }));
    await assert.doesNotReject(deleted.getByText('(deleted)').waitFor());
    assert.equal(await deleted.getByText(zero.id).count(), 0, 'a name, not a bare id');
    await page.getByRole('combobox', { name: 'Resource' }).fill('zero');
    await assert.doesNotReject(page.getByRole('option', { name: /zero-renamed \(deleted\)/ }).waitFor());
    await page.keyboard.press('Escape');
    // Each time cell is one line: the date, time and zone stay together.
    const lines = await table(page).locator('tbody tr').first().locator('td').evaluateAll((cells) =>
      cells.slice(5, 7).map((cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        return tops.size;
      }),
    );
    assert.deepEqual(lines, [1, 1], `Started and Elapsed are each one line at ${width} px`);
    await shot(page, `operations-scale-deleted-${width}`);
    await context.close();
  }
});
