// Names, times and navigation as people read them (issue 23, items 4, 5 and 8):
// every page names the tab and its way back; the cluster page shows its project
// and VPC by name, each id copyable (the clipboard really holds it), as are the
// drain commands; versions read v1.34.4; times are local with the zone, UTC on
// hover, and "N min ago" moves on the console's one clock; Settings leads back
// to the last project used, `/` opens it, and an unknown project, cluster or
// pool reads "not found". Fresh demo world per test; the browser is in Berlin.
import { test, expect, shot } from './fixtures.mjs';

/** A browser in Berlin (en-GB) that may use the clipboard. */
const BERLIN = { timezoneId: 'Europe/Berlin', locale: 'en-GB', permissions: ['clipboard-read', 'clipboard-write'] };

/** What the tests need beyond the demo ids: the Staging project, and edge-prod, baseline and its VPC as the API has them. */
async function world(api, demo, projects) {
  const cluster = await api('GET', `/v1/nks/clusters/${demo.cluster}`);
  const baseline = await api('GET', `/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}`);
  const vpcs = await api('GET', `/v1/networking/vpcs?project_id=${demo.project}`);
  const vpc = vpcs.items.find((v) => v.id === cluster.vpc_id);
  return { project: demo.project, staging: projects.Staging, cluster, baseline, vpc };
}

/**
 * A page in Berlin at `path`, connected with the demo key. `prepare(page)`, if
 * given (a fake clock, a refusing clipboard), is set up before the console loads.
 */
const openIn = (open, path, { width = 1280, prepare } = {}) =>
  open(path, { width, contextOptions: BERLIN, beforeLoad: prepare });

const clusterPath = (ids) => `/projects/${ids.project}/clusters/${ids.cluster.id}`;
const poolPath = (ids) => `${clusterPath(ids)}/pools/${ids.baseline.id}`;

