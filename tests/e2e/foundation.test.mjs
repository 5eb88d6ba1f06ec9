// The foundation, end to end: connect with the demo key, switch project, see the
// seeded cluster and its pools, reload on a deep link, and refuse a wrong key.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, shot, DEMO_KEY } from './harness.mjs';

let sim;
let browser;

before(async () => {
  sim = await startSim();
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
  await sim?.stop();
});

test('connecting with the demo key opens the clusters of the first project', async () => {
  const { context, page } = await openPage(browser);
  await page.goto(sim.url + '/');
  await assert.doesNotReject(page.getByRole('heading', { name: 'Connect to Nirvana NKS' }).waitFor());
  await shot(page, 'connect');
  await connect(page);
  const table = page.getByRole('table', { name: 'Clusters' });
  await table.waitFor();
  await assert.doesNotReject(table.getByRole('link', { name: 'edge-prod' }).waitFor());
  assert.match(page.url(), /\/projects\/[^/]+\/clusters$/);
  assert.equal(await page.getByLabel('Project').locator('option:checked').textContent(), 'Production');
  await shot(page, 'clusters');
  await context.close();
});

test('the cluster page lists its pools with labels and taints, and the pool page its nodes', async () => {
  const { context, page } = await openPage(browser);
  await page.goto(sim.url + '/');
  await connect(page);
  await page.getByRole('link', { name: 'edge-prod' }).click();
  await page.getByRole('heading', { name: 'edge-prod' }).waitFor();
  const pools = page.getByRole('table', { name: 'Pools' });
  await pools.waitFor();
  const baseline = pools.getByRole('row').filter({ hasText: 'baseline' });
  await assert.doesNotReject(baseline.getByText('n1-standard-8').waitFor());
  await assert.doesNotReject(baseline.getByText('tier=general').waitFor());
  const zero = pools.getByRole('row').filter({ hasText: 'batch-zero' });
  await assert.doesNotReject(zero.getByText('dedicated=batch:NoSchedule').waitFor());
  await shot(page, 'cluster');

  await pools.getByRole('link', { name: 'baseline' }).click();
  const nodes = page.getByRole('table', { name: 'Nodes' });
  await nodes.waitFor();
  assert.equal(await nodes.getByRole('row').count(), 1 + 3, 'header row plus the three seeded nodes');
  await shot(page, 'pool');
  await context.close();
});

test('switching project shows that project and its empty state', async () => {
  const { context, page } = await openPage(browser);
  await page.goto(sim.url + '/');
  await connect(page);
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  await page.getByLabel('Project').selectOption({ label: 'Staging' });
  await assert.doesNotReject(page.getByText('No clusters in this project yet.').waitFor());
  const projects = await sim.api('/v1/projects');
  const staging = projects.items.find((p) => p.name === 'Staging');
  assert.ok(page.url().endsWith(`/projects/${staging.id}/clusters`), page.url());
  await context.close();
});

test('a deep link survives a reload and lands on the same page', async () => {
  const { context, page } = await openPage(browser);
  await page.goto(sim.url + '/');
  await connect(page);
  await page.getByRole('link', { name: 'edge-prod' }).click();
  await page.getByRole('table', { name: 'Pools' }).getByRole('link', { name: 'batch-zero' }).click();
  await page.getByRole('heading', { name: 'batch-zero' }).waitFor();
  const deep = page.url();
  await page.reload();
  await assert.doesNotReject(page.getByRole('heading', { name: 'batch-zero' }).waitFor());
  assert.equal(page.url(), deep);
  await assert.doesNotReject(page.getByText('No nodes: this pool is scaled to zero.').waitFor());
  await context.close();
});

test('a deep link opened fresh asks for the key, then shows the page it named', async () => {
  const { context, page } = await openPage(browser);
  const clusters = await sim.api('/v1/projects').then((p) => sim.api(`/v1/nks/clusters?project_id=${p.items[0].id}`));
  const cluster = clusters.items[0];
  const deep = `${sim.url}/projects/${cluster.project_id}/clusters/${cluster.id}`;
  await page.goto(deep);
  await connect(page);
  await assert.doesNotReject(page.getByRole('heading', { name: 'edge-prod' }).waitFor());
  assert.equal(page.url(), deep);
  await context.close();
});

test('back and forward move between the pages visited; a filter changes the entry, it adds none', async () => {
  const { context, page } = await openPage(browser);
  await page.goto(sim.url + '/');
  await connect(page);
  const clusters = page.getByRole('table', { name: 'Clusters' });
  await clusters.waitFor();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
  await nav.getByRole('link', { name: 'Clusters' }).click();
  await clusters.waitFor();
  await page.getByLabel('Filter by name').fill('edge');
  await page.waitForURL(/\/clusters\?name=edge$/);
  const filtered = page.url();
  await clusters.getByRole('link', { name: 'edge-prod' }).click();
  await page.getByRole('heading', { name: 'edge-prod' }).waitFor();
  const cluster = page.url();

  await page.goBack();
  await clusters.waitFor();
  assert.equal(page.url(), filtered);
  assert.equal(await page.getByLabel('Filter by name').inputValue(), 'edge');
  await page.goBack();
  await assert.doesNotReject(page.getByRole('heading', { name: 'Settings' }).waitFor());
  assert.match(page.url(), /\/settings$/);

  await page.goForward();
  await clusters.waitFor();
  assert.equal(page.url(), filtered);
  await page.goForward();
  await assert.doesNotReject(page.getByRole('heading', { name: 'edge-prod' }).waitFor());
  assert.equal(page.url(), cluster);
  await context.close();
});

