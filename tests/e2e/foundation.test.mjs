// The foundation, end to end: connect with the demo key, switch project, see the
// seeded cluster and its pools, reload on a deep link, and refuse a wrong key.
// Tests about the connect screen open the console without a key (`connected:
// false`) and type it; the others start with the key kept for the tab.
import { test, expect, shot, DEMO_KEY, connect } from './fixtures.mjs';

// These tests read the requests the page made.
test.use({ recordRequests: true });

const selectedProject = (page) => page.getByLabel('Project').locator('option:checked');

test('connecting with the demo key opens the clusters of the first project', async ({ open }) => {
  const page = await open('/', { connected: false });
  await expect(page.getByRole('heading', { name: 'Connect to Nirvana NKS' })).toBeVisible();
  await shot(page, 'connect');
  await connect(page);
  const table = page.getByRole('table', { name: 'Clusters' });
  await expect(table.getByRole('link', { name: 'edge-prod' })).toBeVisible();
  await expect(page).toHaveURL(/\/projects\/[^/]+\/clusters$/);
  await expect(selectedProject(page)).toHaveText('Production');
  await shot(page, 'clusters');
});

test('the cluster page lists its pools with labels and taints, and the pool page its nodes', async ({ open }) => {
  const page = await open('/');
  await page.getByRole('link', { name: 'edge-prod' }).click();
  await expect(page.getByRole('heading', { name: 'edge-prod' })).toBeVisible();
  const pools = page.getByRole('table', { name: 'Pools' });
  const baseline = pools.getByRole('row').filter({ hasText: 'baseline' });
  await expect(baseline.getByText('n1-standard-8')).toBeVisible();
  await expect(baseline.getByText('tier=general')).toBeVisible();
  const zero = pools.getByRole('row').filter({ hasText: 'batch-zero' });
  await expect(zero.getByText('dedicated=batch:NoSchedule')).toBeVisible();
  await shot(page, 'cluster');

  await pools.getByRole('link', { name: 'baseline' }).click();
  const nodes = page.getByRole('table', { name: 'Nodes' });
  await expect(nodes.getByRole('row'), 'header row plus the three seeded nodes').toHaveCount(1 + 3);
  await shot(page, 'pool');
});