/** The definition (`<dd>`) after the term `term` in the page's field list. */
function field(page, term) {
  return page.locator(`dl.fields dt:text-is("${term}") + dd`);
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const clipboard = (page) => page.evaluate(() => navigator.clipboard.readText());

test('every page names the tab, and each way back names where it leads', async ({ api, demo, projects, open }) => {
  const ids = await world(api, demo, projects);
  const page = await openIn(open, `/projects/${ids.project}/clusters`);
  const goto = (path) => page.goto(new URL(path, page.url()).href);
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  await expect(page).toHaveTitle('Clusters · Production · NKS Console');

  await page.getByRole('link', { name: 'edge-prod', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'edge-prod', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle('edge-prod · Production · NKS Console');

  await page.getByRole('link', { name: 'baseline', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'baseline', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle('baseline · edge-prod · NKS Console');
  // The way back names the cluster, and leads to it.
  await page.getByRole('link', { name: '← edge-prod' }).click();
  await expect(page.getByRole('heading', { name: 'edge-prod', level: 1 })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === clusterPath(ids));
  // The cluster's way back is the list, named so.
  await page.getByRole('link', { name: '← Clusters' }).click();
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === `/projects/${ids.project}/clusters`);

  // Create pool says which cluster the pool is for.
  await goto(`${clusterPath(ids)}/pools/new`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create pool for edge-prod');
  await expect(page).toHaveTitle('Create pool · edge-prod · NKS Console');
  await expect(page.getByRole('link', { name: '← edge-prod' })).toBeVisible();

  await goto(`${poolPath(ids)}/edit`);
  await expect(page.getByRole('heading', { name: 'Edit pool baseline' })).toBeVisible();
  await expect(page.getByRole('link', { name: '← baseline' })).toBeVisible();
  await expect(page).toHaveTitle('Edit pool · baseline · edge-prod · NKS Console');

  await goto(`${clusterPath(ids)}/edit`);
  await expect(page.getByRole('link', { name: '← edge-prod' })).toBeVisible();
  await expect(page).toHaveTitle('Edit cluster · edge-prod · Production · NKS Console');

  await goto(`/projects/${ids.project}/operations`);
  await expect(page).toHaveTitle('Operations · Production · NKS Console');
  await goto('/settings');
  await expect(page).toHaveTitle('Settings · NKS Console');
  expect(page.consoleLines.filter((l) => l.startsWith('pageerror'))).toEqual([]);
});

test('the cluster page names its project and VPC; ids and drain commands copy to the clipboard', async ({ api, demo, projects, open }) => {
  const ids = await world(api, demo, projects);
  for (const width of [1280, 390]) {
    const page = await openIn(open, clusterPath(ids), { width });
    await expect(page.getByRole('heading', { name: 'edge-prod', level: 1 })).toBeVisible();

    const project = field(page, 'Project');
    await expect(project.getByText('Production')).toBeVisible();
    await expect(project.locator('code')).toHaveText(ids.project);
    const vpc = field(page, 'VPC');
    await expect(vpc.getByText(ids.vpc.name)).toBeVisible();
    await expect(vpc.locator('code')).toHaveText(ids.vpc.id);
    await expect(field(page, 'ID').locator('code')).toHaveText(ids.cluster.id);

    for (const [button, expected] of [
      ['Copy cluster ID', ids.cluster.id],
      ['Copy VPC ID', ids.vpc.id],
      ['Copy project ID', ids.project],
    ]) {
      const copy = page.getByRole('button', { name: button });
      await copy.click();
      // Said in the live region beside the button.
      const said = copy.locator('xpath=following-sibling::*[@role="status"][1]');
      await expect(said.getByText('Copied')).toBeVisible();
      await expect.poll(() => clipboard(page), button).toBe(expected);
    }
    await shot(page, `names-cluster-${width}`);

    // The pool page: its id, and a node's drain commands in the delete dialog.
    await page.getByRole('link', { name: 'baseline', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'baseline', level: 1 })).toBeVisible();
    await expect(field(page, 'ID').locator('code')).toHaveText(ids.baseline.id);
    await page.getByRole('button', { name: 'Copy pool ID' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
    await expect.poll(() => clipboard(page)).toBe(ids.baseline.id);
    await shot(page, `names-pool-${width}`);

    const nodes = await api('GET', `/v1/nks/clusters/${ids.cluster.id}/pools/${ids.baseline.id}/nodes`);
    const node = nodes.items[0].name;
    await page.getByRole('button', { name: `Delete node ${node}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete node ${node}` });
    const drain = dialog.getByLabel('Drain commands', { exact: true });
    const drainText = async () => (await drain.textContent()).trim();
    await expect.poll(drainText).toMatch(new RegExp(`^kubectl cordon ${escape(node)}\nkubectl drain ${escape(node)}`));
    const commands = await drainText();
    await dialog.getByRole('button', { name: 'Copy drain commands' }).click();
    await expect(dialog.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
    await expect.poll(async () => (await clipboard(page)).trim()).toBe(commands);
  }
});

test('a copy the browser refuses says so, and nothing says "Copied"', async ({ api, demo, projects, open }) => {
  const ids = await world(api, demo, projects);
  const page = await openIn(open, clusterPath(ids), {
    prepare: (page) =>
      page.addInitScript(() => {
        navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
      }),
  });
  await expect(page.getByRole('heading', { name: 'edge-prod', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Copy cluster ID' }).click();
  const said = page.getByRole('status').filter({ hasText: 'Could not copy' });
  await expect(said).toHaveText(/Could not copy: the browser refused\. Select the text and copy it by hand\./);
  await expect(page.getByRole('status').filter({ hasText: 'Copied' })).toHaveCount(0);

  // The kubeconfig is not on the page to copy by hand: the way out is its download.
  await page.getByRole('button', { name: 'Copy kubeconfig' }).click();
  const kubeconfig = page.getByRole('status').filter({ hasText: 'the clipboard' });
  await expect(kubeconfig).toHaveText('Could not copy: the browser refused the clipboard. Download the kubeconfig instead.');
  await expect(page.getByRole('status').filter({ hasText: 'Copied' })).toHaveCount(0);
  await shot(page, 'kubeconfig-copy-refused');
});

test('Kubernetes versions read v1.34.4 wherever they are shown', async ({ api, demo, projects, open }) => {
  const ids = await world(api, demo, projects);
  const page = await openIn(open, `/projects/${ids.project}/clusters`);
  const goto = (path) => page.goto(new URL(path, page.url()).href);
  const table = page.getByRole('table', { name: 'Clusters' });
  const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: 'edge-prod', exact: true }) });
  await expect(row).toBeVisible();
  const headers = (await table.locator('thead th').allTextContents()).map((h) => h.trim());
  expect(headers).toContain('Kubernetes');
  await expect(row.locator('td').nth(headers.indexOf('Kubernetes'))).toHaveText('v1.34.4');

  await goto(clusterPath(ids));
  await expect(page.getByRole('heading', { name: 'edge-prod', level: 1 })).toBeVisible();
  await expect(field(page, 'Kubernetes version')).toHaveText('v1.34.4');

  // The create form's choice reads the same way: the API's display name
  // ("Kubernetes 1.34.4") only repeated the version.
  await goto(`/projects/${ids.project}/clusters/new`);
  const versions = await api('GET', '/v1/nks/kubernetes_versions');
  const options = page.getByLabel('Kubernetes version').locator('option');
  await expect(options).toHaveText(['Choose a version', ...versions.items.map((v) => v.name)]);
  const texts = await options.allTextContents();
  expect(texts.every((o) => !o.includes('Kubernetes')), texts.join()).toBe(true);

  await goto(`${clusterPath(ids)}/edit`);
  await expect(page.getByLabel('Kubernetes version')).toHaveValue('v1.34.4');
});

test("the cluster page's recent operations read as words, as the operations page says them", async ({ api, demo, projects, open }) => {
  const ids = await world(api, demo, projects);
  const page = await openIn(open, clusterPath(ids));
  const recent = page.getByRole('list', { name: 'Recent operations' });
  const ops = await api('GET', `/v1/operations?project_id=${ids.project}&resource_id=${ids.cluster.id}`);
  // Its own operations, and its parts' among the project's newest (ten at most).
  await expect(recent.getByRole('listitem').filter({ hasText: /^Create cluster done/ })).toHaveCount(1);
  const items = (await recent.getByRole('listitem').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
  expect(items.length).toBeGreaterThanOrEqual(Math.min(10, ops.items.length));
  expect(items.length).toBeLessThanOrEqual(10);
  // The seed's one operation on edge-prod is its create; the API's words for it
  // ("create", "nks_cluster") are not shown as they are.
  expect(items.every((t) => !/nks_|^(create|update|delete) /.test(t)), items.join(' | ')).toBe(true);
});

test('times read in local time with the zone, UTC on hover, and "ago" moves on the one clock', async ({ api, control, demo, projects, open }) => {
  const ids = await world(api, demo, projects);
  // A pool made just now (its create ended at once), for a time that moves by minutes.
  const made = await api.send('POST', `/v1/nks/clusters/${ids.cluster.id}/pools`, {
    name: 'fresh',
    node_count: 1,
    node_config: { instance_type: 'n1-standard-8', boot_volume: { size: 128, type: 'abs' }, labels: [], taints: [] },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(202);
  await control.finish({ id: made.body.id });
  const fresh = (await api('GET', `/v1/nks/clusters/${ids.cluster.id}/pools`)).items.find((p) => p.name === 'fresh');
  expect(fresh, 'the pool was made').toBeTruthy();

  const page = await openIn(open, `/projects/${ids.project}/clusters`, { prepare: (page) => page.clock.install() });
  const goto = (path) => page.goto(new URL(path, page.url()).href);
  // The cluster list: the local time with the zone, UTC on hover ("how long ago" is on the cluster's page).
  const table = page.getByRole('table', { name: 'Clusters' });
  const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: 'edge-prod', exact: true }) });
  const cell = row.locator('td').last();
  await expect(cell).toHaveText('4 May 2026, 11:12 CEST');
  await expect(cell).toHaveAttribute('title', '2026-05-04 09:12:00 UTC');

  await goto(clusterPath(ids));
  await expect(page.getByRole('heading', { name: 'edge-prod', level: 1 })).toBeVisible();
  // edge-prod was made 2026-05-04T09:12:00Z: summer time in Berlin.
  const created = field(page, 'Created').locator('time');
  await expect(created).toHaveAttribute('datetime', ids.cluster.created_at);
  await expect(created).toHaveAttribute('title', '2026-05-04 09:12:00 UTC');
  await expect(created).toHaveText(/^4 May 2026, 11:12 CEST · \d+ months? ago$/);

  await goto(`${clusterPath(ids)}/pools/${fresh.id}`);
  await expect(page.getByRole('heading', { name: 'fresh', level: 1 })).toBeVisible();
  const poolCreated = field(page, 'Created').locator('time');
  await expect(poolCreated).toHaveText(/^\d{1,2} [A-Z][a-z]{2,3} \d{4}, \d{2}:\d{2} CET · just now$/);
  const utc = new Date(fresh.created_at).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  await expect(poolCreated).toHaveAttribute('title', utc);

  // Five minutes on the page's clock: the one clock moves every time shown.
  await page.clock.fastForward('05:00');
  await expect(poolCreated).toHaveText(/ · 5 min ago$/);
  await page.clock.fastForward('02:00:00');
  await expect(poolCreated).toHaveText(/ · 2 h ago$/);
});

test('Settings leads back to the last project used, only its own link is current, and / opens that project', async ({ api, demo, projects, open }) => {
  const ids = await world(api, demo, projects);
  const page = await openIn(open, `/projects/${ids.staging}/clusters`);
  const goto = (path) => page.goto(new URL(path, page.url()).href);
  await expect(page.getByRole('heading', { name: 'Clusters', level: 1 })).toBeVisible();
  // The project list is read (the switcher shows Staging): Staging is now the last project used.
  await expect(page.locator('#project')).toHaveValue(ids.staging);
  await expect.poll(() => page.locator('#project option').count()).toBeGreaterThan(1);

  const nav = page.getByRole('navigation', { name: 'Main' });
  const current = nav.locator('a[aria-current="page"]');
  const target = (link) => link.evaluate((a) => new URL(a.href).pathname);
  await nav.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  const clusters = nav.getByRole('link', { name: 'Clusters' });
  const operations = nav.getByRole('link', { name: 'Operations' });
  await expect.poll(() => target(clusters)).toBe(`/projects/${ids.staging}/clusters`);
  await expect.poll(() => target(operations)).toBe(`/projects/${ids.staging}/operations`);
  await expect(current).toHaveText(['Settings']);

  await operations.click();
  await expect(page.getByRole('heading', { name: 'Operations' })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === `/projects/${ids.staging}/operations`);
  await expect(current).toHaveText(['Operations']);

  // A new load of `/` opens the last project, not the first one.
  await goto('/');
  await expect(page).toHaveURL((url) => url.pathname === `/projects/${ids.staging}/clusters`);
  await expect(page.getByLabel('Project', { exact: true })).toHaveValue(ids.staging);
  await expect(current).toHaveText(['Clusters']);

  // So does the brand link, from anywhere.
  await goto('/settings');
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await page.getByRole('link', { name: 'NKS Console' }).click();
  await expect(page).toHaveURL((url) => url.pathname === `/projects/${ids.staging}/clusters`);
});

test('an unknown project, cluster or pool reads "not found", with no Create or Retry beside it', async ({ api, demo, projects, open }) => {
  const ids = await world(api, demo, projects);
  const page = await openIn(open, '/projects/no-such-project/clusters');
  const goto = (path) => page.goto(new URL(path, page.url()).href);
  await expect(page.getByRole('heading', { name: 'Project not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create cluster' })).toHaveCount(0);
  await expect(page.getByText('No clusters in this project yet')).toHaveCount(0);
  await expect(page).toHaveTitle('Not found · NKS Console');
  // Its way out leads to a project that exists.
  await page.getByRole('link', { name: '← Clusters' }).click();
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();

  for (const [path, heading] of [
    [`/projects/${ids.project}/clusters/no-such-cluster`, 'Cluster not found'],
    // A real cluster, under a project it does not belong to.
    [`/projects/${ids.staging}/clusters/${ids.cluster.id}`, 'Cluster not found'],
    [`${clusterPath(ids)}/pools/no-such-pool`, 'Pool not found'],
  ]) {
    await goto(path);
    await expect(page.getByRole('heading', { name: heading }), path).toBeVisible();
    await expect(page.getByRole('button', { name: 'Retry' }), path).toHaveCount(0);
    await expect(page.getByText('will not help'), path).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Edit cluster' }), path).toHaveCount(0);
    await expect(page, path).toHaveTitle('Not found · NKS Console');
  }
  await shot(page, 'names-not-found-1280');
});
