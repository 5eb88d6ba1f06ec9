// Operations, end to end: operations started through the API (as another tool
// would) are adopted by the console and followed by its one poller to the end;
// failures read as the platform's, `unknown` keeps being polled, deadlines end in
// "ran out of time" without a re-issue, a reload resumes, two tabs share one
// poller, and fifty operations cost what one does.
import { test, expect, shot, DEMO_KEY } from './fixtures.mjs';

// These tests read the requests the page made.
test.use({ recordRequests: true });

/** The PATCH routes called and how often: the changes, not the cost quotes
 *  (`PATCH …/cost` prices a change and changes nothing; the cluster page asks for one). */
const mutations = (counts) =>
  Object.entries(counts.by_route).filter(([r]) => r.startsWith('PATCH ') && !r.endsWith('/cost'));

const scale = (api, cluster, pool, count) => api('PATCH', `/v1/nks/clusters/${cluster}/pools/${pool}`, { node_count: count });

/** Requests the simulator served whose route starts with `GET /v1/operations`. */
async function operationRequests(control) {
  const counts = await control.requests();
  return Object.entries(counts.by_route)
    .filter(([route]) => route.startsWith('GET /v1/operations'))
    .reduce((sum, [, n]) => sum + n, 0);
}

const pollsOf = async (control, opId) => (await control.requests()).by_path[`GET /v1/operations/${opId}`] ?? 0;

const inFlight = (page, n) =>
  expect(page.getByRole('link', { name: /operations? in flight/i })).toContainText(
    n === 1 ? '1 operation in flight' : `${n} operations in flight`,
  );

const notice = (page, text) => page.getByRole('status').filter({ hasText: text });

test('an operation started elsewhere is adopted and followed from running to done, with a notice', async ({ api, control, demo, open }) => {
  const op = await scale(api, demo.cluster, demo.baseline, 4);
  const page = await open(`/projects/${demo.project}/operations`);
  await inFlight(page, 1);
  const table = page.getByRole('table', { name: 'Operations' });
  const row = table.getByRole('row').filter({ hasText: 'node_count: 3 → 4' });
  await expect(row.filter({ hasText: /pending|running/ })).toBeVisible();
  await expect(row.getByRole('link', { name: 'edge-prod / baseline' })).toBeVisible();
  await shot(page, 'operations-running');

  await control.finish({ id: op.id });
  await expect(notice(page, 'Update pool: done.')).toBeVisible();
  await expect(row.filter({ hasText: 'done' })).toBeVisible();
  await inFlight(page, 0);
  expect((await api('GET', `/v1/operations/${op.id}`)).status).toBe('done');
  await shot(page, 'operations-done');

  // Filters live in the URL, so they survive a reload.
  await page.getByLabel('Status').selectOption('done');
  await page.waitForURL(/[?&]status=done/);
  await page.getByLabel('Kind').selectOption('nks_node_pool');
  await page.waitForURL(/[?&]kind=nks_node_pool/);
  await page.reload();
  await expect(page.getByLabel('Status')).toHaveValue('done');
  await expect(page.getByLabel('Kind')).toHaveValue('nks_node_pool');
  const rows = table.getByRole('row');
  await expect(rows.nth(1)).toBeVisible();
  for (const r of (await rows.allTextContents()).slice(1)) expect(r).toMatch(/done/);
});

test("a failed operation is reported in the guide's words, as the platform's failure, and never re-sent", async ({ api, control, demo, open }) => {
  await control.nextOutcome({ outcome: 'failed', kind: 'nks_node_pool' });
  const op = await scale(api, demo.cluster, demo.baseline, 5);
  const page = await open(`/projects/${demo.project}/clusters/${demo.cluster}`);
  await inFlight(page, 1);
  await control.finish({ id: op.id });
  const failed = notice(page, 'the platform ran the operation and it failed');
  await expect(failed).toHaveText(/^Update pool: /);
  await expect(failed).not.toHaveText(/reach the API|Temporary|try later/);
  await expect(page.getByText('Cannot reach the API.'), 'not an outage').toHaveCount(0);
  await shot(page, 'operation-failed-notice');
  const patches = mutations(await control.requests());
  expect(patches.map(([, n]) => n), 'the mutation went out once: ours, from the test').toEqual([1]);
});

test('an operation stuck in unknown keeps being polled until it ends', async ({ api, control, demo, open }) => {
  await control.nextOutcome({ outcome: 'unknown', unknown_ms: 600_000 });
  const op = await scale(api, demo.cluster, demo.baseline, 4);
  const page = await open(`/projects/${demo.project}/clusters/${demo.cluster}`);
  await inFlight(page, 1);
  await control.advance(60_000);
  expect((await api('GET', `/v1/operations/${op.id}`)).status).toBe('unknown');
  const first = await pollsOf(control, op.id);
  await expect.poll(() => pollsOf(control, op.id), { message: 'still polled while unknown' }).toBeGreaterThan(first + 2);
  await inFlight(page, 1);
  await control.advance(600_000);
  await expect(notice(page, 'Update pool: done.')).toBeVisible();
});