test('switching project shows that project and its empty state', async ({ projects, open }) => {
  const page = await open('/');
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  await page.getByLabel('Project').selectOption({ label: 'Staging' });
  await expect(page.getByText('No clusters in this project yet.')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/projects/${projects.Staging}/clusters$`));
});

test('a deep link survives a reload and lands on the same page', async ({ open }) => {
  const page = await open('/');
  await page.getByRole('link', { name: 'edge-prod' }).click();
  await page.getByRole('table', { name: 'Pools' }).getByRole('link', { name: 'batch-zero' }).click();
  await expect(page.getByRole('heading', { name: 'batch-zero' })).toBeVisible();
  const deep = page.url();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'batch-zero' })).toBeVisible();
  await expect(page).toHaveURL(deep);
  await expect(page.getByText('No nodes: this pool is scaled to zero.')).toBeVisible();
});

test('a deep link opened fresh asks for the key, then shows the page it named', async ({ sim, demo, open }) => {
  const deep = `${sim.url}/projects/${demo.project}/clusters/${demo.cluster}`;
  const page = await open(deep, { connected: false });
  await connect(page);
  await expect(page.getByRole('heading', { name: 'edge-prod' })).toBeVisible();
  await expect(page).toHaveURL(deep);
});

test('back and forward move between the pages visited; a filter changes the entry, it adds none', async ({ open }) => {
  const page = await open('/');
  const clusters = page.getByRole('table', { name: 'Clusters' });
  await expect(clusters).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await nav.getByRole('link', { name: 'Clusters' }).click();
  await expect(clusters).toBeVisible();
  await page.getByLabel('Filter by name').fill('edge');
  await page.waitForURL(/\/clusters\?name=edge$/);
  const filtered = page.url();
  await clusters.getByRole('link', { name: 'edge-prod' }).click();
  await expect(page.getByRole('heading', { name: 'edge-prod' })).toBeVisible();
  const cluster = page.url();

  await page.goBack();
  await expect(clusters).toBeVisible();
  await expect(page).toHaveURL(filtered);
  await expect(page.getByLabel('Filter by name')).toHaveValue('edge');
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(page).toHaveURL(/\/settings$/);

  await page.goForward();
  await expect(clusters).toBeVisible();
  await expect(page).toHaveURL(filtered);
  await page.goForward();
  await expect(page.getByRole('heading', { name: 'edge-prod' })).toBeVisible();
  await expect(page).toHaveURL(cluster);
});

test('a wrong key gets a clear refusal and is not kept', async ({ open }) => {
  // Nothing written to the page's storage beforehand (no test poll interval
  // either), so "nothing kept" means both storages stay empty.
  const page = await open('/', { connected: false, pollMs: null });
  await connect(page, 'not-a-real-key');
  await expect(page.getByRole('alert').getByText('The API rejected this key (401)')).toBeVisible();
  await shot(page, 'connect-wrong-key');
  const stored = await page.evaluate(() => [sessionStorage.length, localStorage.length]);
  expect(stored).toEqual([0, 0]);
});

test('the key travels only in the Authorization header, never in a URL or the console log', async ({ sim, open }) => {
  // The key's whole way, from the connect screen on.
  const page = await open('/', { connected: false });
  await connect(page);
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  const apiCalls = page.requestsMade.filter((r) => new URL(r.url).pathname.startsWith('/v1/'));
  expect(apiCalls.length).toBeGreaterThan(0);
  for (const r of page.requestsMade) {
    expect(r.url, `key in URL ${r.url}`).not.toContain(DEMO_KEY);
    expect(new URL(r.url).origin, `request left the configured origin: ${r.url}`).toBe(sim.url);
  }
  for (const r of apiCalls) expect(r.headers.authorization).toBe(`Bearer ${DEMO_KEY}`);
  expect(page.consoleLines.filter((l) => l.includes(DEMO_KEY)), 'key in the console log').toEqual([]);
  const remembered = await page.evaluate(() => localStorage.getItem('nks-console.api-key'));
  expect(remembered, 'not remembered without the opt-in').toBeNull();
});

test('a 401 later returns to the connect screen and back to the same page', async ({ control, open }) => {
  const page = await open('/');
  await page.getByRole('link', { name: 'edge-prod' }).click();
  await expect(page.getByRole('heading', { name: 'edge-prod' })).toBeVisible();
  const where = page.url();
  // The console is closed while the key is revoked, so none of the page's own
  // reads meets the 401 before it is opened again (the tab keeps its key).
  await page.goto('about:blank');
  // The key is revoked: every call now answers 401.
  await control.fault({ action: { type: 'status', status: 401, message: 'API key revoked' } });
  try {
    await page.goto(where);
    await expect(page.getByText('The API refused the key in use (401)')).toBeVisible();
    await expect(page).toHaveURL(where);
  } finally {
    await control.clearFaults();
  }
  await connect(page);
  await expect(page.getByRole('heading', { name: 'edge-prod' })).toBeVisible();
  await expect(page).toHaveURL(where);
});

test('a failed cluster list shows the error with a retry, never an empty list', async ({ control, open }) => {
  const page = await open('/');
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  await control.fault({
    match: { method: 'GET', path: '/v1/nks/clusters' },
    action: { type: 'status', status: 503, message: 'maintenance' },
  });
  try {
    await page.reload();
    // The list is asked for three times (two retries, 0.5 s then 1 s apart) before
    // the error is shown.
    await expect(page.getByRole('alert').getByText('Temporary: the request is fine, try later.')).toBeVisible();
    await expect(page.getByText('No clusters in this project yet.')).toHaveCount(0);
    await shot(page, 'clusters-error');
  } finally {
    await control.clearFaults();
  }
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('link', { name: 'edge-prod' })).toBeVisible();
});

test('the layout stays readable at 800 px', async ({ open }) => {
  const page = await open('/', { width: 800, height: 900 });
  await page.getByRole('link', { name: 'edge-prod' }).click();
  await expect(page.getByRole('table', { name: 'Pools' })).toBeVisible();
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await expect.poll(overflow, { message: 'page scrolls sideways at 800px' }).toBeLessThanOrEqual(0);
  await shot(page, 'cluster-800');
});

test('an unknown address shows the not-found page', async ({ open }) => {
  const page = await open('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});
