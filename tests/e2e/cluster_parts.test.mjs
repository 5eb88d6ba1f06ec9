// A cluster's parts end to end: the cluster page shows its controllers (with
// their volumes), load balancers and persistent volume claims, the pool page its
// volumes; a load balancer's public IP is turned off and on through a confirm
// that says what changes, each change followed by the tracker to done (the test
// ends each operation once the confirm shows it in flight); a failed read shows
// an error with Retry, never an empty list. Fresh demo world per test.
import { test, expect, shot } from './fixtures.mjs';

// These tests read the requests the page made.
test.use({ recordRequests: true });

const clusterPath = (demo) => `/projects/${demo.project}/clusters/${demo.cluster}`;
const poolPath = (demo, pool) => `${clusterPath(demo)}/pools/${pool}`;

/** The texts of a table's body rows, cell by cell. */
function rows(table) {
  return table.locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())),
  );
}

/** Whether the page fits its width (a wide table scrolls inside itself). */
const fitsWidth = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test('the cluster page shows the seeded controllers, load balancers and persistent volume claims', async ({ demo, open }) => {
  for (const width of [1280, 390]) {
    const page = await open(clusterPath(demo), { width });
    const controllers = page.getByRole('table', { name: 'Controllers' });
    const balancers = page.getByRole('table', { name: 'Load balancers' });
    const claims = page.getByRole('table', { name: 'Persistent volume claims' });
    await expect(controllers).toBeVisible();
    await expect(balancers).toBeVisible();
    await expect(claims).toBeVisible();

    await expect
      .poll(async () => (await rows(controllers)).map((r) => r[0]))
      .toEqual(['edge-prod-controller-1', 'edge-prod-controller-2', 'edge-prod-controller-3']);
    const c = await rows(controllers);
    expect(c[0][1]).toBe('ready');
    expect(c[0][2]).toBe('10.20.0.244');
    expect(c[0][4]).toMatch(/edge-prod-controller-1-boot\s+boot · 128 GB abs/);

    await expect
      .poll(async () => (await rows(balancers)).map((r) => r[0]))
      .toEqual(expect.arrayContaining(['ingress-nginx-controller', 'payments-api']));
    const lbs = await rows(balancers);
    const ingress = lbs.find((r) => r[0] === 'ingress-nginx-controller');
    const payments = lbs.find((r) => r[0] === 'payments-api');
    expect(ingress[1]).toBe('ingress-nginx');
    expect(ingress[4], 'the public one shows its public address').toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(ingress[5]).toBe('yes');
    expect(payments[1]).toBe('payments');
    expect(payments[4], 'a private one has no public address').toBe('none');
    expect(payments[5]).toBe('no');

    await expect
      .poll(async () => (await rows(claims)).map((r) => r.slice(0, 3)))
      .toEqual([
        ['data-postgres-0', '50 GB', 'abs'],
        ['data-redis-0', '10 GB', 'nvme'],
        ['prometheus-server', '100 GB', 'abs'],
      ]);
    await shot(page, `cluster-parts-${width}`);
    // Wide tables scroll inside themselves: the page never scrolls sideways.
    expect(await fitsWidth(page), `no sideways scroll at ${width} px`).toBe(true);
    if (width === 390) {
      await page.getByRole('button', { name: 'Turn on public IP of payments/payments-api' }).click();
      const dialog = page.getByRole('dialog', { name: 'Turn on public IP: payments/payments-api' });
      await expect(dialog).toBeVisible();
      await dialog.scrollIntoViewIfNeeded();
      await shot(page, 'lb-confirm-on-390');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    }
    await page.close();
  }
});

test("the pool page shows its nodes' volumes, and a pool with no nodes says so in words", async ({ demo, open }) => {
  for (const width of [1280, 390]) {
    const page = await open(poolPath(demo, demo.baseline), { width });
    const volumes = page.getByRole('table', { name: 'Volumes' });
    await expect(volumes).toBeVisible();
    await expect.poll(async () => (await rows(volumes)).length).toBe(3);
    const nodes = await rows(page.getByRole('table', { name: 'Nodes' }));
    const vols = await rows(volumes);
    // Each volume sits beside its node, by the node's name, in the nodes' order.
    expect(vols.map((r) => r[0])).toEqual(nodes.map((r) => r[0]));
    for (const [node, name, kind, size, type, status] of vols) {
      expect(name).toBe(`${node}-boot`);
      expect([kind, size, type, status]).toEqual(['boot', '128 GB', 'abs', 'ready']);
    }
    await shot(page, `pool-volumes-${width}`);
    expect(await fitsWidth(page), `no sideways scroll at ${width} px`).toBe(true);
    await page.close();
  }
  const page = await open(poolPath(demo, demo.zero));
  await expect(page.getByText('No volumes in this pool', { exact: false })).toBeVisible();
});

