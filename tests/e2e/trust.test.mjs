// Operations an on-call operator can trust: an ended operation's time stays
// fixed, an operation the API forgets ends as "no longer known" instead of
// hanging, and "unknown" says what it means. Each test starts from a fresh demo
// world, at the API's own pace: the test ends an operation once the page has
// shown it in flight.
import { test, expect, shot, DEMO_KEY, connect } from './fixtures.mjs';

/** Scales a pool through the API, as another tool would. */
const scale = (api, demo, pool, count) => api('PATCH', `/v1/nks/clusters/${demo.cluster}/pools/${pool}`, { node_count: count });

const poolPath = (demo) => `/projects/${demo.project}/clusters/${demo.cluster}/pools/${demo.baseline}`;
/** A progress line that shows its operation in flight. */
const inFlight = (where) => where.getByRole('status').filter({ hasText: / is (pending|running|unknown)\b/ });

/** Requests the page has sent and not yet seen answered, counted from now on. */
function unanswered(page) {
  const pending = new Set();
  page.on('request', (r) => pending.add(r));
  page.on('requestfinished', (r) => pending.delete(r));
  page.on('requestfailed', (r) => pending.delete(r));
  return pending;
}

/** Deletes the first node of the pool page's table through its dialog; answers the node's name and the dialog. */
async function deleteFirstNode(page) {
  const nodes = page.getByRole('table', { name: 'Nodes' });
  const firstCell = nodes.getByRole('row').nth(1).getByRole('cell').first();
  await expect(firstCell).toBeVisible();
  const node = (await firstCell.textContent()).trim();
  await page.getByRole('button', { name: `Delete node ${node}` }).click();
  const dialog = page.getByRole('dialog', { name: `Delete node ${node}` });
  await dialog.getByLabel(`Type ${node} to confirm`).fill(node);
  await dialog.getByRole('button', { name: 'Delete node' }).click();
  return { node, dialog };
}

test('an ended operation shows the time it took, and that time stays fixed', async ({ control, demo, open }) => {
  // The page runs on a clock the test can move: what would count on with time
  // is seen at once.
  const page = await open(poolPath(demo), { fresh: true, beforeLoad: (p) => p.clock.install() });
  const { dialog } = await deleteFirstNode(page);
  const running = inFlight(dialog);
  await expect(running).toHaveText(/· \d+ s/);
  // In flight, the elapsed time counts with the clock (so the check below can fail).
  const seconds = async (locator) => Number((await locator.textContent()).match(/· (\d+) s/)?.[1]);
  const before = await seconds(running);
  await page.clock.fastForward(5_000);
  await expect.poll(() => seconds(running), 'the elapsed time of an operation in flight counts').toBeGreaterThanOrEqual(before + 5);

  await control.finish({ kind: 'nks_node' });
  const progress = dialog.getByRole('status').filter({ hasText: 'is done' });
  await expect(progress).toHaveText(/done · \d+ s/);
  const first = (await progress.textContent()).trim();
  // Five seconds on the page's clock, every tick of it run: ended, it stays as it was.
  await page.clock.fastForward(5_000);
  await expect(progress, 'the elapsed time of an ended operation does not keep counting').toHaveText(first);
});

