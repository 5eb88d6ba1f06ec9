// The operations page at scale (issue 22, "Operations at scale"): the `large`
// world's project holds over 2,000 operations on over 1,000 resources. The page
// reads them 50 at a time through the API's cursors, with Next and Previous, the
// page in the URL (Back, Forward, reload and a shared link land on it); the
// resource filter is a search box with sorted suggestions, every filter applied
// by the API; a page that cannot be read says so in its place, with a retry of
// that page alone; a deleted resource keeps its last known name; times never wrap.
import { test, expect, shot } from './fixtures.mjs';

// These tests read the requests the page made.
test.use({ recordRequests: true });

test.use({ seed: 'large' });

/** The operations the API lists for `query` in the Large project, newest first, `limit` from `offset`. */
async function listed(api, large, query, { offset = 0, limit = 100 } = {}) {
  const items = [];
  let cursor = null;
  let total = 0;
  while (items.length < offset + limit) {
    const page = await api('GET', `/v1/operations?project_id=${large}&sort=created_at:desc&limit=100${query}${cursor ? `&cursor=${cursor}` : ''}`);
    items.push(...page.items);
    total = page.pagination.total_count;
    cursor = page.pagination.next_cursor;
    if (!cursor) break;
  }
  return { items: items.slice(offset, offset + limit), total };
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
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Waits until the pager's count starts with `text`; a failure says what the page showed and read instead. */
async function waitForCount(page, text) {
  try {
    await expect(pagerCount(page)).toHaveText(new RegExp(`^${escape(text)}`));
  } catch (err) {
    // Say what the page read as well, so a timeout can be told apart.
    const reads = operationReads(page).slice(-4).map((u) => u.search);
    err.message += `\nat ${page.url()}; last reads: ${reads.join(' | ')}`;
    throw err;
  }
}

test('the operations come 50 a page with Next and Previous, and the page is in the URL', async ({ api, projects, open }) => {
  const large = projects.Large;
  const { items: newest, total } = await listed(api, large, '', { limit: 150 });
  expect(total, 'the large world has over 2,000 operations').toBeGreaterThan(2000);
  const pages = Math.ceil(total / 50);
  const page = await open(`/projects/${large}/operations`);
  await expect(table(page)).toBeVisible();
  await waitForCount(page, `1–50 of ${fmt(total)} · page 1 of ${pages}`);
  expect(await shownIds(page), 'the 50 newest, newest first').toEqual(newest.slice(0, 50).map((o) => o.id));
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(height, 'one page of rows, not every operation').toBeLessThan(8_000);
  await expect(pager(page).getByRole('button', { name: 'Previous' }), 'no page before the first').toBeDisabled();
  const first = pageReads(page);
  expect(first.map((u) => u.search), `one page read, not all ${pages}`).toHaveLength(1);
  expect(first[0].searchParams.get('limit')).toBe('50');
  expect(first[0].searchParams.get('cursor')).toBeNull();
  await shot(page, 'operations-scale-page1');

  await pager(page).getByRole('button', { name: 'Next' }).click();
  await waitForCount(page, `51–100 of ${fmt(total)} · page 2 of ${pages}`);
  expect(await shownIds(page)).toEqual(newest.slice(50, 100).map((o) => o.id));
  expect(new URL(page.url()).searchParams.get('cursor'), 'the page is in the URL').toBeTruthy();
  await pager(page).getByRole('button', { name: 'Next' }).click();
  await waitForCount(page, `101–150 of ${fmt(total)} · page 3 of ${pages}`);
  const third = page.url();
  expect(await shownIds(page)).toEqual(newest.slice(100, 150).map((o) => o.id));

  // Back and Forward step through the pages; a reload stays on the page.
  await page.goBack();
  await waitForCount(page, '51–100 of');
  expect(await shownIds(page)).toEqual(newest.slice(50, 100).map((o) => o.id));
  await page.goForward();
  await waitForCount(page, '101–150 of');
  await page.reload();
  await waitForCount(page, `101–150 of ${fmt(total)} · page 3 of ${pages}`);
  expect(await shownIds(page)).toEqual(newest.slice(100, 150).map((o) => o.id));
  await pager(page).getByRole('button', { name: 'Previous' }).click();
  await waitForCount(page, '51–100 of');
  await pager(page).getByRole('button', { name: 'Previous' }).click();
  await waitForCount(page, '1–50 of');
  expect(await shownIds(page)).toEqual(newest.slice(0, 50).map((o) => o.id));
  await expect(pager(page).getByRole('button', { name: 'Previous' })).toBeDisabled();

  // A shared link opens the same page, with its way back.
  const shared = await open(new URL(third).pathname + new URL(third).search);
  await waitForCount(shared, `101–150 of ${fmt(total)} · page 3 of ${pages}`);
  expect(await shownIds(shared)).toEqual(newest.slice(100, 150).map((o) => o.id));
  await pager(shared).getByRole('button', { name: 'Previous' }).click();
  await waitForCount(shared, '51–100 of');
});

test('the resource filter is a search box with sorted suggestions, and every filter goes to the API', async ({ api, projects, open }) => {
  const large = projects.Large;
  const page = await open(`/projects/${large}/operations`);
  await expect(table(page)).toBeVisible();
  const search = page.getByRole('combobox', { name: 'Resource' });
  expect(await search.evaluate((el) => el.tagName), 'a search box, not a select of every resource').toBe('INPUT');
  const suggestions = page.getByRole('listbox', { name: 'Resources' });

  await search.fill('pool-00');
  await expect(suggestions.getByRole('option', { name: /big \/ pool-0000/ })).toBeVisible();
  // A short list, sorted by name.
  await expect(suggestions.getByRole('option')).toHaveText(
    ['0000', '0001', '0002', '0003', '0004', '0005', '0006', '0007', '0008', '0009'].map((n) => new RegExp(`^big / pool-${n}`)),
  );
  await expect(page.getByText('90 more match: keep typing.')).toBeVisible();

  // The clusters, their pools and their VPCs (whose operations the feed lists
  // too), ordered as a person orders names.
  await search.fill('large-');
  await expect(suggestions.getByRole('option', { name: /^large-03-vpc/ })).toBeVisible();
  await expect(suggestions.getByRole('option')).toHaveText(
    [...[1, 2, 3].flatMap((n) => [`large-0${n}`, `large-0${n} / workers`, `large-0${n}-vpc`]), 'large-04']
      .map((label) => new RegExp(`^${label}([0-9a-f-]{36})?$`)),
  );
  await shot(page, 'operations-scale-search');

  // By keyboard: the highlighted suggestion is chosen, and the API filters.
  await search.fill('pool-0042');
  await expect(suggestions.getByRole('option', { name: /big \/ pool-0042/ })).toBeVisible();
  await search.press('ArrowDown');
  await search.press('Enter');
  await expect(page).toHaveURL(/[?&]resource=/);
  const poolId = new URL(page.url()).searchParams.get('resource');
  const { items: ofPool } = await listed(api, large, `&resource_id=${poolId}`);
  expect(ofPool.length, 'its create and its update').toBeGreaterThanOrEqual(2);
  await waitForCount(page, `1–${ofPool.length} of ${ofPool.length} · page 1 of 1`);
  expect(await shownIds(page)).toEqual(ofPool.map((o) => o.id));
  for (const row of await table(page).locator('tbody tr').all()) {
    await expect(row.getByRole('link', { name: 'big / pool-0042' })).toBeVisible();
  }
  expect(pageReads(page).some((u) => u.searchParams.get('resource_id') === poolId), 'filtered by the API').toBe(true);
  await expect(suggestions, 'the list closes once chosen').toBeHidden();

  // A reload keeps it, shown by name; clearing shows every resource again.
  await page.reload();
  await expect(table(page)).toBeVisible();
  await expect(page.locator('#ops-resource')).toHaveValue('big / pool-0042');
  await expect(page.getByText('Showing operations of big / pool-0042.')).toBeVisible();
  await page.getByRole('button', { name: 'Show every resource' }).click();
  await expect(page).not.toHaveURL(/[?&]resource=/);
  await waitForCount(page, '1–50 of');

  // Status, kind and type with paging: the API filters and its cursors follow.
  // One filter at a time, each in the URL before the next (what quick changes
  // in a row do is not this test's subject).
  await page.getByLabel('Kind').selectOption('nks_node_pool');
  await expect(page).toHaveURL(/kind=nks_node_pool/);
  await page.getByLabel('Type').selectOption('update');
  await expect(page).toHaveURL(/type=update/);
  await page.getByLabel('Status').selectOption('done');
  await expect(page).toHaveURL((url) => ['kind', 'type', 'status'].every((k) => url.searchParams.has(k)));
  const { items: updates, total } = await listed(api, large, '&kind=nks_node_pool&type=update&status=done', { limit: 100 });
  expect(total, 'more than a page of pool updates').toBeGreaterThan(50);
  await waitForCount(page, `1–50 of ${fmt(total)}`);
  await pager(page).getByRole('button', { name: 'Next' }).click();
  await waitForCount(page, `51–100 of ${fmt(total)}`);
  expect(await shownIds(page)).toEqual(updates.slice(50, 100).map((o) => o.id));
  const url = new URL(page.url());
  expect([url.searchParams.get('status'), url.searchParams.get('kind'), url.searchParams.get('type')]).toEqual(['done', 'nks_node_pool', 'update']);
  const last = pageReads(page).pop();
  expect([last.searchParams.get('status'), last.searchParams.get('kind'), last.searchParams.get('type'), last.searchParams.get('limit')]).toEqual([
    'done',
    'nks_node_pool',
    'update',
    '50',
  ]);
});

test('a page that cannot be read says so in its place, and Retry reads that page alone', async ({ api, control, projects, open }) => {
  const large = projects.Large;
  const { total } = await listed(api, large, '', { limit: 10 });
  const page = await open(`/projects/${large}/operations`);
  await waitForCount(page, '1–50 of');
  // The second page's read fails, and so do the client's two retries.
  await control.fault({
    match: { method: 'GET', path_prefix: '/v1/operations' },
    count: 3,
    action: { type: 'page_fail', page: 2, status: 503 },
  });
  const before = pageReads(page).length;
  await pager(page).getByRole('button', { name: 'Next' }).click();
  const failed = page.getByRole('group', { name: 'Page 2 of the operations' });
  await expect(failed.getByText('Page 2 of the operations could not be read.')).toBeVisible();
  const alert = failed.getByRole('alert');
  await expect(alert, 'one of the five outcomes: temporary').toHaveClass(/outcome-temporary/);
  await expect(alert).toContainText('503');
  await expect(table(page), 'no rows of another page under page 2').toHaveCount(0);
  await expect(page.getByText('No operations'), 'never an empty list').toHaveCount(0);
  await expect(pagerCount(page).filter({ hasText: 'page 2 could not be read' })).toBeVisible();
  await expect(pager(page).getByRole('button', { name: 'Next' }), 'no next page known').toBeDisabled();
  await expect(pager(page).getByRole('button', { name: 'Previous' }), 'the way back stays').toBeEnabled();
  await shot(page, 'operations-scale-page-failed');
  await control.fault({
    match: { method: 'GET', path_prefix: '/v1/operations' },
    count: 3,
    action: { type: 'page_fail', page: 2, status: 503 },
  });
  const narrow = await open(page.url(), { context: page.context(), width: 390, height: 800 });
  await expect(narrow.getByRole('group', { name: 'Page 2 of the operations' })).toBeVisible();
  await shot(narrow, 'operations-scale-page-failed-390');
  const overflow = await narrow.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the page scrolls sideways at 390 px').toBeLessThanOrEqual(0);
  await narrow.close();

  const reads = pageReads(page).slice(before);
  expect(reads, 'page 2 was read three times (the client retried twice)').toHaveLength(3);
  const cursor = new URL(page.url()).searchParams.get('cursor');
  expect(reads.every((u) => u.searchParams.get('cursor') === cursor)).toBe(true);
  await failed.getByRole('button', { name: 'Retry' }).click();
  await waitForCount(page, `51–100 of ${fmt(total)}`);
  const retried = pageReads(page).slice(before + 3);
  expect(retried, 'Retry read one page').toHaveLength(1);
  expect(retried[0].searchParams.get('cursor'), 'and it was page 2').toBe(cursor);
  expect(await shownIds(page)).toHaveLength(50);
});

test('a rate-limited page says it is retrying in N s, then shows the page', async ({ control, projects, open }) => {
  const page = await open(`/projects/${projects.Large}/operations`);
  await waitForCount(page, '1–50 of');
  // The tracker's search for operations in flight (by status, once the page is
  // idle) goes first, so the one 429 below meets the page's read: its three
  // reads are sent, and the simulator has taken every list read the page sent.
  const listReads = async () => (await control.requests()).by_path['GET /v1/operations'] ?? 0;
  await expect
    .poll(async () => {
      const searches = operationReads(page).filter((u) => u.searchParams.has('status')).length;
      return searches >= 3 && (await listReads()) >= operationReads(page).length;
    }, { message: "the tracker's search for operations in flight is done" })
    .toBe(true);
  await control.fault({
    match: { method: 'GET', path_prefix: '/v1/operations' },
    count: 1,
    action: { type: 'status', status: 429, message: 'slow down', retry_after: '4' },
  });
  await pager(page).getByRole('button', { name: 'Next' }).click();
  const wait = page.getByRole('status').filter({ hasText: 'Rate limited by the API (429): List operations is retrying in' });
  await expect(wait, 'the 4 s asked for').toHaveText(/retrying in [1-5] s\./);
  // Seen while the line is still there, that is, while the retry waits.
  await expect(page.getByText('Loading page 2 of the operations…')).toBeVisible();
  await expect(table(page), "page 1's rows do not stand in for page 2").toHaveCount(0);
  await expect(wait).toBeVisible();
  await shot(page, 'operations-scale-rate-limited');
  await waitForCount(page, '51–100 of');
  await expect(wait, 'the line leaves once the page came').toHaveCount(0);
});

test('times do not wrap, and a deleted resource keeps its last known name', async ({ api, control, projects, open }) => {
  // Rename a pool, then delete it, as another tool would; each operation ends at once.
  const prod = projects.Production;
  const cluster = (await api('GET', `/v1/nks/clusters?project_id=${prod}`)).items[0];
  const pools = (await api('GET', `/v1/nks/clusters/${cluster.id}/pools`)).items;
  const zero = pools.find((p) => p.name === 'batch-zero');
  const settle = async (op) => {
    await control.finish({ id: op.id });
    expect((await api('GET', `/v1/operations/${op.id}`)).status).toBe('done');
  };
  await settle(await api('PATCH', `/v1/nks/clusters/${cluster.id}/pools/${zero.id}`, { name: 'zero-renamed' }));
  await settle(await api('DELETE', `/v1/nks/clusters/${cluster.id}/pools/${zero.id}`));

  for (const width of [1280, 390]) {
    const page = await open(`/projects/${prod}/operations`, { width });
    await expect(table(page)).toBeVisible();
    const deleted = table(page).locator('tbody tr').filter({ hasText: 'Delete pool' }).first();
    await expect(deleted.getByText('zero-renamed')).toBeVisible();
    await expect(deleted.getByText('(deleted)')).toBeVisible();
    await expect(deleted.getByText(zero.id), 'a name, not a bare id').toHaveCount(0);
    await page.getByRole('combobox', { name: 'Resource' }).fill('zero');
    await expect(page.getByRole('option', { name: /zero-renamed \(deleted\)/ })).toBeVisible();
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
    expect(lines, `Started and Elapsed are each one line at ${width} px`).toEqual([1, 1]);
    await shot(page, `operations-scale-deleted-${width}`);
  }
});
