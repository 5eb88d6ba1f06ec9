// Names, times and navigation as people read them (issue 23, items 4, 5 and 8):
// every page names the tab and its way back; the cluster page shows its project
// and VPC by name, each id copyable (the clipboard really holds it), as are the
// drain commands; versions read v1.34.4; times are local with the zone, UTC on
// hover, and "N min ago" moves on the console's one clock; Settings leads back
// to the last project used, `/` opens it, and an unknown project, cluster or
// pool reads "not found". Fresh demo world per test; the browser is in Berlin.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, connect, shot, DEMO_KEY } from './harness.mjs';

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
  await sim.control('DELETE', '/_sim/faults');
  const projects = await sim.api('/v1/projects');
  const production = projects.items.find((p) => p.name === 'Production');
  const staging = projects.items.find((p) => p.name === 'Staging');
  const clusters = await sim.api(`/v1/nks/clusters?project_id=${production.id}`);
  const cluster = clusters.items.find((c) => c.name === 'edge-prod');
  const pools = await sim.api(`/v1/nks/clusters/${cluster.id}/pools`);
  const baseline = pools.items.find((p) => p.name === 'baseline');
  const vpcs = await sim.api(`/v1/networking/vpcs?project_id=${production.id}`);
  const vpc = vpcs.items.find((v) => v.id === cluster.vpc_id);
  ids = { project: production.id, staging: staging.id, cluster, baseline, vpc };
});

const clusterPath = () => `/projects/${ids.project}/clusters/${ids.cluster.id}`;
const poolPath = () => `${clusterPath()}/pools/${ids.baseline.id}`;

/**
 * A page in Berlin (en-GB) that may use the clipboard, connected with the demo
 * key at `path`. `before(page)` runs first (a fake clock, a refusing clipboard).
 */