test("a load balancer's public IP is turned off and on through a confirm, each followed to done", async ({ control, demo, open }) => {
  const page = await open(clusterPath(demo));
  const patches = [];
  page.on('request', (r) => r.method() === 'PATCH' && r.url().includes('/load_balancers/') && patches.push(r));
  const balancers = page.getByRole('table', { name: 'Load balancers' });
  const ingressRow = balancers.locator('tbody tr').filter({ hasText: 'ingress-nginx-controller' });
  await expect(ingressRow.locator('td').nth(4)).toHaveText(/^\d+\.\d+\.\d+\.\d+$/);
  const publicIp = (await ingressRow.locator('td').nth(4).textContent()).trim();

  // Off: the confirm names the address that stops answering; Cancel sends nothing.
  await page.getByRole('button', { name: 'Turn off public IP of ingress-nginx/ingress-nginx-controller' }).click();
  let dialog = page.getByRole('dialog', { name: 'Turn off public IP: ingress-nginx/ingress-nginx-controller' });
  await expect(dialog).toContainText(new RegExp(`loses its public address ${publicIp.replaceAll('.', '\\.')}`));
  await expect(dialog).toContainText(/clients on the internet stop reaching it/);
  await shot(page, 'lb-confirm-off');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  expect(patches, 'a cancelled confirm sends nothing').toHaveLength(0);

  await page.getByRole('button', { name: 'Turn off public IP of ingress-nginx/ingress-nginx-controller' }).click();
  await dialog.getByRole('button', { name: 'Turn off public IP' }).click();
  const offProgress = dialog.getByRole('status').filter({ hasText: 'Turn off public IP — operation' });
  await expect(offProgress.getByText(/^(pending|running)$/)).toBeVisible();
  expect(patches).toHaveLength(1);
  expect(JSON.parse(patches[0].postData())).toEqual({ public_ip_enabled: false });
  const offOp = await (await patches[0].response()).json();
  expect(offOp.kind).toBe('nks_load_balancer');
  await control.finish({ id: offOp.id });
  await expect(offProgress.getByText('done', { exact: true })).toBeVisible();
  // The list is read again when the operation ends: no public address any more.
  await expect(ingressRow.locator('td').nth(5)).toHaveText('no');
  await expect(ingressRow.locator('td').nth(4)).toHaveText('none');
  await shot(page, 'lb-turned-off');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // On: the confirm says what becomes reachable from the internet.
  await page.getByRole('button', { name: 'Turn on public IP of ingress-nginx/ingress-nginx-controller' }).click();
  dialog = page.getByRole('dialog', { name: 'Turn on public IP: ingress-nginx/ingress-nginx-controller' });
  await expect(dialog).toContainText(/becomes reachable from the internet/);
  await expect(dialog).toContainText(/every port it exposes/);
  await shot(page, 'lb-confirm-on');
  await dialog.getByRole('button', { name: 'Turn on public IP' }).click();
  const onProgress = dialog.getByRole('status').filter({ hasText: 'Turn on public IP — operation' });
  await expect(onProgress.getByText(/^(pending|running)$/)).toBeVisible();
  await control.finish({ kind: 'nks_load_balancer' });
  await expect(onProgress.getByText('done', { exact: true })).toBeVisible();
  expect(patches).toHaveLength(2);
  expect(JSON.parse(patches[1].postData())).toEqual({ public_ip_enabled: true });
  await expect(ingressRow.locator('td').nth(5)).toHaveText('yes');
  await expect(ingressRow.locator('td').nth(4)).toHaveText(/^\d+\.\d+\.\d+\.\d+$/);
  // The tracker, not the section, polled the operations.
  const polled = page.requestsMade.filter((r) => r.url.includes(`/v1/operations/${offOp.id}`));
  expect(polled.length, 'the tracker followed the operation').toBeGreaterThanOrEqual(1);
});