test('an operation the API no longer knows ends as such, and nothing is left in flight', async ({ control, demo, open }) => {
  // At the API's pace the update (2 minutes) is still in flight when the world is reset.
  const page = await open(`${poolPath(demo)}/edit`);
  await page.getByLabel('Node count').fill('4');
  await expect(page.getByText(/Scaling up from 3 to 4: safe/)).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  const progress = page.getByRole('status').filter({ hasText: 'Update pool — operation' });
  await expect(progress).toBeVisible();
  await expect(page.getByText('1 operation in flight')).toBeVisible();

  // A restarted API: the operation's id now answers 404.
  await control.reset({ seed: 'demo' });
  await expect(progress.getByText('no longer known', { exact: true })).toBeVisible();
  await expect(page.getByText(/no longer known to the API \(it answered 404\)/).first()).toBeVisible();
  await expect(page.getByText('0 operations in flight')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Check now' })).toBeVisible();
  await shot(page, 'operation-lost');
  // No longer asked about. Silence is only seen by waiting: fifteen of this
  // test's poll intervals (200 ms) pass without a read of an operation.
  await control.clearRequests();
  await page.waitForTimeout(3_000); // real-time window: no polling happens in it
  const counts = await control.requests();
  const asked = Object.keys(counts.by_path).filter((p) => p.startsWith('GET /v1/operations'));
  expect(asked, 'the lost operation is not polled any more').toEqual([]);
});

test('a success notice leaves by itself; a failure stays until closed by keyboard; neither covers the page', async ({ api, control, demo, open }) => {
  // Started elsewhere (as another tool would), adopted when the page opens: an
  // update the platform fails, and one that ends well.
  await control.nextOutcome({ outcome: 'failed', kind: 'nks_node_pool' });
  const failing = await scale(api, demo, demo.baseline, 4);
  const succeeding = await scale(api, demo, demo.zero, 1);
  const page = await open(`/projects/${demo.project}/clusters/${demo.cluster}`);
  await expect(page.getByRole('heading', { name: 'edge-prod' })).toBeVisible();
  await expect(page.getByRole('link', { name: /operations? in flight/i })).toContainText('2 operations in flight');
  const notices = page.locator('.notices');
  const failed = notices.getByRole('status').filter({ hasText: 'the platform ran the operation and it failed' });
  const done = notices.getByRole('status').filter({ hasText: 'Update pool: done.' });
  // The failure first, the success after it: when the success has left by
  // itself, the failure has been shown longer than that.
  await control.finish({ id: failing.id });
  await expect(failed).toBeVisible();
  await control.finish({ id: succeeding.id });
  await expect(done).toBeVisible();

  // Nothing is drawn over the page's content: the notices sit above it.
  const [box, heading] = [await notices.boundingBox(), await page.getByRole('heading', { name: 'edge-prod' }).boundingBox()];
  expect(box.y + box.height, 'the notices end before the page heading starts').toBeLessThanOrEqual(heading.y);
  expect(await notices.evaluate((n) => getComputedStyle(n).position)).not.toBe('fixed');
  await shot(page, 'notices');

  await expect(done, 'the success notice left by itself').toHaveCount(0);
  await expect(failed, 'the failure stays').toHaveCount(1);
  await failed.getByRole('button', { name: 'Dismiss' }).focus();
  await page.keyboard.press('Enter');
  await expect(failed).toHaveCount(0, { timeout: 2_000 });
});

test('a sustained 429 says it is rate limited and when it retries, and Retry now does not wait', async ({ control, demo, open }) => {
  await control.fault({
    match: { method: 'GET', path: '/v1/nks/clusters' },
    action: { type: 'status', status: 429, message: 'slow down', retry_after: '30' },
  });
  const page = await open(`/projects/${demo.project}/clusters`);
  const wait = page.getByRole('status').filter({ hasText: 'Rate limited by the API (429): List clusters is retrying in' });
  await expect(wait).toBeVisible();
  const secondsLeft = async () => Number((await wait.textContent()).match(/retrying in (\d+) s\./)[1]);
  const first = await secondsLeft();
  expect(first, 'the 30 s asked for').toBeGreaterThanOrEqual(25);
  expect(first, 'the 30 s asked for').toBeLessThanOrEqual(31);
  await expect.poll(secondsLeft, 'the time left counts down').toBeLessThan(first);
  await shot(page, 'rate-limited');
  const narrow = await open(page.url(), { context: page.context(), width: 390, height: 800 });
  await expect(narrow.getByRole('status').filter({ hasText: 'Rate limited by the API (429)' })).toBeVisible();
  await shot(narrow, 'rate-limited-390');
  await narrow.close();

  await control.clearFaults();
  const started = Date.now();
  await wait.getByRole('button', { name: 'Retry now' }).click();
  await expect(page.getByRole('link', { name: 'edge-prod' })).toBeVisible();
  expect(Date.now() - started, 'Retry now tried at once, not after the 30 s asked').toBeLessThan(8_000);
  await expect(wait, 'the line leaves once the call went through').toHaveCount(0);
});

test('"unknown" says what it means, and "failed" leads back to the form holding what was asked', async ({ control, demo, open }) => {
  await control.nextOutcome({ outcome: 'unknown', unknown_ms: 600_000 });
  let page = await open(`${poolPath(demo)}/edit`);
  await page.getByLabel('Node count').fill('4');
  await expect(page.getByText(/Scaling up from 3 to 4: safe/)).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('"unknown" means the platform has not reported on this operation yet.', { exact: false })).toBeVisible();
  await expect(page.getByText(/keep waiting, and do not send the request again/)).toBeVisible();
  await shot(page, 'operation-unknown');
  // Done in the end: the form goes to the pool's page.
  await control.finish({ kind: 'nks_node_pool' });
  await expect(page.getByRole('heading', { name: 'baseline', exact: true })).toBeVisible();
  await page.close();

  await control.nextOutcome({ outcome: 'failed', kind: 'nks_node_pool' });
  page = await open(`${poolPath(demo)}/edit`);
  await page.getByLabel('Node count').fill('6');
  await page.getByLabel('Tags').fill('asked, twice');
  await expect(page.getByText(/Scaling up from 4 to 6: safe/)).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(inFlight(page)).toBeVisible();
  await control.finish({ kind: 'nks_node_pool' });
  await expect(page.getByText(/The API gives no reason for a failed operation/)).toBeVisible();
  await shot(page, 'operation-failed-form');
  await expect(page.getByRole('status').filter({ hasText: /— operation \S+ has failed/ }).first(), 'said as English').toBeVisible();
  await expect(page.getByText(/operation \S+ is failed/)).toHaveCount(0);
  // The failure is told on the operation's page; its link leads back to the form.
  await page.getByRole('link', { name: 'Back to the form, with what was asked' }).click();
  await expect(page.getByRole('heading', { name: 'Edit pool baseline' })).toBeVisible();
  await expect(page.getByLabel('Node count')).toHaveValue('6');
  await expect(page.getByLabel('Tags')).toHaveValue('asked, twice');
});

