// A cluster's parts end to end: the cluster page shows its controllers (with
// their volumes), load balancers and persistent volume claims, the pool page its
// volumes; a load balancer's public IP is turned off and on through a confirm
// that says what changes, each change followed by the tracker to done; a failed
// read shows an error with Retry, never an empty list. Fresh demo world per test.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, shot, demoIds } from './harness.mjs';

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
  ids = await demoIds(sim);
});

const clusterPath = () => `/projects/${ids.project}/clusters/${ids.cluster}`;
const poolPath = (pool) => `${clusterPath()}/pools/${pool}`;

/** Opens `path` connected with the demo key, at `width` px. */
async function open(path, width = 1280) {
  const { context, page } = await openPage(browser, { width });
  await page.goto(sim.url + path);
  await connect(page);
  return { context, page };
}

/** The texts of a table's body rows, cell by cell. */
async function rows(table) {
  return table.locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())),
  );
}

test('the cluster page shows the seeded controllers, load balancers and persistent volume claims', async () => {
  for (const width of [1280, 390]) {
    const { context, page } = await open(clusterPath(), width);
    const controllers = page.getByRole('table', { name: 'Controllers' });
    const balancers = page.getByRole('table', { name: 'Load balancers' });
    const claims = page.getByRole('table', { name: 'Persistent volume claims' });
    await assert.doesNotReject(controllers.waitFor());
    await assert.doesNotReject(balancers.waitFor());
    await assert.doesNotReject(claims.waitFor());

    const c = await rows(controllers);
    assert.deepEqual(
      c.map((r) => r[0]),
      ['edge-prod-controller-1', 'edge-prod-controller-2', 'edge-prod-controller-3'],
    );
    assert.equal(c[0][1], 'ready');
    assert.equal(c[0][2], '10.20.0.244');
    assert.match(c[0][4], /edge-prod-controller-1-boot\s+boot · 128 GB abs/);

    const lbs = await rows(balancers);
    const ingress = lbs.find((r) => r[0] === 'ingress-nginx-controller');
    const payments = lbs.find((r) => r[0] === 'payments-api');
    assert.equal(ingress[1], 'ingress-nginx');
    assert.match(ingress[4], /^\d+\.\d+\.\d+\.\d+$/, 'the public one shows its public address');
    assert.equal(ingress[5], 'yes');
    assert.equal(payments[1], 'payments');
    assert.equal(payments[4], 'none', 'a private one has no public address');
    assert.equal(payments[5], 'no');

    const pvcs = await rows(claims);
    assert.deepEqual(
      pvcs.map((r) => r.slice(0, 3)),
      [
        ['data-postgres-0', '50 GB', 'abs'],
        ['data-redis-0', '10 GB', 'nvme'],
        ['prometheus-server', '100 GB', 'abs'],
      ],
    );
    await shot(page, `cluster-parts-${width}`);
    // Wide tables scroll inside themselves: the page never scrolls sideways.
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
    if (width === 390) {
      await page.getByRole('button', { name: 'Turn on public IP of payments/payments-api' }).click();
      const dialog = page.getByRole('dialog', { name: 'Turn on public IP: payments/payments-api' });
      await dialog.waitFor();
      await dialog.scrollIntoViewIfNeeded();
      await shot(page, 'lb-confirm-on-390');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    }
    await context.close();
  }
});

