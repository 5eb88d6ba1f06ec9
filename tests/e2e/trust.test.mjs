// Operations an on-call operator can trust: an ended operation's time stays
// fixed, an operation the API forgets ends as "no longer known" instead of
// hanging, and "unknown" says what it means. Each test starts from a fresh demo
// world.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, shot, DEMO_KEY, demoIds } from './harness.mjs';

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
  await sim.control('POST', '/_sim/reset', { seed: 'demo', time_scale: 0.01 });
  ids = await demoIds(sim);
});

/** Scales a pool through the API, as another tool would. */
async function scale(pool, count) {
  const res = await fetch(`${sim.url}/v1/nks/clusters/${ids.cluster}/pools/${pool}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${DEMO_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ node_count: count }),
  });
  assert.ok(res.ok, `PATCH answered ${res.status}`);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const poolPath = () => `/projects/${ids.project}/clusters/${ids.cluster}/pools/${ids.baseline}`;

async function open(path, size) {
  const { context, page } = await openPage(browser, size);
  await page.goto(sim.url + path);
  await connect(page);
  return { context, page };
}

test('an ended operation shows the time it took, and that time stays fixed', async () => {
  const { context, page } = await open(poolPath());
  const nodes = page.getByRole('table', { name: 'Nodes' });
  await nodes.waitFor();
  const node = (await nodes.getByRole('row').nth(1).getByRole('cell').first().textContent()).trim();
  await page.getByRole('button', { name: `Delete node ${node}` }).click();
  const dialog = page.getByRole('dialog', { name: `Delete node ${node}` });
  await dialog.getByLabel(`Type ${node} to confirm`).fill(node);
  await dialog.getByRole('button', { name: 'Delete node' }).click();
  const progress = dialog.getByRole('status').filter({ hasText: 'is done' });
  await progress.waitFor({ timeout: 30_000 });
  const first = (await progress.textContent()).trim();
  await sleep(2_500);
  const later = (await progress.textContent()).trim();
  assert.match(first, /done · \d+ s/);
  assert.equal(later, first, 'the elapsed time of an ended operation does not keep counting');
  await context.close();
});

test('an operation the API no longer knows ends as such, and nothing is left in flight', async () => {
  // Slow enough that the update is still pending when the world is reset.
  await sim.control('POST', '/_sim/time-scale', { time_scale: 1 });
  const { context, page } = await open(`${poolPath()}/edit`);
  await page.getByLabel('Node count').fill('4');
  await page.getByText(/Scaling up from 3 to 4: safe/).waitFor();
  await page.getByRole('button', { name: 'Save' }).click();
  const progress = page.getByRole('status').filter({ hasText: 'Update pool — operation' });
  await progress.waitFor();
  await page.getByText('1 operation in flight').waitFor();

  // A restarted API: the operation's id now answers 404.
  await sim.control('POST', '/_sim/reset', { seed: 'demo', time_scale: 1 });
  await assert.doesNotReject(progress.getByText('no longer known', { exact: true }).waitFor({ timeout: 20_000 }));
  await assert.doesNotReject(page.getByText(/no longer known to the API \(it answered 404\)/).first().waitFor());
  await assert.doesNotReject(page.getByText('0 operations in flight').waitFor());
  await assert.doesNotReject(page.getByRole('button', { name: 'Check now' }).waitFor());
  await shot(page, 'operation-lost');
  // No longer asked about.
  await sim.control('DELETE', '/_sim/requests');
  await sleep(3_000);
  const counts = await sim.control('GET', '/_sim/requests');
  const asked = Object.keys(counts.by_path).filter((p) => p.startsWith('GET /v1/operations'));
  assert.deepEqual(asked, [], 'the lost operation is not polled any more');
  await context.close();
});

test('a success notice leaves by itself; a failure stays until closed by keyboard; neither covers the page', async () => {
  // Started elsewhere (as another tool would), adopted when the page opens: an
  // update the platform fails, and one that ends well.
  await sim.control('POST', '/_sim/time-scale', { time_scale: 0.05 });
  await sim.control('POST', '/_sim/operations/next', { outcome: 'failed', kind: 'nks_node_pool' });
  await scale(ids.baseline, 4);
  await scale(ids.zero, 1);
  const { context, page } = await open(`/projects/${ids.project}/clusters/${ids.cluster}`);
  await page.getByRole('heading', { name: 'edge-prod' }).waitFor();
  const notices = page.locator('.notices');
  const failed = notices.getByRole('status').filter({ hasText: 'the platform ran the operation and it failed' });
  const done = notices.getByRole('status').filter({ hasText: 'Update pool: done.' });
  await failed.waitFor({ timeout: 30_000 });
  await done.waitFor({ timeout: 30_000 });

  // Nothing is drawn over the page's content: the notices sit above it.
  const [box, heading] = [await notices.boundingBox(), await page.getByRole('heading', { name: 'edge-prod' }).boundingBox()];
  assert.ok(box.y + box.height <= heading.y, 'the notices end before the page heading starts');
  assert.notEqual(await notices.evaluate((n) => getComputedStyle(n).position), 'fixed');
  await shot(page, 'notices');

  await assert.doesNotReject(done.waitFor({ state: 'detached', timeout: 12_000 }), 'the success notice left by itself');
  await sleep(1_000);
  assert.equal(await failed.count(), 1, 'the failure stays');
  await failed.getByRole('button', { name: 'Dismiss' }).focus();
  await page.keyboard.press('Enter');
  await assert.doesNotReject(failed.waitFor({ state: 'detached', timeout: 2_000 }));
  await context.close();
});

test('a sustained 429 says it is rate limited and when it retries, and Retry now does not wait', async () => {
  await sim.control('POST', '/_sim/faults', {
    match: { method: 'GET', path_prefix: '/v1/nks/clusters' },
    action: { type: 'status', status: 429, message: 'slow down', retry_after: '30' },
  });
  try {
    const { context, page } = await open(`/projects/${ids.project}/clusters`);
    const wait = page.getByRole('status').filter({ hasText: 'Rate limited by the API (429): List clusters is retrying in' });
    await assert.doesNotReject(wait.waitFor({ timeout: 10_000 }));
    const secondsLeft = async () => Number((await wait.textContent()).match(/retrying in (\d+) s\./)[1]);
    const first = await secondsLeft();
    assert.ok(first >= 25 && first <= 31, `the 30 s asked for, not ${first}`);
    await sleep(2_200);
    assert.ok(await secondsLeft() < first, 'the time left counts down');
    await shot(page, 'rate-limited');
    const narrow = await context.newPage();
    await narrow.setViewportSize({ width: 390, height: 800 });
    await narrow.goto(page.url());
    await connect(narrow);
    await narrow.getByRole('status').filter({ hasText: 'Rate limited by the API (429)' }).waitFor({ timeout: 10_000 });
    await shot(narrow, 'rate-limited-390');
    await narrow.close();

    await sim.control('DELETE', '/_sim/faults');
    const started = Date.now();
    await wait.getByRole('button', { name: 'Retry now' }).click();
    await page.getByRole('link', { name: 'edge-prod' }).waitFor({ timeout: 10_000 });
    assert.ok(Date.now() - started < 8_000, 'Retry now tried at once, not after the 30 s asked');
    assert.equal(await wait.count(), 0, 'the line leaves once the call went through');
    await context.close();
  } finally {
    await sim.control('DELETE', '/_sim/faults');
  }
});

test('"unknown" says what it means, and "failed" leads back to the form holding what was asked', async () => {
  await sim.control('POST', '/_sim/time-scale', { time_scale: 0.05 });
  await sim.control('POST', '/_sim/operations/next', { outcome: 'unknown', unknown_ms: 4000 });
  let { context, page } = await open(`${poolPath()}/edit`);
  await page.getByLabel('Node count').fill('4');
  await page.getByText(/Scaling up from 3 to 4: safe/).waitFor();
  await page.getByRole('button', { name: 'Save' }).click();
  await assert.doesNotReject(page.getByText('"unknown" means the platform has not reported on this operation yet.', { exact: false }).waitFor({ timeout: 15_000 }));
  await assert.doesNotReject(page.getByText(/keep waiting, and do not send the request again/).waitFor());
  await shot(page, 'operation-unknown');
  // Done in the end: the form goes to the pool's page.
  await page.getByRole('heading', { name: 'baseline', exact: true }).waitFor({ timeout: 30_000 });
  await context.close();

  await sim.control('POST', '/_sim/operations/next', { outcome: 'failed', kind: 'nks_node_pool' });
  ({ context, page } = await open(`${poolPath()}/edit`));
  await page.getByLabel('Node count').fill('6');
  await page.getByLabel('Tags').fill('asked, twice');
  await page.getByText(/Scaling up from 4 to 6: safe/).waitFor();
  await page.getByRole('button', { name: 'Save' }).click();
  await assert.doesNotReject(page.getByText(/The API gives no reason for a failed operation/).waitFor({ timeout: 30_000 }));
  await shot(page, 'operation-failed');
  // The failure is told on the operation's page; its link leads back to the form.
  await page.getByRole('link', { name: 'Back to the form, with what was asked' }).click();
  await page.getByRole('heading', { name: 'Edit pool baseline' }).waitFor();
  assert.equal(await page.getByLabel('Node count').inputValue(), '6');
  assert.equal(await page.getByLabel('Tags').inputValue(), 'asked, twice');
  await context.close();
});

test('logging out in one tab logs out every tab of the origin, for good', async () => {
  const { context, page: first } = await open(`/projects/${ids.project}/clusters`);
  await first.getByRole('table', { name: 'Clusters' }).waitFor();
  // A second tab, connected with the key for that tab only.
  const second = await context.newPage();
  await second.goto(`${sim.url}/projects/${ids.project}/clusters/${ids.cluster}`);
  await connect(second);
  await second.getByRole('heading', { name: 'edge-prod' }).waitFor();
  // And a third that was told to remember it on this device.
  const third = await context.newPage();
  await third.goto(`${sim.url}/settings`);
  await third.getByLabel('API key').fill(DEMO_KEY);
  await third.getByLabel(/Remember/).check();
  await third.getByRole('button', { name: 'Connect' }).click();
  await third.getByRole('heading', { name: 'Settings' }).waitFor();

  await first.getByRole('button', { name: 'Log out' }).click();
  for (const page of [first, second, third]) {
    await assert.doesNotReject(page.getByRole('heading', { name: 'Connect to Nirvana NKS' }).waitFor({ timeout: 5_000 }));
    assert.deepEqual(
      await page.evaluate(() => [sessionStorage.getItem('nks-console.api-key'), localStorage.getItem('nks-console.api-key')]),
      [null, null],
    );
  }
  await second.reload();
  await assert.doesNotReject(second.getByRole('heading', { name: 'Connect to Nirvana NKS' }).waitFor());
  await context.close();
});

test('a scale-down among equally new nodes lists every node that could go, and the ones the platform took are among them', async () => {
  const { context, page } = await open(`${poolPath()}/edit`);
  await page.getByLabel('Node count').fill('1');
  const warning = page.getByRole('region', { name: /terminates 2 nodes without draining/ });
  await warning.waitFor();
  await assert.doesNotReject(warning.getByText(/it chooses 2 of them/).waitFor());
  assert.equal(await warning.getByText(/most likely/).count(), 0, 'no guess is presented as the answer');
  const listed = await warning.getByRole('list', { name: 'Nodes at risk' }).getByRole('listitem').allTextContents();
  assert.equal(listed.length, 3);
  await page.getByLabel('I understand 2 nodes will be terminated without drain').check();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { name: 'baseline', exact: true }).waitFor({ timeout: 20_000 });
  const ops = await sim.api(`/v1/operations?project_id=${ids.project}`);
  const update = ops.items.find((op) => op.resource_id === ids.baseline && op.details?.changes?.terminated_nodes);
  const terminated = update.details.changes.terminated_nodes.from;
  assert.equal(terminated.length, 2);
  for (const name of terminated) assert.ok(listed.includes(name), `${name} went but was not listed`);
  await context.close();
});

test('a key refused on submit keeps what was typed across the reconnect, and nothing is sent without a click', async () => {
  const { context, page } = await open(`/projects/${ids.project}/clusters/${ids.cluster}/pools/new`);
  await page.getByLabel('Name', { exact: true }).fill('kept-through-401');
  await page.getByLabel('Instance type').selectOption({ label: 'n1-highcpu-8 — 8 vCPU, 16 GB memory' });
  await page.getByLabel('Labels').fill('team=ml');
  await page.getByRole('button', { name: 'Add taint' }).click();
  await page.getByLabel('Key', { exact: true }).fill('dedicated');
  await page.getByLabel('Value', { exact: true }).fill('ml');
  await page.getByLabel('Node count').fill('2');
  await page.getByLabel('Tags').fill('kept, typed');
  // The plan panel's checks pass first (Apply is enabled then), so the next
  // POST is the create itself.
  await page.getByRole('button', { name: 'Create pool', disabled: false }).waitFor();
  await page.waitForLoadState('networkidle');
  const creates = [];
  page.on('request', (r) => r.method() === 'POST' && new URL(r.url()).pathname.endsWith('/pools') && creates.push(r));
  // The key is revoked just as the create goes out.
  await sim.control('POST', '/_sim/faults', {
    match: { method: 'POST', path_prefix: `/v1/nks/clusters/${ids.cluster}/pools` },
    count: 1,
    action: { type: 'status', status: 401, message: 'API key revoked' },
  });
  try {
    await page.getByRole('button', { name: 'Create pool' }).click();
    await assert.doesNotReject(page.getByText('The API refused the key in use (401)').waitFor());
  } finally {
    await sim.control('DELETE', '/_sim/faults');
  }
  assert.equal(creates.length, 1, 'the refused create was sent once');
  await connect(page);
  await page.getByRole('heading', { name: 'Create pool' }).waitFor();
  assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), 'kept-through-401');
  assert.equal(await page.getByLabel('Instance type').inputValue(), 'n1-highcpu-8');
  assert.equal(await page.getByLabel('Labels').inputValue(), 'team=ml');
  assert.equal(await page.getByLabel('Key', { exact: true }).inputValue(), 'dedicated');
  assert.equal(await page.getByLabel('Value', { exact: true }).inputValue(), 'ml');
  assert.equal(await page.getByLabel('Node count').inputValue(), '2');
  assert.equal(await page.getByLabel('Tags').inputValue(), 'kept, typed');
  await shot(page, 'form-kept-after-401');
  // Back with the form, nothing goes out until the person clicks again.
  await page.waitForLoadState('networkidle');
  assert.equal(creates.length, 1, 'no create was sent on reconnect');
  const stored = await page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }));
  assert.ok(!stored.includes('kept-through-401'), 'typed values never reach storage');
  await page.getByRole('button', { name: 'Create pool' }).click();
  await assert.doesNotReject(page.getByRole('heading', { name: 'kept-through-401' }).waitFor({ timeout: 30_000 }));
  assert.equal(creates.length, 2);
  await context.close();
});

test('an ended node delete shows "done" only once the pool and its nodes are read again', async () => {
  const { context, page } = await open(poolPath());
  const nodes = page.getByRole('table', { name: 'Nodes' });
  await nodes.waitFor();
  const node = (await nodes.getByRole('row').nth(1).getByRole('cell').first().textContent()).trim();
  const before = Number(await page.locator('dt:text-is("Node count") + dd').textContent());
  // Watch every change of the page: no moment may show the delete as done next
  // to the pool as it was before (its old node count, "updating", or the node).
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
  await page.getByRole('button', { name: `Delete node ${node}` }).click();
  const dialog = page.getByRole('dialog', { name: `Delete node ${node}` });
  await dialog.getByLabel(`Type ${node} to confirm`).fill(node);
  await dialog.getByRole('button', { name: 'Delete node' }).click();
  await dialog.getByRole('status').filter({ hasText: 'is done' }).waitFor({ timeout: 30_000 });
  await sleep(1_000);
  const stale = await page.evaluate(() => window.__stale);
  assert.deepEqual(stale, [], 'the page showed "done" beside what the delete had changed');
  assert.equal(Number(await page.locator('dt:text-is("Node count") + dd').textContent()), before - 1);
  await shot(page, 'node-delete-done-fresh');
  await context.close();
});