test('logging out in one tab logs out every tab of the origin, for good', async ({ demo, open }) => {
  const first = await open(`/projects/${demo.project}/clusters`);
  await expect(first.getByRole('table', { name: 'Clusters' })).toBeVisible();
  // A second tab, connected with the key for that tab only (its sessionStorage).
  const second = await open(`/projects/${demo.project}/clusters/${demo.cluster}`, { context: first.context() });
  await expect(second.getByRole('heading', { name: 'edge-prod' })).toBeVisible();
  // And a third that was told to remember it on this device.
  const third = await open('/settings', { context: first.context(), connected: false });
  await third.getByLabel('API key').fill(DEMO_KEY);
  await third.getByLabel(/Remember/).check();
  await third.getByRole('button', { name: 'Connect' }).click();
  await expect(third.getByRole('heading', { name: 'Settings' })).toBeVisible();

  await first.getByRole('button', { name: 'Log out' }).click();
  for (const page of [first, second, third]) {
    await expect(page.getByRole('heading', { name: 'Connect to Nirvana NKS' })).toBeVisible({ timeout: 5_000 });
    await expect
      .poll(() => page.evaluate(() => [sessionStorage.getItem('nks-console.api-key'), localStorage.getItem('nks-console.api-key')]))
      .toEqual([null, null]);
  }
  await second.reload();
  await expect(second.getByRole('heading', { name: 'Connect to Nirvana NKS' })).toBeVisible();
});

test('a scale-down among equally new nodes lists every node that could go, and the ones the platform took are among them', async ({ api, control, demo, open }) => {
  const page = await open(`${poolPath(demo)}/edit`);
  await page.getByLabel('Node count').fill('1');
  const warning = page.getByRole('region', { name: /terminates 2 nodes without draining/ });
  await expect(warning.getByText(/it chooses 2 of them/)).toBeVisible();
  await expect(warning.getByText(/most likely/), 'no guess is presented as the answer').toHaveCount(0);
  const atRisk = warning.getByRole('list', { name: 'Nodes at risk' }).getByRole('listitem');
  await expect(atRisk).toHaveCount(3);
  const listed = await atRisk.allTextContents();
  await page.getByLabel('I understand 2 nodes will be terminated without drain').check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(inFlight(page)).toBeVisible();
  await control.finish({ kind: 'nks_node_pool' });
  await expect(page.getByRole('heading', { name: 'baseline', exact: true })).toBeVisible();
  const ops = await api('GET', `/v1/operations?project_id=${demo.project}`);
  const update = ops.items.find((op) => op.resource_id === demo.baseline && op.details?.changes?.terminated_nodes);
  const terminated = update.details.changes.terminated_nodes.from;
  expect(terminated).toHaveLength(2);
  for (const name of terminated) expect(listed, `${name} went but was not listed`).toContain(name);
});