test("the pool page shows its nodes' volumes, and a pool with no nodes says so in words", async () => {
  for (const width of [1280, 390]) {
    const { context, page } = await open(poolPath(ids.baseline), width);
    const volumes = page.getByRole('table', { name: 'Volumes' });
    await assert.doesNotReject(volumes.waitFor());
    const nodes = await rows(page.getByRole('table', { name: 'Nodes' }));
    const vols = await rows(volumes);
    assert.equal(vols.length, 3);
    // Each volume sits beside its node, by the node's name, in the nodes' order.
    assert.deepEqual(
      vols.map((r) => r[0]),
      nodes.map((r) => r[0]),
    );
    for (const [node, name, kind, size, type, status] of vols) {
      assert.equal(name, `${node}-boot`);
      assert.deepEqual([kind, size, type, status], ['boot', '128 GB', 'abs', 'ready']);
    }
    await shot(page, `pool-volumes-${width}`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
    await context.close();
  }
  const { context, page } = await open(poolPath(ids.zero));
  await assert.doesNotReject(page.getByText('No volumes in this pool', { exact: false }).waitFor());
  await context.close();
});

test("a load balancer's public IP is turned off and on through a confirm, each followed to done", async () => {
  const { context, page } = await open(clusterPath());
  const patches = [];
  page.on('request', (r) => r.method() === 'PATCH' && r.url().includes('/load_balancers/') && patches.push(r));
  const balancers = page.getByRole('table', { name: 'Load balancers' });
  await balancers.waitFor();
  const ingressRow = () => balancers.locator('tbody tr').filter({ hasText: 'ingress-nginx-controller' });
  const publicIp = (await ingressRow().locator('td').nth(4).textContent()).trim();

  // Off: the confirm names the address that stops answering; Cancel sends nothing.
  await page.getByRole('button', { name: 'Turn off public IP of ingress-nginx/ingress-nginx-controller' }).click();
  let dialog = page.getByRole('dialog', { name: 'Turn off public IP: ingress-nginx/ingress-nginx-controller' });
  await dialog.waitFor();
  const offText = await dialog.textContent();
  assert.match(offText, new RegExp(`loses its public address ${publicIp.replaceAll('.', '\\.')}`));
  assert.match(offText, /clients on the internet stop reaching it/);
  await shot(page, 'lb-confirm-off');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
  assert.equal(patches.length, 0, 'a cancelled confirm sends nothing');

  await page.getByRole('button', { name: 'Turn off public IP of ingress-nginx/ingress-nginx-controller' }).click();
  await dialog.getByRole('button', { name: 'Turn off public IP' }).click();
  const offProgress = dialog.getByRole('status').filter({ hasText: 'Turn off public IP — operation' });
  await assert.doesNotReject(offProgress.waitFor());
  assert.equal(patches.length, 1);
  assert.deepEqual(JSON.parse(patches[0].postData()), { public_ip_enabled: false });
  const offOp = await (await patches[0].response()).json();
  assert.equal(offOp.kind, 'nks_load_balancer');
  await assert.doesNotReject(offProgress.getByText('done', { exact: true }).waitFor({ timeout: 30_000 }));
  // The list is read again when the operation ends: no public address any more.
  await assert.doesNotReject(
    ingressRow().locator('td').nth(5).filter({ hasText: /^no$/ }).waitFor({ timeout: 15_000 }),
  );
  assert.equal((await ingressRow().locator('td').nth(4).textContent()).trim(), 'none');
  await shot(page, 'lb-turned-off');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // On: the confirm says what becomes reachable from the internet.
  await page.getByRole('button', { name: 'Turn on public IP of ingress-nginx/ingress-nginx-controller' }).click();
  dialog = page.getByRole('dialog', { name: 'Turn on public IP: ingress-nginx/ingress-nginx-controller' });
  await dialog.waitFor();
  const onText = await dialog.textContent();
  assert.match(onText, /becomes reachable from the internet/);
  assert.match(onText, /every port it exposes/);
  await shot(page, 'lb-confirm-on');
  await dialog.getByRole('button', { name: 'Turn on public IP' }).click();
  const onProgress = dialog.getByRole('status').filter({ hasText: 'Turn on public IP — operation' });
  await assert.doesNotReject(onProgress.getByText('done', { exact: true }).waitFor({ timeout: 30_000 }));
  assert.equal(patches.length, 2);
  assert.deepEqual(JSON.parse(patches[1].postData()), { public_ip_enabled: true });
  await assert.doesNotReject(
    ingressRow().locator('td').nth(5).filter({ hasText: /^yes$/ }).waitFor({ timeout: 15_000 }),
  );
  assert.match((await ingressRow().locator('td').nth(4).textContent()).trim(), /^\d+\.\d+\.\d+\.\d+$/);
  // The tracker, not the section, polled the operations.
  const polled = page.requestsMade.filter((r) => r.url.includes(`/v1/operations/${offOp.id}`));
  assert.ok(polled.length >= 1, 'the tracker followed the operation');
  await context.close();
});

test('a failed load balancer read shows an error with Retry, not an empty list', async () => {
  await sim.control('POST', '/_sim/faults', {
    match: { method: 'GET', path_prefix: `/v1/nks/clusters/${ids.cluster}/load_balancers` },
    action: { type: 'status', status: 503, message: 'down' },
  });
  for (const width of [1280, 390]) {
    const { context, page } = await open(clusterPath(), width);
    // The other sections still load.
    await assert.doesNotReject(page.getByRole('table', { name: 'Persistent volume claims' }).waitFor());
    const heading = page.getByRole('heading', { name: 'Load balancers' });
    const alert = page.getByRole('alert').filter({ hasText: 'down' });
    await assert.doesNotReject(alert.waitFor({ timeout: 20_000 }));
    assert.equal(await page.getByRole('table', { name: 'Load balancers' }).count(), 0);
    assert.equal(await page.getByText('This cluster has no load balancers').count(), 0);
    // The error sits in the load balancers' section: right after its heading.
    const next = await heading.evaluate((h) => h.nextElementSibling?.getAttribute('role'));
    assert.equal(next, 'alert');
    await shot(page, `cluster-parts-lb-error-${width}`);
    if (width === 390) {
      await sim.control('DELETE', '/_sim/faults');
      await alert.getByRole('button', { name: 'Retry' }).click();
      await assert.doesNotReject(page.getByRole('table', { name: 'Load balancers' }).waitFor({ timeout: 20_000 }));
      assert.equal(await alert.count(), 0);
    }
    await context.close();
  }
});

test('a new cluster says in words that it has no load balancers or claims, and its controllers have no address yet', async () => {
  // Slow the clock, so the cluster is still creating while the page is read.
  await sim.control('POST', '/_sim/reset', { seed: 'demo', time_scale: 1 });
  const vpcs = await sim.api(`/v1/networking/vpcs?project_id=${ids.project}`);
  const spare = vpcs.items.find((v) => v.name === 'prod-spare-vpc');
  const res = await fetch(`${sim.url}/v1/nks/clusters`, {
    method: 'POST',
    headers: { authorization: 'Bearer nks-demo-key', 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'fresh',
      project_id: ids.project,
      region: 'us-sva-2',
      vpc_id: spare.id,
      kubernetes_version: 'v1.34.4',
      autoscaling: false,
    }),
  });
  assert.equal(res.status, 202);
  const op = await res.json();
  const { context, page } = await open(`/projects/${ids.project}/clusters/${op.resource_id}`);
  await assert.doesNotReject(page.getByText('This cluster has no load balancers.').waitFor());
  await assert.doesNotReject(page.getByText('This cluster has no persistent volume claims.').waitFor());
  const controllers = await rows(page.getByRole('table', { name: 'Controllers' }));
  assert.equal(controllers.length, 3);
  for (const [, status, address] of controllers) {
    assert.equal(status, 'creating');
    assert.equal(address, 'not yet assigned');
  }
  await shot(page, 'cluster-parts-new-cluster');
  await context.close();
});
