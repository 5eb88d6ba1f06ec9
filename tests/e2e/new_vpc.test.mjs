// Create a cluster where no VPC is free: one cluster per VPC, so the form offers
// "New VPC…", creates the VPC, follows its operation to done, and only then sends
// the cluster into it. A VPC that does not come to be sends nothing else.
import { test, expect, shot, hold, vpcTaken, newVpcClusterForm } from './fixtures.mjs';

// The empty world has one project with one free VPC; a cluster made through the
// API takes it, so the project has no free VPC left.
test.use({ seed: 'empty' });

test.beforeEach(async ({ api, control, projects }) => {
  await vpcTaken(api, control, projects.Production);
  await control.clearRequests();
});

const vpcSelect = (page) => page.getByLabel('VPC', { exact: true });
const chosenVpc = (page) => vpcSelect(page).locator('option:checked');
const plan = (page) => page.getByRole('complementary', { name: 'Plan' });
const fieldOf = (page, label) => page.locator('div.field').filter({ has: page.getByLabel(label, { exact: true }) });
const routes = async (control) => (await control.requests()).by_route;
/** An operation's progress line while the console sees it in flight. */
const inFlight = (page, title) => page.getByRole('status').filter({ hasText: new RegExp(`${title} — operation .* is (pending|running)`) });

async function openForm(open, projects, width = 1280) {
  const page = await open(`/projects/${projects.Production}/clusters/new`, { width });
  await expect(page.getByRole('heading', { name: 'Create cluster' })).toBeVisible();
  await expect(page.getByLabel('Kubernetes version')).toBeVisible();
  return page;
}

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