test('a key refused on submit keeps what was typed across the reconnect, and nothing is sent without a click', async ({ control, demo, open }) => {
  const page = await open(`/projects/${demo.project}/clusters/${demo.cluster}/pools/new`);
  const pending = unanswered(page);
  await page.getByLabel('Name', { exact: true }).fill('kept-through-401');
  await page.getByLabel('Instance type').selectOption({ label: 'n1-highcpu-8 — 8 vCPU, 16 GB memory' });
  await page.getByLabel('Labels').fill('team=ml');
  await page.getByRole('button', { name: 'Add taint' }).click();
  await page.getByLabel('Key', { exact: true }).fill('dedicated');
  await page.getByLabel('Value', { exact: true }).fill('ml');
  await page.getByLabel('Node count').fill('2');
  await page.getByLabel('Tags').fill('kept, typed');
  // The plan panel's checks pass first (Apply is enabled then) and its quotes
  // are answered, so the next POST is the create itself.
  await expect(page.getByRole('button', { name: 'Create pool' })).toBeEnabled();
  await expect.poll(() => pending.size, 'the plan panel has its answers').toBe(0);
  const creates = [];
  page.on('request', (r) => r.method() === 'POST' && new URL(r.url()).pathname.endsWith('/pools') && creates.push(r));
  // The key is revoked just as the create goes out.
  await control.fault({
    match: { method: 'POST', path_prefix: `/v1/nks/clusters/${demo.cluster}/pools` },
    count: 1,
    action: { type: 'status', status: 401, message: 'API key revoked' },
  });
  await page.getByRole('button', { name: 'Create pool' }).click();
  await expect(page.getByText('The API refused the key in use (401)')).toBeVisible();
  await control.clearFaults();
  expect(creates, 'the refused create was sent once').toHaveLength(1);
  await connect(page);
  await expect(page.getByRole('heading', { name: 'Create pool' })).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('kept-through-401');
  await expect(page.getByLabel('Instance type')).toHaveValue('n1-highcpu-8');
  await expect(page.getByLabel('Labels')).toHaveValue('team=ml');
  await expect(page.getByLabel('Key', { exact: true })).toHaveValue('dedicated');
  await expect(page.getByLabel('Value', { exact: true })).toHaveValue('ml');
  await expect(page.getByLabel('Node count')).toHaveValue('2');
  await expect(page.getByLabel('Tags')).toHaveValue('kept, typed');
  const notSent = page.getByRole('status').filter({ hasText: 'Not sent: press Create pool again.' });
  await expect(notSent, 'the form says the pool was not created').toBeVisible();
  await shot(page, 'form-kept-after-401');
  // Back with the form, nothing goes out until the person clicks again: the
  // page has made its reads after the reconnect and they are answered.
  await expect(page.getByRole('button', { name: 'Create pool' })).toBeEnabled();
  await expect.poll(() => pending.size, 'the page has its answers after the reconnect').toBe(0);
  expect(creates, 'no create was sent on reconnect').toHaveLength(1);
  const stored = await page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }));
  expect(stored, 'typed values never reach storage').not.toContain('kept-through-401');
  await page.getByRole('button', { name: 'Create pool' }).click();
  await expect(notSent, 'said only until it is sent').toHaveCount(0);
  await expect(inFlight(page)).toBeVisible();
  await control.finish({ kind: 'nks_node_pool' });
  await expect(page.getByRole('heading', { name: 'kept-through-401' })).toBeVisible();
  expect(creates).toHaveLength(2);
});

test('an ended node delete shows "done" only once the pool and its nodes are read again', async ({ control, demo, open }) => {
  const page = await open(poolPath(demo));
  const nodes = page.getByRole('table', { name: 'Nodes' });
  await expect(nodes.getByRole('row').nth(1)).toBeVisible();
  const nodeCount = page.locator('dt:text-is("Node count") + dd');
  const before = Number(await nodeCount.textContent());
  // Watch every change of the page: no moment may show the delete as done next
  // to the pool as it was before (its old node count, "updating", or the node).
  const node = (await nodes.getByRole('row').nth(1).getByRole('cell').first().textContent()).trim();
  await page.evaluate(({ node, before }) => {
    window.__stale = [];
    const check = () => {
      const done = [...document.querySelectorAll('[role="dialog"] [role="status"]')]
        .some((s) => /is done/.test(s.textContent));
      if (!done) return;
      const count = [...document.querySelectorAll('dt')].find((dt) => dt.textContent.trim() === 'Node count');
      const header = document.querySelector('.page-header');
      const rows = [...document.querySelectorAll('table[aria-label="Nodes"] tbody tr')];
      const stale = [];
      if (!count || Number(count.nextElementSibling.textContent) !== before - 1) stale.push(`node count ${count?.nextElementSibling.textContent}`);
      if (header && /updating|deleting/.test(header.textContent)) stale.push(`status ${header.textContent}`);
      if (rows.some((r) => r.cells[0]?.textContent.trim() === node)) stale.push(`${node} still listed`);
      if (stale.length) window.__stale.push(stale.join(', '));
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, { node, before });
  const { dialog } = await deleteFirstNode(page);
  await expect(inFlight(dialog)).toBeVisible();
  await control.finish({ kind: 'nks_node' });
  await expect(dialog.getByRole('status').filter({ hasText: 'is done' })).toBeVisible();
  await expect(nodeCount).toHaveText(String(before - 1));
  await shot(page, 'node-delete-done-fresh');
  // Every change up to now was checked as it happened (the observer runs before
  // the page is drawn): none of them showed "done" beside stale data.
  const stale = await page.evaluate(() => window.__stale);
  expect(stale, 'the page showed "done" beside what the delete had changed').toEqual([]);
});