async function open(path, { width = 1280, before: prepare } = {}) {
  const context = await browser.newContext({
    viewport: { width, height: 860 },
    timezoneId: 'Europe/Berlin',
    locale: 'en-GB',
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  page.consoleLines = [];
  page.on('pageerror', (err) => page.consoleLines.push(`pageerror: ${err.message}`));
  if (prepare) await prepare(page);
  await page.goto(sim.url + path);
  await connect(page);
  return { context, page };
}

/** The tab's title, once it reads `expected` (it follows names as they load). */
async function titled(page, expected) {
  await page.waitForFunction((t) => document.title === t, expected, { timeout: 10_000 }).catch(() => {});
  return page.title();
}

/** The definition (`<dd>`) after the term `term` in the page's field list. */
function field(page, term) {
  return page.locator(`dl.fields dt:text-is("${term}") + dd`);
}

const clipboard = (page) => page.evaluate(() => navigator.clipboard.readText());

test('every page names the tab, and each way back names where it leads', async () => {
  const { context, page } = await open(`/projects/${ids.project}/clusters`);
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  assert.equal(await titled(page, 'Clusters · Production · NKS Console'), 'Clusters · Production · NKS Console');

  await page.getByRole('link', { name: 'edge-prod', exact: true }).click();
  await page.getByRole('heading', { name: 'edge-prod', level: 1 }).waitFor();
  assert.equal(await titled(page, 'edge-prod · Production · NKS Console'), 'edge-prod · Production · NKS Console');

  await page.getByRole('link', { name: 'baseline', exact: true }).click();
  await page.getByRole('heading', { name: 'baseline', level: 1 }).waitFor();
  assert.equal(await titled(page, 'baseline · edge-prod · NKS Console'), 'baseline · edge-prod · NKS Console');
  // The way back names the cluster, and leads to it.
  const back = page.getByRole('link', { name: '← edge-prod' });
  await back.waitFor();
  await back.click();
  await page.getByRole('heading', { name: 'edge-prod', level: 1 }).waitFor();
  assert.equal(new URL(page.url()).pathname, clusterPath());
  // The cluster's way back is the list, named so.
  await page.getByRole('link', { name: '← Clusters' }).click();
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  assert.equal(new URL(page.url()).pathname, `/projects/${ids.project}/clusters`);

  // Create pool says which cluster the pool is for.
  await page.goto(sim.url + `${clusterPath()}/pools/new`);
  const heading = page.getByRole('heading', { level: 1 });
  await page.getByRole('heading', { name: 'Create pool for edge-prod' }).waitFor();
  assert.equal((await heading.textContent()).trim(), 'Create pool for edge-prod');
  assert.equal(await titled(page, 'Create pool · edge-prod · NKS Console'), 'Create pool · edge-prod · NKS Console');
  await page.getByRole('link', { name: '← edge-prod' }).waitFor();

  await page.goto(sim.url + `${poolPath()}/edit`);
  await page.getByRole('heading', { name: 'Edit pool baseline' }).waitFor();
  await page.getByRole('link', { name: '← baseline' }).waitFor();
  assert.equal(await titled(page, 'Edit pool · baseline · edge-prod · NKS Console'), 'Edit pool · baseline · edge-prod · NKS Console');

  await page.goto(sim.url + `${clusterPath()}/edit`);
  await page.getByRole('link', { name: '← edge-prod' }).waitFor();
  assert.equal(await titled(page, 'Edit cluster · edge-prod · Production · NKS Console'), 'Edit cluster · edge-prod · Production · NKS Console');

  await page.goto(sim.url + `/projects/${ids.project}/operations`);
  assert.equal(await titled(page, 'Operations · Production · NKS Console'), 'Operations · Production · NKS Console');
  await page.goto(sim.url + '/settings');
  assert.equal(await titled(page, 'Settings · NKS Console'), 'Settings · NKS Console');
  assert.deepEqual(page.consoleLines.filter((l) => l.startsWith('pageerror')), []);
  await context.close();
});

test('the cluster page names its project and VPC; ids and drain commands copy to the clipboard', async () => {
  for (const width of [1280, 390]) {
    const { context, page } = await open(clusterPath(), { width });
    await page.getByRole('heading', { name: 'edge-prod', level: 1 }).waitFor();

    const project = field(page, 'Project');
    await project.getByText('Production').waitFor();
    assert.equal(await project.locator('code').textContent(), ids.project);
    const vpc = field(page, 'VPC');
    await vpc.getByText(ids.vpc.name).waitFor();
    assert.equal(await vpc.locator('code').textContent(), ids.vpc.id);
    assert.equal(await field(page, 'ID').locator('code').textContent(), ids.cluster.id);

    for (const [button, expected] of [
      ['Copy cluster ID', ids.cluster.id],
      ['Copy VPC ID', ids.vpc.id],
      ['Copy project ID', ids.project],
    ]) {
      const copy = page.getByRole('button', { name: button });
      await copy.click();
      // Said in the live region beside the button.
      const said = copy.locator('xpath=following-sibling::*[@role="status"][1]');
      await said.getByText('Copied').waitFor();
      assert.equal(await clipboard(page), expected, button);
    }
    await shot(page, `names-cluster-${width}`);

    // The pool page: its id, and a node's drain commands in the delete dialog.
    await page.getByRole('link', { name: 'baseline', exact: true }).click();
    await page.getByRole('heading', { name: 'baseline', level: 1 }).waitFor();
    assert.equal(await field(page, 'ID').locator('code').textContent(), ids.baseline.id);
    await page.getByRole('button', { name: 'Copy pool ID' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    assert.equal(await clipboard(page), ids.baseline.id);
    await shot(page, `names-pool-${width}`);

    const nodes = await sim.api(`/v1/nks/clusters/${ids.cluster.id}/pools/${ids.baseline.id}/nodes`);
    const node = nodes.items[0].name;
    await page.getByRole('button', { name: `Delete node ${node}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete node ${node}` });
    const commands = (await dialog.getByLabel('Drain commands', { exact: true }).textContent()).trim();
    assert.ok(commands.startsWith(`kubectl cordon ${node}\nkubectl drain ${node}`), commands);
    await dialog.getByRole('button', { name: 'Copy drain commands' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    assert.equal((await clipboard(page)).trim(), commands);
    await context.close();
  }
});

test('a copy the browser refuses says so, and nothing says "Copied"', async () => {
  const { context, page } = await open(clusterPath(), {
    before: (page) =>
      page.addInitScript(() => {
        navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
      }),
  });
  await page.getByRole('heading', { name: 'edge-prod', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Copy cluster ID' }).click();
  const said = page.getByRole('status').filter({ hasText: 'Could not copy' });
  await said.waitFor();
  assert.match(await said.textContent(), /Could not copy: the browser refused\. Select the text and copy it by hand\./);
  assert.equal(await page.getByRole('status').filter({ hasText: 'Copied' }).count(), 0);
  await context.close();
});

test('Kubernetes versions read v1.34.4 wherever they are shown', async () => {
  const { context, page } = await open(`/projects/${ids.project}/clusters`);
  const table = page.getByRole('table', { name: 'Clusters' });
  await table.waitFor();
  const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: 'edge-prod', exact: true }) });
  const headers = (await table.locator('thead th').allTextContents()).map((h) => h.trim());
  assert.equal((await row.locator('td').nth(headers.indexOf('Kubernetes')).textContent()).trim(), 'v1.34.4');

  await page.goto(sim.url + clusterPath());
  await page.getByRole('heading', { name: 'edge-prod', level: 1 }).waitFor();
  assert.equal((await field(page, 'Kubernetes version').textContent()).trim(), 'v1.34.4');

  // The create form's choice reads the same way: the API's display name
  // ("Kubernetes 1.34.4") only repeated the version.
  await page.goto(sim.url + `/projects/${ids.project}/clusters/new`);
  const select = page.getByLabel('Kubernetes version');
  await select.waitFor();
  const versions = await sim.api('/v1/nks/kubernetes_versions');
  const options = await select.locator('option').allTextContents();
  assert.deepEqual(options, ['Choose a version', ...versions.items.map((v) => v.name)]);
  assert.ok(options.every((o) => !o.includes('Kubernetes')), options.join());

  await page.goto(sim.url + `${clusterPath()}/edit`);
  assert.equal(await page.getByLabel('Kubernetes version').inputValue(), 'v1.34.4');
  await context.close();
});

test("the cluster page's recent operations read as words, as the operations page says them", async () => {
  const { context, page } = await open(clusterPath());
  const recent = page.getByRole('list', { name: 'Recent operations' });
  await recent.waitFor();
  const items = (await recent.getByRole('listitem').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
  const ops = await sim.api(`/v1/operations?project_id=${ids.project}&resource_id=${ids.cluster.id}`);
  assert.equal(items.length, Math.min(10, ops.items.length), items.join(' | '));
  // The seed's one operation on edge-prod is its create; the API's words for it
  // ("create", "nks_cluster") are not shown as they are.
  assert.ok(items[0].startsWith('Create cluster done'), items[0]);
  assert.ok(items.every((t) => !/nks_|^(create|update|delete) /.test(t)), items.join(' | '));
  await context.close();
});

test('times read in local time with the zone, UTC on hover, and "ago" moves on the one clock', async () => {
  // A pool made just now, for a time that moves by minutes.
  const made = await fetch(`${sim.url}/v1/nks/clusters/${ids.cluster.id}/pools`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEMO_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'fresh',
      node_count: 1,
      node_config: { instance_type: 'n1-standard-8', boot_volume: { size: 128, type: 'abs' }, labels: [], taints: [] },
    }),
  });
  assert.equal(made.status, 202, await made.text());
  let fresh;
  for (let i = 0; i < 100 && !fresh; i++) {
    const pools = await sim.api(`/v1/nks/clusters/${ids.cluster.id}/pools`);
    fresh = pools.items.find((p) => p.name === 'fresh');
    if (!fresh) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(fresh, 'the pool was made');

  const { context, page } = await open(`/projects/${ids.project}/clusters`, { before: (page) => page.clock.install() });
  // The cluster list: the local time with the zone, UTC on hover ("how long ago" is on the cluster's page).
  const table = page.getByRole('table', { name: 'Clusters' });
  await table.waitFor();
  const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: 'edge-prod', exact: true }) });
  const cell = row.locator('td').last();
  assert.equal((await cell.textContent()).trim(), '4 May 2026, 11:12 CEST');
  assert.equal(await cell.getAttribute('title'), '2026-05-04 09:12:00 UTC');

  await page.goto(sim.url + clusterPath());
  await page.getByRole('heading', { name: 'edge-prod', level: 1 }).waitFor();
  // edge-prod was made 2026-05-04T09:12:00Z: summer time in Berlin.
  const created = field(page, 'Created').locator('time');
  assert.equal(await created.getAttribute('datetime'), ids.cluster.created_at);
  assert.equal(await created.getAttribute('title'), '2026-05-04 09:12:00 UTC');
  const before = (await created.textContent()).trim();
  assert.match(before, /^4 May 2026, 11:12 CEST · \d+ months? ago$/, before);

  await page.goto(sim.url + `${clusterPath()}/pools/${fresh.id}`);
  await page.getByRole('heading', { name: 'fresh', level: 1 }).waitFor();
  const poolCreated = field(page, 'Created').locator('time');
  const text = async () => (await poolCreated.textContent()).trim();
  assert.match(await text(), /^\d{1,2} [A-Z][a-z]{2,3} \d{4}, \d{2}:\d{2} CET · just now$/);
  const utc = new Date(fresh.created_at).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  assert.equal(await poolCreated.getAttribute('title'), utc);

  // Five minutes on the page's clock: the one clock moves every time shown.
  await page.clock.fastForward('05:00');
  await page.waitForFunction(
    () => document.querySelector('dl.fields time')?.textContent.endsWith('5 min ago'),
    null,
    { timeout: 10_000 },
  );
  assert.match(await text(), / · 5 min ago$/);
  await page.clock.fastForward('02:00:00');
  await page.waitForFunction(() => document.querySelector('dl.fields time')?.textContent.endsWith('2 h ago'), null, {
    timeout: 10_000,
  });
  assert.match(await text(), / · 2 h ago$/);
  await context.close();
});