test('a deadline passing says "ran out of time", re-sends nothing, and keep watching resumes', async ({ api, control, demo, open }) => {
  const op = await scale(api, demo.cluster, demo.baseline, 4);
  // The console's own deadline, on the browser's clock: 3 s for this browser.
  const page = await open(`/projects/${demo.project}/clusters/${demo.cluster}`, { deadlineSecs: 3 });
  const expired = notice(page, 'ran out of time');
  await expect(expired).toBeVisible();
  await inFlight(page, 0);
  await shot(page, 'operation-out-of-time');
  const stopped = await pollsOf(control, op.id);
  // Silence is only seen by waiting: ten of this test's poll intervals (200 ms) pass
  // without a poll.
  await page.waitForTimeout(2_000); // real-time window: no polling happens in it
  expect(await pollsOf(control, op.id), 'no polling after the deadline until asked').toBe(stopped);
  await expired.getByRole('button', { name: 'Keep watching' }).click();
  await inFlight(page, 1);
  await expect.poll(() => pollsOf(control, op.id), { message: 'polling resumed' }).toBeGreaterThan(stopped);
  const patches = mutations(await control.requests());
  expect(patches.map(([, n]) => n), 'never re-issued').toEqual([1]);
});

test('a reload mid-operation resumes following it from the saved id, never the key', async ({ api, control, demo, projects, open }) => {
  const op = await scale(api, demo.cluster, demo.baseline, 4);
  const page = await open(`/projects/${demo.project}/clusters/${demo.cluster}`);
  await inFlight(page, 1);
  const saved = await page.evaluate(() => localStorage.getItem('nks-console.operations'));
  expect(JSON.parse(saved)).toEqual([op.id]);
  expect(saved).not.toContain(DEMO_KEY);
  // On another project, adoption would not find it: only the saved id brings it back.
  await page.getByLabel('Project', { exact: true }).selectOption({ label: 'Staging' });
  await page.waitForURL(new RegExp(`/projects/${projects.Staging}/clusters`));
  await page.reload();
  await inFlight(page, 1);
  const before = await pollsOf(control, op.id);
  await expect.poll(() => pollsOf(control, op.id), { message: 'followed after the reload' }).toBeGreaterThan(before);
  await control.finish({ id: op.id });
  await inFlight(page, 0);
});

// The two tests below count the poller's requests in a window of wall-clock
// time, so they wait out their windows in real time. The first keeps the
// console's own intervals (pollMs: null): a tab that starts polling as well
// would add whole polls to a window of few. The second compares one operation
// with fifty at a short steady interval (CADENCE), which gives it more polls
// to count in a shorter window; the console's own intervals are measured by
// the benchmark (tests/bench, polling cost).
const CADENCE = 500;

test('two tabs share one poller, and the second takes over when the first closes', async ({ api, control, demo, open }) => {
  await scale(api, demo.cluster, demo.baseline, 4);
  const path = `/projects/${demo.project}/clusters/${demo.cluster}`;
  const first = await open(path, { pollMs: null });
  await inFlight(first, 1);
  const WINDOW = 6000;

  await control.clearRequests();
  await first.waitForTimeout(WINDOW); // real-time cadence window
  const oneTab = await operationRequests(control);

  const second = await open(path, { pollMs: null, context: first.context() });
  await inFlight(second, 1);
  // The header can show the shared state before the cluster page (loaded on first
  // use) has made its own first reads, its recent operations among them. Those are
  // the page's reads, not polling: let them land before counting.
  await expect(second.locator('ul.recent-ops').or(second.getByText('No operations on this cluster.'))).toBeVisible();
  await control.clearRequests();
  second.requestsMade.length = 0;
  await second.waitForTimeout(WINDOW); // real-time cadence window
  const twoTabs = await operationRequests(control);
  const fromSecond = second.requestsMade.filter((r) => new URL(r.url).pathname.startsWith('/v1/operations'));
  console.log(`operation requests in ${WINDOW} ms: one tab ${oneTab}, two tabs ${twoTabs}`);
  expect(fromSecond.map((r) => r.url), 'the second tab follows; it does not poll').toEqual([]);
  expect(twoTabs, `two tabs ${twoTabs} > one tab ${oneTab}`).toBeLessThanOrEqual(oneTab);

  await first.close();
  await expect
    .poll(() => second.requestsMade.some((r) => new URL(r.url).pathname.startsWith('/v1/operations/')), {
      message: 'the second tab took over polling',
      timeout: 15_000,
    })
    .toBe(true);
  await inFlight(second, 1);
});