test('a failed load balancer read shows an error with Retry, not an empty list', async ({ control, demo, open }) => {
  await control.fault({
    match: { method: 'GET', path_prefix: `/v1/nks/clusters/${demo.cluster}/load_balancers` },
    action: { type: 'status', status: 503, message: 'down' },
  });
  for (const width of [1280, 390]) {
    const page = await open(clusterPath(demo), { width });
    // The other sections still load.
    await expect(page.getByRole('table', { name: 'Persistent volume claims' })).toBeVisible();
    const heading = page.getByRole('heading', { name: 'Load balancers' });
    const alert = page.getByRole('alert').filter({ hasText: 'down' });
    await expect(alert).toBeVisible();
    await expect(page.getByRole('table', { name: 'Load balancers' })).toHaveCount(0);
    await expect(page.getByText('This cluster has no load balancers')).toHaveCount(0);
    // The error sits in the load balancers' section: right after its heading.
    await expect(heading.locator('xpath=following-sibling::*[1]')).toHaveAttribute('role', 'alert');
    await shot(page, `cluster-parts-lb-error-${width}`);
    if (width === 390) {
      await control.clearFaults();
      await alert.getByRole('button', { name: 'Retry' }).click();
      await expect(page.getByRole('table', { name: 'Load balancers' })).toBeVisible();
      await expect(alert).toHaveCount(0);
    }
    await page.close();
  }
});

test('a new cluster says in words that it has no load balancers or claims, and its controllers have no address yet', async ({ api, demo, open }) => {
  // At the API's own pace the cluster is still creating (for 20 minutes) while the page is read.
  const vpcs = await api('GET', `/v1/networking/vpcs?project_id=${demo.project}`);
  const spare = vpcs.items.find((v) => v.name === 'prod-spare-vpc');
  const res = await api.send('POST', '/v1/nks/clusters', {
    name: 'fresh',
    project_id: demo.project,
    region: 'us-sva-2',
    vpc_id: spare.id,
    kubernetes_version: 'v1.34.4',
    autoscaling: false,
  });
  expect(res.status).toBe(202);
  const op = res.body;
  const page = await open(`/projects/${demo.project}/clusters/${op.resource_id}`);
  await expect(page.getByText('This cluster has no load balancers.')).toBeVisible();
  await expect(page.getByText('This cluster has no persistent volume claims.')).toBeVisible();
  const controllers = page.getByRole('table', { name: 'Controllers' });
  await expect.poll(async () => (await rows(controllers)).length).toBe(3);
  for (const [, status, address] of await rows(controllers)) {
    expect(status).toBe('creating');
    expect(address).toBe('not yet assigned');
  }
  await shot(page, 'cluster-parts-new-cluster');
});

test("a cluster's recent operations are its own and its parts': a pool's scaling, a node's delete and a load balancer's change, named, newest first", async ({ api, control, demo, open }) => {
  const page = await open(clusterPath(demo));
  const recent = page.getByRole('list', { name: 'Recent operations' });
  await expect(recent.getByRole('listitem').filter({ hasText: /^Create cluster done/ })).toHaveCount(1);
  // The page has read the nodes (its ready count) before one of them goes.
  await expect(page.getByText(/Nodes\s*\d+ of \d+ ready/)).toBeVisible();
  const poolApi = `/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}`;
  const end = async (op) => {
    await control.finish({ id: op.id });
    await control.advance(1_000);
  };
  // Changed elsewhere (another tool): the pool's count, then one of its nodes deleted.
  const pool = await api('GET', poolApi);
  await end(await api('PATCH', poolApi, { node_count: pool.node_count + 1 }));
  const node = (await api('GET', `${poolApi}/nodes`)).items[0];
  await end(await api('DELETE', `${poolApi}/nodes/${node.id}`));
  // Changed here: a load balancer's public IP, followed to its end.
  await page.getByRole('button', { name: 'Turn off public IP of ingress-nginx/ingress-nginx-controller' }).click();
  const dialog = page.getByRole('dialog', { name: 'Turn off public IP: ingress-nginx/ingress-nginx-controller' });
  await dialog.getByRole('button', { name: 'Turn off public IP' }).click();
  const progress = dialog.getByRole('status').filter({ hasText: 'Turn off public IP — operation' });
  await expect(progress.getByText(/^(pending|running)$/)).toBeVisible();
  await control.finish({ kind: 'nks_load_balancer' });
  await expect(progress.getByText('done', { exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  // Read again once that operation ended: every part's change, named, newest first.
  const items = recent.getByRole('listitem');
  await expect(items.nth(0)).toHaveText(/^Update load balancer ingress-nginx\/ingress-nginx-controller done/);
  await expect(items.nth(1)).toHaveText(new RegExp(`^Delete node ${node.name} done`));
  await expect(items.nth(2)).toHaveText(/^Update pool baseline done/);
  await expect(items.filter({ hasText: /^Create cluster done/ })).toHaveCount(1);
  await shot(recent, 'cluster-recent-operations-parts');
});