test('Settings leads back to the last project used, only its own link is current, and / opens that project', async () => {
  const { context, page } = await open(`/projects/${ids.staging}/clusters`);
  await page.getByRole('heading', { name: 'Clusters', level: 1 }).waitFor();
  // The project list is read (the switcher shows Staging): Staging is now the last project used.
  await page.waitForFunction(
    (id) => document.querySelector('#project')?.value === id && document.querySelectorAll('#project option').length > 1,
    ids.staging,
  );

  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
  const clusters = nav.getByRole('link', { name: 'Clusters' });
  const operations = nav.getByRole('link', { name: 'Operations' });
  assert.equal(new URL(await clusters.evaluate((a) => a.href)).pathname, `/projects/${ids.staging}/clusters`);
  assert.equal(new URL(await operations.evaluate((a) => a.href)).pathname, `/projects/${ids.staging}/operations`);
  const current = await nav.locator('a[aria-current="page"]').allTextContents();
  assert.deepEqual(current, ['Settings']);

  await operations.click();
  await page.getByRole('heading', { name: 'Operations' }).waitFor();
  assert.equal(new URL(page.url()).pathname, `/projects/${ids.staging}/operations`);
  assert.deepEqual(await nav.locator('a[aria-current="page"]').allTextContents(), ['Operations']);

  // A new load of `/` opens the last project, not the first one.
  await page.goto(sim.url + '/');
  await page.waitForURL((url) => url.pathname === `/projects/${ids.staging}/clusters`, { timeout: 10_000 });
  assert.equal(await page.getByLabel('Project', { exact: true }).inputValue(), ids.staging);
  assert.deepEqual(await nav.locator('a[aria-current="page"]').allTextContents(), ['Clusters']);

  // So does the brand link, from anywhere.
  await page.goto(sim.url + '/settings');
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
  await page.getByRole('link', { name: 'NKS Console' }).click();
  await page.waitForURL((url) => url.pathname === `/projects/${ids.staging}/clusters`, { timeout: 10_000 });
  await context.close();
});