test('no free VPC: "New VPC…" is chosen and said so, the plan prices both, and Apply makes the VPC, then the cluster in it', async ({ api, control, projects, open }) => {
  const page = await openForm(open, projects);
  await expect(chosenVpc(page)).toHaveText('New VPC…');
  const taken = vpcSelect(page).locator('option', { hasText: 'prod-vpc (' });
  await expect(taken).toBeDisabled();
  await expect(taken).toHaveText(/already hosts cluster taken/);
  await expect(page.getByText(/No free VPC in us-sva-2/)).toBeVisible();
  await expect(page.getByText(/us-sva-2 — the cluster's region/)).toBeVisible();

  await fill(page);
  // The plan: the VPC's availability and cost beside the cluster's, and their exact sum.
  const vpcPart = plan(page).getByRole('region', { name: 'New VPC' });
  await expect(vpcPart.getByText('Availability: can be made.')).toBeVisible();
  await expect(plan(page).getByText(/Availability: VPC web-vpc can be made/)).toBeVisible();
  await expect(plan(page).getByRole('table', { name: 'VPC cost' }).getByRole('row').filter({ hasText: /\$0\.0000/ }).first()).toBeVisible();
  await expect(plan(page).getByRole('table', { name: 'Cluster cost' }).getByRole('row').filter({ hasText: '$73.0000' }).first()).toBeVisible();
  await expect(plan(page).getByText('Monthly total, VPC and cluster: $73.00')).toBeVisible();
  await shot(page, 'new-vpc-form-1280');

  // The VPC takes its minute: its step can be seen, and no cluster goes out meanwhile.
  await page.getByRole('button', { name: 'Create VPC and cluster' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Creating VPC web-vpc… then the cluster web.' })).toBeVisible();
  await expect(inFlight(page, 'Create VPC web-vpc')).toBeVisible();
  // One list of the flow's steps, numbered once: the VPC, then the cluster.
  const steps = page.locator('.new-vpc-flow ol');
  await expect(steps).toHaveCount(1);
  await expect(steps.locator(':scope > li')).toHaveCount(2);
  await expect(steps.locator(':scope > li').nth(1)).toContainText('Cluster web: sent once the VPC is ready.');
  await shot(page, 'new-vpc-progress');
  expect((await routes(control))['POST /v1/nks/clusters'] ?? 0, 'no cluster create while the VPC is being made').toBe(0);
  // Once sent, the cluster's create moves to its operation's page: its answer is
  // held so the form's line while it is on its way can be read.
  const sending = await hold(page, /\/v1\/nks\/clusters$/, { method: 'POST', times: 1 });
  await control.finish({ kind: 'vpc' });
  await expect(page.getByRole('status').filter({ hasText: 'VPC web-vpc is ready. Creating the cluster web…' })).toBeVisible();
  sending.release();
  await page.waitForURL(new RegExp(`/projects/${projects.Production}/operations/[0-9a-f-]{36}\\?open=1$`));
  // The operation's page sees the cluster's create in flight, then its end opens the cluster.
  await expect(inFlight(page, 'Create cluster')).toBeVisible();
  await control.finish({ kind: 'nks_cluster' });
  await expect(page.getByRole('heading', { name: 'web', exact: true })).toBeVisible();

  // Two operations, in order: the VPC's, done, before the cluster's, which went into it.
  const ops = (await api('GET', `/v1/operations?project_id=${projects.Production}&type=create`)).items
    .filter((o) => o.kind === 'vpc' || o.kind === 'nks_cluster')
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
  const vpcOp = ops.find((o) => o.kind === 'vpc');
  const clusterOps = ops.filter((o) => o.kind === 'nks_cluster');
  expect(vpcOp, 'a VPC create operation').toBeTruthy();
  expect(vpcOp.status).toBe('done');
  const clusterOp = clusterOps.at(-1);
  expect(clusterOp.created_at >= vpcOp.updated_at, `the cluster (${clusterOp.created_at}) was sent after the VPC was done (${vpcOp.updated_at})`).toBe(true);
  const web = (await api('GET', `/v1/nks/clusters?project_id=${projects.Production}`)).items.find((c) => c.name === 'web');
  expect(web.vpc_id, 'the cluster is in the new VPC').toBe(vpcOp.resource_id);
  expect(web.tags).toEqual(['shop', 'edge']);
  const vpc = await api('GET', `/v1/networking/vpcs/${vpcOp.resource_id}`);
  expect(vpc.name).toBe('web-vpc');
  expect(vpc.subnet.name).toBe('web-subnet');
  const counts = await routes(control);
  expect(counts['POST /v1/networking/vpcs'], 'one VPC create').toBe(1);
  expect(counts['POST /v1/nks/clusters'], 'one cluster create').toBe(1);
});

test('a VPC whose operation fails sends no cluster create, says so, and the form keeps every field', async ({ control, open, projects }) => {
  const page = await openForm(open, projects);
  await fill(page);
  await expect(plan(page).getByText(/Availability: VPC web-vpc can be made/)).toBeVisible();
  await control.nextOutcome({ outcome: 'failed', kind: 'vpc' });
  await page.getByRole('button', { name: 'Create VPC and cluster' }).click();
  await expect(inFlight(page, 'Create VPC web-vpc')).toBeVisible();
  await control.finish({ kind: 'vpc' });
  const failed = page.getByRole('alert').filter({ hasText: 'The platform ran the operation and it failed.' });
  await expect(failed).toContainText('Create VPC web-vpc');
  await expect(page.getByRole('status').filter({ hasText: 'Nothing else was sent: the cluster was not created.' })).toBeVisible();
  // Everything typed is still there, including the new VPC's fields.
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('web');
  await expect(page.getByLabel('Kubernetes version')).toHaveValue('v1.34.4');
  await expect(chosenVpc(page)).toHaveText('New VPC…');
  await expect(page.getByLabel('VPC name')).toHaveValue('web-vpc');
  await expect(page.getByLabel('Subnet name')).toHaveValue('web-subnet');
  await expect(page.getByRole('radio', { name: 'Off' })).toBeChecked();
  await expect(page.getByLabel('Tags')).toHaveValue('shop, edge');
  // The failed VPC is listed (status error), not offered, and its name is not reused blindly.
  const failedVpc = vpcSelect(page).locator('option', { hasText: 'web-vpc (' });
  await expect(failedVpc).toBeAttached();
  await expect(failedVpc).toBeDisabled();
  await expect(fieldOf(page, 'VPC name').getByRole('alert').filter({ hasText: 'A VPC named web-vpc already exists' })).toBeVisible();
  // Nothing goes out late either: by now the console has read the project's VPCs
  // again after the failure (the last thing it does), and sent no cluster.
  const counts = await routes(control);
  expect(counts['POST /v1/networking/vpcs']).toBe(1);
  expect(counts['POST /v1/nks/clusters'] ?? 0, 'no cluster create after a failed VPC').toBe(0);
  await shot(page, 'new-vpc-failed');
});

test('a bad VPC name or subnet name is told beside its field, nothing typed is lost, and nothing is sent', async ({ control, open, projects }) => {
  const page = await openForm(open, projects);
  await fill(page);
  const long = 'v'.repeat(64);
  await page.getByLabel('VPC name').fill(long);
  await page.getByLabel('Subnet name').fill('');
  await expect(fieldOf(page, 'VPC name').getByRole('alert').filter({ hasText: 'VPC name must be at most 63 characters.' })).toBeVisible();
  await page.getByRole('button', { name: 'Create VPC and cluster' }).click();
  await expect(fieldOf(page, 'Subnet name').getByRole('alert').filter({ hasText: 'Subnet name is required.' })).toBeVisible();
  await expect(page.getByLabel('VPC name')).toHaveValue(long);
  await expect(page.getByLabel('VPC name')).toHaveAttribute('aria-describedby', /new-vpc-name-error/);
  await shot(page, 'new-vpc-invalid');
  expect((await routes(control))['POST /v1/networking/vpcs'] ?? 0).toBe(0);
});

test('a VPC the platform refuses in the plan is shown as refused, and Apply waits', async ({ control, open, projects }) => {
  await control.fault({
    match: { method: 'POST', path_prefix: '/v1/networking/vpcs/availability' },
    action: { type: 'status', status: 422, message: 'quota exceeded: networking.vpcs allows 1 VPCs in us-sva-2 and 0 remain' },
  });
  const page = await openForm(open, projects);
  await fill(page);
  await expect(plan(page).getByRole('alert').filter({ hasText: 'Availability: cannot be done. VPC web-vpc: quota exceeded' })).toBeVisible();
  await expect(plan(page).getByRole('region', { name: 'New VPC' }).getByText(/cannot be made/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create VPC and cluster' })).toBeDisabled();
  await shot(page, 'new-vpc-refused');
});

test('a cluster refused after its VPC was made: the VPC is offered and chosen, and trying again makes no second VPC', async ({ api, control, open, projects }) => {
  const page = await openForm(open, projects);
  await fill(page);
  await expect(plan(page).getByText(/Availability: VPC web-vpc can be made/)).toBeVisible();
  await page.getByRole('button', { name: 'Create VPC and cluster' }).click();
  await expect(inFlight(page, 'Create VPC web-vpc')).toBeVisible();
  // While the VPC is being made the form sends nothing else, so the next cluster
  // POST is the create, sent once the VPC is done.
  await control.fault({
    match: { method: 'POST', path: '/v1/nks/clusters' },
    count: 1,
    action: { type: 'status', status: 422, message: 'name: the platform refused this name' },
  });
  await control.finish({ kind: 'vpc' });
  const note = page.getByRole('status').filter({ hasText: 'VPC web-vpc was created and exists now' });
  await expect(note).toBeVisible();
  await expect(fieldOf(page, 'Name').getByRole('alert').filter({ hasText: 'the platform refused this name' })).toBeVisible();
  await expect(chosenVpc(page)).toHaveText(/^web-vpc \(10\.\d+\.0\.0\/24\)$/);
  await shot(page, 'new-vpc-cluster-refused');
  await page.getByLabel('Name', { exact: true }).fill('web2');
  const create = page.getByRole('button', { name: 'Create cluster' });
  await expect(create).toBeEnabled();
  await create.click();
  await page.waitForURL(new RegExp(`/projects/${projects.Production}/operations/[0-9a-f-]{36}\\?open=1$`));
  await expect(inFlight(page, 'Create cluster')).toBeVisible();
  await control.finish({ kind: 'nks_cluster' });
  await expect(page.getByRole('heading', { name: 'web2', exact: true })).toBeVisible();
  const counts = await routes(control);
  expect(counts['POST /v1/networking/vpcs'], 'no second VPC').toBe(1);
  const vpcs = (await api('GET', `/v1/networking/vpcs?project_id=${projects.Production}`)).items.filter((v) => v.name === 'web-vpc');
  expect(vpcs).toHaveLength(1);
  const web2 = (await api('GET', `/v1/nks/clusters?project_id=${projects.Production}`)).items.find((c) => c.name === 'web2');
  expect(web2.vpc_id).toBe(vpcs[0].id);
});

test('at 390 px the form with "New VPC…" and the plan stay readable', async ({ open, projects }) => {
  const page = await openForm(open, projects, 390);
  await fill(page);
  await expect(plan(page).getByText('Monthly total, VPC and cluster: $73.00')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await shot(page, 'new-vpc-form-390');
  expect(overflow, `no sideways scroll (${overflow} px)`).toBeLessThanOrEqual(0);
});

test('a new VPC, the cluster and its first pool read as one list of three steps, numbered once, from the VPC to the pool', async ({ control, open, projects }) => {
  const page = await openForm(open, projects);
  await page.getByLabel('Name', { exact: true }).fill('web');
  await page.getByLabel('Kubernetes version').selectOption('v1.34.4');
  await page.getByLabel('VPC name').fill('web-vpc');
  await page.getByLabel('Subnet name').fill('web-subnet');
  await page.getByRole('radio', { name: 'Off' }).check();
  await page.getByRole('button', { name: 'Create VPC, cluster and pool' }).click();
  await expect(inFlight(page, 'Create VPC web-vpc')).toBeVisible();
  const lists = page.locator('.new-vpc-flow ol');
  await expect(lists, 'one list').toHaveCount(1);
  const steps = lists.locator(':scope > li');
  await expect(steps).toHaveCount(3);
  await expect(steps.nth(1)).toContainText('Cluster web: sent once the VPC is ready.');
  await expect(steps.nth(2)).toContainText('Pool baseline: sent once the cluster is ready.');
  await shot(page, 'new-vpc-three-steps');
  // The VPC done, the cluster sent: still the same three steps.
  await control.finish({ kind: 'vpc' });
  await expect(inFlight(steps.nth(1), 'Create cluster web')).toBeVisible();
  await expect(lists).toHaveCount(1);
  await expect(steps).toHaveCount(3);
  await expect(steps.nth(0)).toContainText(/Create VPC web-vpc — operation .* is done/);
  await shot(page, 'new-vpc-three-steps-cluster');
});

test("Create cluster's headline total is the whole request: the new VPC, the cluster and the first pool, priced as a pool of a cluster in the region", async ({ api, projects, open }) => {
  const page = await newVpcClusterForm(open, projects.Production);
  const taken = (await api('GET', `/v1/nks/clusters?project_id=${projects.Production}`)).items.find((c) => c.name === 'taken');
  await page.locator('#pool-instance-type').selectOption('n1-standard-4');
  await page.getByLabel('Node count').fill('2');
  // What the API asks for such nodes inside a cluster of the region; the cluster is $73.00.
  const priced = async (count) => (await api('POST', `/v1/nks/clusters/${taken.id}/pools/cost`, {
    name: 'baseline', node_count: count, node_config: { instance_type: 'n1-standard-4', boot_volume: { size: 128, type: 'abs' } },
  })).monthly_total;
  const dollars = (n) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  const headline = async (count) => `Monthly total, VPC, cluster and first pool: ${dollars((7300 + Math.round(Number(await priced(count)) * 100)) / 100)}`;
  await expect(plan(page).getByText(await headline(2))).toBeVisible();
  const poolPart = plan(page).getByRole('region', { name: 'First pool' });
  await expect(poolPart.getByText('Priced by the API as a pool of cluster taken, in the same region', { exact: false })).toBeVisible();
  await expect(poolPart.getByText(`Monthly total: ${dollars(Number(await priced(2)))}`)).toBeVisible();
  await shot(page, 'plan-whole-total-1280');
  // The pool changes, and so does the whole.
  await page.getByLabel('Node count').fill('1');
  await expect(plan(page).getByText(await headline(1))).toBeVisible();
});