test('a wrong key gets a clear refusal and is not kept', async () => {
  const { context, page } = await openPage(browser);
  await page.goto(sim.url + '/');
  await connect(page, 'not-a-real-key');
  const alert = page.getByRole('alert');
  await assert.doesNotReject(alert.getByText('The API rejected this key (401)').waitFor());
  await shot(page, 'connect-wrong-key');
  const stored = await page.evaluate(() => [sessionStorage.length, localStorage.length]);
  assert.deepEqual(stored, [0, 0]);
  await context.close();
});

test('the key travels only in the Authorization header, never in a URL or the console log', async () => {
  const { context, page } = await openPage(browser);
  await page.goto(sim.url + '/');
  await connect(page);
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  const apiCalls = page.requestsMade.filter((r) => new URL(r.url).pathname.startsWith('/v1/'));
  assert.ok(apiCalls.length > 0);
  for (const r of page.requestsMade) {
    assert.ok(!r.url.includes(DEMO_KEY), `key in URL ${r.url}`);
    assert.equal(new URL(r.url).origin, sim.url, `request left the configured origin: ${r.url}`);
  }
  for (const r of apiCalls) assert.equal(r.headers.authorization, `Bearer ${DEMO_KEY}`);
  assert.ok(!page.consoleLines.some((l) => l.includes(DEMO_KEY)), 'key in the console log');
  const remembered = await page.evaluate(() => localStorage.getItem('nks-console.api-key'));
  assert.equal(remembered, null, 'not remembered without the opt-in');
  await context.close();
});

test('a 401 later returns to the connect screen and back to the same page', async () => {
  const { context, page } = await openPage(browser);
  await page.goto(sim.url + '/');
  await connect(page);
  await page.getByRole('link', { name: 'edge-prod' }).click();
  await page.getByRole('heading', { name: 'edge-prod' }).waitFor();
  const where = page.url();
  // The console is closed while the key is revoked, so none of the page's own
  // reads meets the 401 before it is opened again (the tab keeps its key).
  await page.goto('about:blank');
  // The key is revoked: every call now answers 401.
  await sim.control('POST', '/_sim/faults', { action: { type: 'status', status: 401, message: 'API key revoked' } });
  try {
    await page.goto(where);
    await assert.doesNotReject(page.getByText('The API refused the key in use (401)').waitFor());
    assert.equal(page.url(), where);
  } finally {
    await sim.control('DELETE', '/_sim/faults');
  }
  await connect(page);
  await assert.doesNotReject(page.getByRole('heading', { name: 'edge-prod' }).waitFor());
  assert.equal(page.url(), where);
  await context.close();
});

test('a failed cluster list shows the error with a retry, never an empty list', async () => {
  const { context, page } = await openPage(browser);
  await page.goto(sim.url + '/');
  await connect(page);
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  await sim.control('POST', '/_sim/faults', {
    match: { method: 'GET', path_prefix: '/v1/nks/clusters' },
    action: { type: 'status', status: 503, message: 'maintenance' },
  });
  try {
    await page.reload();
    const alert = page.getByRole('alert');
    await assert.doesNotReject(alert.getByText('Temporary: the request is fine, try later.').waitFor({ timeout: 20_000 }));
    assert.equal(await page.getByText('No clusters in this project yet.').count(), 0);
    await shot(page, 'clusters-error');
  } finally {
    await sim.control('DELETE', '/_sim/faults');
  }
  await page.getByRole('button', { name: 'Retry' }).click();
  await assert.doesNotReject(page.getByRole('link', { name: 'edge-prod' }).waitFor());
  await context.close();
});

test('the layout stays readable at 800 px', async () => {
  const { context, page } = await openPage(browser, { width: 800, height: 900 });
  await page.goto(sim.url + '/');
  await connect(page);
  await page.getByRole('link', { name: 'edge-prod' }).click();
  await page.getByRole('table', { name: 'Pools' }).waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px at 800px`);
  await shot(page, 'cluster-800');
  await context.close();
});

test('an unknown address shows the not-found page', async () => {
  const { context, page } = await openPage(browser);
  await page.goto(sim.url + '/no/such/page');
  await connect(page);
  await assert.doesNotReject(page.getByRole('heading', { name: 'Page not found' }).waitFor());
  await context.close();
});