test('an unknown project, cluster or pool reads "not found", with no Create or Retry beside it', async () => {
  const { context, page } = await open('/projects/no-such-project/clusters');
  await page.getByRole('heading', { name: 'Project not found' }).waitFor();
  assert.equal(await page.getByRole('link', { name: 'Create cluster' }).count(), 0);
  assert.equal(await page.getByText('No clusters in this project yet').count(), 0);
  assert.equal(await titled(page, 'Not found · NKS Console'), 'Not found · NKS Console');
  // Its way out leads to a project that exists.
  await page.getByRole('link', { name: '← Clusters' }).click();
  await page.getByRole('table', { name: 'Clusters' }).waitFor();

  for (const [path, heading] of [
    [`/projects/${ids.project}/clusters/no-such-cluster`, 'Cluster not found'],
    // A real cluster, under a project it does not belong to.
    [`/projects/${ids.staging}/clusters/${ids.cluster.id}`, 'Cluster not found'],
    [`${clusterPath()}/pools/no-such-pool`, 'Pool not found'],
  ]) {
    await page.goto(sim.url + path);
    await page.getByRole('heading', { name: heading }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Retry' }).count(), 0, path);
    assert.equal(await page.getByText('will not help').count(), 0, path);
    assert.equal(await page.getByRole('link', { name: 'Edit cluster' }).count(), 0, path);
    assert.equal(await titled(page, 'Not found · NKS Console'), 'Not found · NKS Console', path);
  }
  await shot(page, 'names-not-found-1280');
  await context.close();
});