test.describe('at scale', () => {
  test.use({ seed: 'large' });

  test('fifty operations in flight cost the same requests as one', async ({ api, control, projects, open }) => {
    const large = projects.Large;
    const big = (await api('GET', `/v1/nks/clusters?project_id=${large}&limit=100`)).items.find((c) => c.name === 'big');
    const pools = (await api('GET', `/v1/nks/clusters/${big.id}/pools?limit=100`)).items.slice(0, 50);
    const WINDOW = 3000;
    const measure = async (n) => {
      const page = await open(`/projects/${large}/clusters`, { pollMs: CADENCE });
      await inFlight(page, n);
      // The page's first operation reads land before the window opens.
      await expect.poll(() => operationRequests(control), { message: 'the first operation reads went out' }).toBeGreaterThan(0);
      await control.clearRequests();
      await page.waitForTimeout(WINDOW); // real-time cadence window
      const count = await operationRequests(control);
      await page.close();
      return count;
    };
    const other = (pool) => (pool.node_count > 0 ? pool.node_count - 1 : 1);
    await scale(api, big.id, pools[0].id, other(pools[0]));
    const one = await measure(1);
    for (const pool of pools.slice(1)) await scale(api, big.id, pool.id, other(pool));
    const fifty = await measure(50);
    console.log(`operation requests in ${WINDOW} ms: 1 op ${one}, 50 ops ${fifty}`);
    expect(fifty, `50 ops made ${fifty} requests, 1 op ${one}`).toBeLessThanOrEqual(one + 1);
  });
});

test("the feed names what each operation changed, links what exists and marks what does not: a firewall rule, a VPC, a deleted pool, a node", async ({ api, control, demo, open }) => {
  const cluster = await api('GET', `/v1/nks/clusters/${demo.cluster}`);
  const vpc = await api('GET', `/v1/networking/vpcs/${cluster.vpc_id}`);
  const done = async (op) => control.finish({ id: op.id });
  // The feed is opened first: what it names then, it knows after a delete.
  const page = await open(`/projects/${demo.project}/operations`);
  const main = page.getByRole('navigation', { name: 'Main' });
  await expect(page.getByRole('table', { name: 'Operations' }).getByRole('link', { name: 'edge-prod / batch-zero' }).first()).toBeVisible();
  await done(await api('POST', `/v1/networking/vpcs/${vpc.id}/firewall_rules`, {
    name: 'web', protocol: 'tcp', source_address: '198.51.100.0/24', destination_address: '10.20.0.243/32', destination_ports: ['443'],
  }));
  await done(await api('PATCH', `/v1/networking/vpcs/${vpc.id}`, { name: `${vpc.name}-2` }));
  const node = (await api('GET', `/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}/nodes`)).items[0];
  await done(await api('DELETE', `/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}/nodes/${node.id}`));
  await done(await api('DELETE', `/v1/nks/clusters/${demo.cluster}/pools/${demo.zero}`));

  await main.getByRole('link', { name: 'Clusters' }).click();
  await expect(page.getByRole('heading', { name: 'Clusters' })).toBeVisible();
  await main.getByRole('link', { name: 'Operations' }).click();
  const rows = page.getByRole('table', { name: 'Operations' }).getByRole('row');
  const row = (kind, type) => rows.filter({ has: page.getByRole('cell', { name: kind, exact: true }) }).filter({ has: page.getByRole('cell', { name: type, exact: true }) }).first();
  // A firewall rule: its kind in words, named in its VPC, linked to the VPC.
  const rule = row('firewall rule', 'create');
  await expect(rule.getByRole('link', { name: `${vpc.name}-2 / web` })).toHaveAttribute('href', new RegExp(`/networking/vpcs/${vpc.id}$`));
  // A VPC: named and linked.
  await expect(row('VPC', 'update').getByRole('link', { name: `${vpc.name}-2`, exact: true })).toBeVisible();
  // A deleted pool: its last name, said to be deleted, no link.
  const gone = row('pool', 'delete');
  await expect(gone).toContainText('edge-prod / batch-zero');
  await expect(gone).toContainText('(deleted)');
  await expect(gone.getByRole('link', { name: /batch-zero/ })).toHaveCount(0);
  // A node never named here: its id short, on one line, whole on hover.
  const nodeCell = row('node', 'delete').locator('code.short-id');
  await expect(nodeCell).toHaveText(`${node.id.slice(0, 8)}…`);
  await expect(nodeCell).toHaveAttribute('title', node.id);
  const lines = await nodeCell.evaluate((e) => new Set([...e.getClientRects()].map((r) => Math.round(r.top))).size);
  expect(lines).toBe(1);
  // Firewall rules can be filtered on.
  await expect(page.getByLabel('Kind').locator('option', { hasText: 'firewall rule' })).toHaveCount(1);
  await shot(page, 'feed-named-parts');
  // A VPC operation's page links its VPC.
  await row('VPC', 'update').getByRole('link', { name: 'Update VPC' }).click();
  await expect(page.getByRole('link', { name: `${vpc.name}-2`, exact: true }).first()).toBeVisible();
});
