// Create a cluster where no VPC is free: one cluster per VPC, so the form offers
// "New VPC…", creates the VPC, follows its operation to done, and only then sends
// the cluster into it. A VPC that does not come to be sends nothing else.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, shot, DEMO_KEY } from './harness.mjs';

let sim;
let browser;
let project;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(method, route, body) {
  const res = await fetch(sim.url + route, {
    method,
    headers: { authorization: `Bearer ${DEMO_KEY}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  assert.ok(res.ok, `${method} ${route} answered ${res.status}: ${await res.clone().text()}`);
  return res.status === 204 ? null : res.json();
}

before(async () => {
  sim = await startSim({ seed: 'empty', timeScale: '0.01' });
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
  await sim?.stop();
});

// The empty world has one project with one free VPC; a cluster made through the
// API takes it, so the project has no free VPC left.
beforeEach(async () => {
  await sim.control('POST', '/_sim/reset', { seed: 'empty' });
  await sim.control('POST', '/_sim/time-scale', { time_scale: 0.01 });
  const projects = await call('GET', '/v1/projects');
  project = projects.items.find((p) => p.name === 'Production').id;
  const vpcs = await call('GET', `/v1/networking/vpcs?project_id=${project}`);
  assert.equal(vpcs.items.length, 1);
  await call('POST', '/v1/nks/clusters', {
    name: 'taken',
    project_id: project,
    region: 'us-sva-2',
    vpc_id: vpcs.items[0].id,
    kubernetes_version: 'v1.34.4',
    autoscaling: false,
  });
  await sim.control('DELETE', '/_sim/requests');
});

async function open(width = 1280) {
  const { context, page } = await openPage(browser, { width });
  await page.goto(`${sim.url}/projects/${project}/clusters/new`);
  await connect(page);
  await page.getByRole('heading', { name: 'Create cluster' }).waitFor();
  await page.getByLabel('Kubernetes version').waitFor();
  return { context, page };
}

const vpcSelect = (page) => page.getByLabel('VPC', { exact: true });
const plan = (page) => page.getByRole('complementary', { name: 'Plan' });
const fieldOf = (page, label) => page.locator('div.field').filter({ has: page.getByLabel(label, { exact: true }) });

async function fill(page) {
  // These tests are about the VPC and the cluster: the first pool (on by default)
  // is removed; tests/e2e/first_pool.test.mjs covers it.
  await page.getByRole('button', { name: 'Remove first pool' }).click();
  await page.getByLabel('Name', { exact: true }).fill('web');
  await page.getByLabel('Kubernetes version').selectOption('v1.34.4');
  await page.getByLabel('VPC name').fill('web-vpc');
  await page.getByLabel('Subnet name').fill('web-subnet');
  await page.getByRole('radio', { name: 'Off' }).check();
  await page.getByLabel('Tags').fill('shop, edge');
}

async function requests() {
  const { by_route } = await sim.control('GET', '/_sim/requests');
  return by_route;
}

test('no free VPC: "New VPC…" is chosen and said so, the plan prices both, and Apply makes the VPC, then the cluster in it', async () => {
  const { context, page } = await open();
  const selected = await vpcSelect(page).evaluate((s) => s.selectedOptions[0].textContent);
  assert.equal(selected, 'New VPC…');
  const taken = vpcSelect(page).locator('option', { hasText: 'prod-vpc (' });
  assert.equal(await taken.isDisabled(), true);
  assert.match(await taken.textContent(), /already hosts cluster taken/);
  await assert.doesNotReject(page.getByText(/No free VPC in us-sva-2/).waitFor());
  await assert.doesNotReject(page.getByText(/us-sva-2 — the cluster's region/).waitFor());

  await fill(page);
  // The plan: the VPC's availability and cost beside the cluster's, and their exact sum.
  const vpcPart = plan(page).getByRole('region', { name: 'New VPC' });
  await assert.doesNotReject(vpcPart.getByText('Availability: can be made.').waitFor());
  await assert.doesNotReject(plan(page).getByText(/Availability: VPC web-vpc can be made/).waitFor());
  const vpcRows = await plan(page).getByRole('table', { name: 'VPC cost' }).getByRole('row').allTextContents();
  assert.ok(vpcRows.some((r) => /\$0\.0000/.test(r)), vpcRows.join(' | '));
  const clusterRows = await plan(page).getByRole('table', { name: 'Cluster cost' }).getByRole('row').allTextContents();
  assert.ok(clusterRows.some((r) => r.includes('$73.0000')), clusterRows.join(' | '));
  await assert.doesNotReject(plan(page).getByText('Monthly total, VPC and cluster: $73.00').waitFor());
  await shot(page, 'new-vpc-form-1280');

  // A slower VPC, so its step can be seen; the cluster after it at the usual pace.
  await sim.control('POST', '/_sim/time-scale', { time_scale: 0.1 });
  await page.getByRole('button', { name: 'Create VPC and cluster' }).click();
  await assert.doesNotReject(page.getByRole('status').filter({ hasText: 'Creating VPC web-vpc… then the cluster web.' }).waitFor({ timeout: 10_000 }));
  await assert.doesNotReject(page.getByRole('status').filter({ hasText: 'Create VPC web-vpc — operation' }).waitFor());
  await sim.control('POST', '/_sim/time-scale', { time_scale: 0.01 });
  await shot(page, 'new-vpc-progress');
  assert.equal((await requests())['POST /v1/nks/clusters'] ?? 0, 0, 'no cluster create while the VPC is being made');
  // Once sent, the cluster's create moves to its operation's page: its answer is
  // slowed so the form's line while it is on its way can be read.
  await sim.control('POST', '/_sim/faults', { match: { method: 'POST', path_prefix: '/v1/nks/clusters' }, action: { type: 'latency', ms: 1500 } });
  try {
    await assert.doesNotReject(page.getByRole('status').filter({ hasText: 'VPC web-vpc is ready. Creating the cluster web…' }).waitFor({ timeout: 20_000 }));
  } finally {
    await sim.control('DELETE', '/_sim/faults');
  }
  await page.waitForURL(new RegExp(`/projects/${project}/operations/[0-9a-f-]{36}$`), { timeout: 15_000 });
  await assert.doesNotReject(page.getByRole('status').filter({ hasText: 'Create cluster — operation' }).waitFor());
  await assert.doesNotReject(page.getByRole('heading', { name: 'web', exact: true }).waitFor({ timeout: 40_000 }));

  // Two operations, in order: the VPC's, done, before the cluster's, which went into it.
  const ops = (await call('GET', `/v1/operations?project_id=${project}&type=create`)).items
    .filter((o) => o.kind === 'vpc' || o.kind === 'nks_cluster')
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
  const vpcOp = ops.find((o) => o.kind === 'vpc');
  const clusterOps = ops.filter((o) => o.kind === 'nks_cluster');
  assert.ok(vpcOp, 'a VPC create operation');
  assert.equal(vpcOp.status, 'done');
  const clusterOp = clusterOps.at(-1);
  assert.ok(clusterOp.created_at >= vpcOp.updated_at, `the cluster (${clusterOp.created_at}) was sent after the VPC was done (${vpcOp.updated_at})`);
  const web = (await call('GET', `/v1/nks/clusters?project_id=${project}`)).items.find((c) => c.name === 'web');
  assert.equal(web.vpc_id, vpcOp.resource_id, 'the cluster is in the new VPC');
  assert.deepEqual(web.tags, ['shop', 'edge']);
  const vpc = await call('GET', `/v1/networking/vpcs/${vpcOp.resource_id}`);
  assert.equal(vpc.name, 'web-vpc');
  assert.equal(vpc.subnet.name, 'web-subnet');
  const counts = await requests();
  assert.equal(counts['POST /v1/networking/vpcs'], 1, 'one VPC create');
  assert.equal(counts['POST /v1/nks/clusters'], 1, 'one cluster create');
  await context.close();
});

test('a VPC whose operation fails sends no cluster create, says so, and the form keeps every field', async () => {
  const { context, page } = await open();
  await fill(page);
  await plan(page).getByText(/Availability: VPC web-vpc can be made/).waitFor();
  await sim.control('POST', '/_sim/operations/next', { outcome: 'failed', kind: 'vpc' });
  await page.getByRole('button', { name: 'Create VPC and cluster' }).click();
  const failed = page.getByRole('alert').filter({ hasText: 'The platform ran the operation and it failed.' });
  await assert.doesNotReject(failed.waitFor({ timeout: 15_000 }));
  assert.match(await failed.textContent(), /Create VPC web-vpc/);
  await assert.doesNotReject(page.getByRole('status').filter({ hasText: 'Nothing else was sent: the cluster was not created.' }).waitFor());
  await sleep(1500); // nothing goes out late either
  const counts = await requests();
  assert.equal(counts['POST /v1/networking/vpcs'], 1);
  assert.equal(counts['POST /v1/nks/clusters'] ?? 0, 0, 'no cluster create after a failed VPC');
  // Everything typed is still there, including the new VPC's fields.
  assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), 'web');
  assert.equal(await page.getByLabel('Kubernetes version').inputValue(), 'v1.34.4');
  assert.equal(await vpcSelect(page).evaluate((s) => s.selectedOptions[0].textContent), 'New VPC…');
  assert.equal(await page.getByLabel('VPC name').inputValue(), 'web-vpc');
  assert.equal(await page.getByLabel('Subnet name').inputValue(), 'web-subnet');
  assert.equal(await page.getByRole('radio', { name: 'Off' }).isChecked(), true);
  assert.equal(await page.getByLabel('Tags').inputValue(), 'shop, edge');
  // The failed VPC is listed (status error), not offered, and its name is not reused blindly.
  const failedVpc = vpcSelect(page).locator('option', { hasText: 'web-vpc (' });
  await failedVpc.waitFor({ state: 'attached' });
  assert.equal(await failedVpc.isDisabled(), true);
  await assert.doesNotReject(fieldOf(page, 'VPC name').getByRole('alert').filter({ hasText: 'A VPC named web-vpc already exists' }).waitFor());
  await shot(page, 'new-vpc-failed');
  await context.close();
});

test('a bad VPC name or subnet name is told beside its field, nothing typed is lost, and nothing is sent', async () => {
  const { context, page } = await open();
  await fill(page);
  const long = 'v'.repeat(64);
  await page.getByLabel('VPC name').fill(long);
  await page.getByLabel('Subnet name').fill('');
  await assert.doesNotReject(fieldOf(page, 'VPC name').getByRole('alert').filter({ hasText: 'VPC name must be at most 63 characters.' }).waitFor());
  await page.getByRole('button', { name: 'Create VPC and cluster' }).click();
  await assert.doesNotReject(fieldOf(page, 'Subnet name').getByRole('alert').filter({ hasText: 'Subnet name is required.' }).waitFor());
  assert.equal(await page.getByLabel('VPC name').inputValue(), long);
  const describedBy = await page.getByLabel('VPC name').getAttribute('aria-describedby');
  assert.match(describedBy, /new-vpc-name-error/);
  await shot(page, 'new-vpc-invalid');
  assert.equal((await requests())['POST /v1/networking/vpcs'] ?? 0, 0);
  await context.close();
});

test('a VPC the platform refuses in the plan is shown as refused, and Apply waits', async () => {
  await sim.control('POST', '/_sim/faults', {
    match: { method: 'POST', path_prefix: '/v1/networking/vpcs/availability' },
    action: { type: 'status', status: 422, message: 'quota exceeded: networking.vpcs allows 1 VPCs in us-sva-2 and 0 remain' },
  });
  const { context, page } = await open();
  await fill(page);
  await assert.doesNotReject(plan(page).getByRole('alert').filter({ hasText: 'Availability: cannot be done. VPC web-vpc: quota exceeded' }).waitFor());
  await assert.doesNotReject(plan(page).getByRole('region', { name: 'New VPC' }).getByText(/cannot be made/).waitFor());
  assert.equal(await page.getByRole('button', { name: 'Create VPC and cluster' }).isDisabled(), true);
  await shot(page, 'new-vpc-refused');
  await sim.control('DELETE', '/_sim/faults');
  await context.close();
});

test('a cluster refused after its VPC was made: the VPC is offered and chosen, and trying again makes no second VPC', async () => {
  const { context, page } = await open();
  await fill(page);
  await plan(page).getByText(/Availability: VPC web-vpc can be made/).waitFor();
  await sleep(600); // the plan's last check is in; the next cluster POST is the create
  await sim.control('POST', '/_sim/faults', {
    match: { method: 'POST', path_prefix: '/v1/nks/clusters' },
    count: 1,
    action: { type: 'status', status: 422, message: 'name: the platform refused this name' },
  });
  await page.getByRole('button', { name: 'Create VPC and cluster' }).click();
  const note = page.getByRole('status').filter({ hasText: 'VPC web-vpc was created and exists now' });
  await assert.doesNotReject(note.waitFor({ timeout: 20_000 }));
  await assert.doesNotReject(fieldOf(page, 'Name').getByRole('alert').filter({ hasText: 'the platform refused this name' }).waitFor());
  const chosen = () => vpcSelect(page).evaluate((s) => s.selectedOptions[0].textContent);
  await page.waitForFunction(() => document.querySelector('#cluster-vpc')?.selectedOptions[0]?.textContent.startsWith('web-vpc ('));
  assert.match(await chosen(), /^web-vpc \(10\.\d+\.0\.0\/24\)$/);
  await shot(page, 'new-vpc-cluster-refused');
  await page.getByLabel('Name', { exact: true }).fill('web2');
  const create = page.getByRole('button', { name: 'Create cluster' });
  await page.waitForFunction(() => !document.querySelector('button[type=submit]')?.disabled, null, { timeout: 10_000 });
  await create.click();
  await assert.doesNotReject(page.getByRole('heading', { name: 'web2', exact: true }).waitFor({ timeout: 40_000 }));
  const counts = await requests();
  assert.equal(counts['POST /v1/networking/vpcs'], 1, 'no second VPC');
  const vpcs = (await call('GET', `/v1/networking/vpcs?project_id=${project}`)).items.filter((v) => v.name === 'web-vpc');
  assert.equal(vpcs.length, 1);
  const web2 = (await call('GET', `/v1/nks/clusters?project_id=${project}`)).items.find((c) => c.name === 'web2');
  assert.equal(web2.vpc_id, vpcs[0].id);
  await context.close();
});

test('at 390 px the form with "New VPC…" and the plan stay readable', async () => {
  const { context, page } = await open(390);
  await fill(page);
  await plan(page).getByText('Monthly total, VPC and cluster: $73.00').waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await shot(page, 'new-vpc-form-390');
  assert.ok(overflow <= 0, `no sideways scroll (${overflow} px)`);
  await context.close();
});
