// Create a cluster with its first pool: without a pool a new cluster never
// finishes provisioning, so the form holds one (on by default, removable), with
// Create pool's fields. Apply creates the cluster, follows its operation to done,
// then creates the pool in it. A cluster that is not made sends no pool; a pool
// that is not made says so and leads to Create pool, pre-filled.
import { test, expect, shot, hold } from './fixtures.mjs';

// The empty world: one project, one free VPC, no cluster.
test.use({ seed: 'empty' });

const plan = (page) => page.getByRole('complementary', { name: 'Plan' });
const firstPool = (page) => page.getByRole('group', { name: 'First pool' });
const fieldOf = (page, label) => page.locator('div.field').filter({ has: page.getByLabel(label, { exact: true }) });
const CREATE_CLUSTER = 'POST /v1/nks/clusters';
const CREATE_POOL = 'POST /v1/nks/clusters/{cluster_id}/pools';
/** The pool's operation page, watching it in flight (so its end opens the pool). */
const poolOpInFlight = (page) => page.getByRole('status').filter({ hasText: /Create pool .* is (pending|running)/ });
const routes = async (control) => (await control.requests()).by_route;

async function openForm(open, projects, width = 1280) {
  const page = await open(`/projects/${projects.Production}/clusters/new`, { width });
  await expect(page.getByRole('heading', { name: 'Create cluster' })).toBeVisible();
  await expect(page.getByLabel('Kubernetes version')).toBeVisible();
  return page;
}

// The cluster's own fields; the first pool keeps its defaults unless a test changes them.
async function fill(page) {
  await page.getByLabel('Name', { exact: true }).fill('web');
  await page.getByLabel('Kubernetes version').selectOption('v1.34.4');
  await page.getByLabel('VPC', { exact: true }).selectOption({ index: 1 });
  await page.getByRole('radio', { name: 'Off' }).check();
  await page.getByLabel('Tags', { exact: true }).fill('shop');
}

const webPools = async (api, projects) => {
  const web = (await api('GET', `/v1/nks/clusters?project_id=${projects.Production}`)).items.find((c) => c.name === 'web');
  return web ? (await api('GET', `/v1/nks/clusters/${web.id}/pools`)).items : [];
};

test('the first pool is on by default with sensible values; the plan shows cluster and pool; Apply makes the cluster, then the pool in it', async ({ api, control, projects, open }) => {
  const page = await openForm(open, projects);
  // Said why, and filled in: a name, the smallest instance type, one node.
  await expect(firstPool(page).getByText(/never finishes provisioning without a worker node/)).toBeVisible();
  await expect(page.getByLabel('Pool name')).toHaveValue('baseline');
  await expect(page.locator('#pool-instance-type')).toHaveValue('n1-highcpu-2');
  await expect(page.getByLabel('Node count')).toHaveValue('1');
  await expect(page.getByLabel('Boot volume size (GB)')).toHaveValue('128');
  await fill(page);
  await page.getByLabel('Labels').fill('role=baseline');

  // The plan: the cluster's availability and cost, and the pool with its quota need.
  await expect(plan(page).getByText('Availability: can be done.')).toBeVisible();
  await expect(plan(page).getByRole('table', { name: 'Cost' }).getByRole('row').filter({ hasText: '$73.0000' }).first()).toBeVisible();
  const poolPart = plan(page).getByRole('region', { name: 'First pool' });
  await expect(poolPart.getByText('1 node of n1-highcpu-2, 128 GB abs boot volume each')).toBeVisible();
  await expect(poolPart.getByText(/prices a pool only inside an existing cluster/)).toBeVisible();
  // No cluster to price it in yet: the headline says what it leaves out.
  await expect(plan(page).getByText('Monthly total, cluster, without the first pool (not priced, below): $73.00')).toBeVisible();
  await expect(plan(page).getByRole('list', { name: 'Quota' })).toContainText('vCPU');
  await expect(plan(page).getByText(/The first pool is sent once the cluster's operation is done/)).toBeVisible();
  await shot(page, 'first-pool-form-1280');

  // The cluster takes its 20 minutes: the wait for it can be seen, and nothing else goes out.
  await control.clearRequests();
  await page.getByRole('button', { name: 'Create cluster and pool' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Creating cluster web; pool baseline follows once it is ready.' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Create cluster web — operation' })).toBeVisible();
  await expect(page.getByText('Pool baseline: sent once the cluster is ready.')).toBeVisible();
  await shot(page, 'first-pool-progress-1280');
  expect((await routes(control))[CREATE_POOL] ?? 0, 'no pool create while the cluster is being made').toBe(0);

  // Once the cluster is done the pool is sent, and its operation's page opens the pool.
  await control.finish({ kind: 'nks_cluster' });
  await page.waitForURL(new RegExp(`/projects/${projects.Production}/operations/[0-9a-f-]{36}\\?cluster=`));
  await expect(poolOpInFlight(page)).toBeVisible();
  await control.finish({ kind: 'nks_node_pool' });
  await expect(page.getByRole('heading', { name: 'baseline', exact: true })).toBeVisible();

  const pools = await webPools(api, projects);
  expect(pools.map((p) => [p.name, p.node_count, p.node_config.instance_type, p.node_config.labels])).toEqual([
    ['baseline', 1, 'n1-highcpu-2', ['role=baseline']],
  ]);
  const ops = (await api('GET', `/v1/operations?project_id=${projects.Production}&type=create`)).items;
  const clusterOp = ops.find((o) => o.kind === 'nks_cluster');
  const poolOp = ops.find((o) => o.kind === 'nks_node_pool');
  expect(clusterOp.status).toBe('done');
  expect(poolOp.created_at >= clusterOp.updated_at, `the pool (${poolOp.created_at}) was sent after the cluster was done (${clusterOp.updated_at})`).toBe(true);
  const counts = await routes(control);
  expect(counts[CREATE_CLUSTER], 'one cluster create').toBe(1);
  expect(counts[CREATE_POOL], 'one pool create').toBe(1);

  // Both steps are in the operations feed.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operations' }).click();
  const rows = page.getByRole('table', { name: 'Operations' }).getByRole('row');
  await expect(rows.filter({ hasText: /cluster/i }).filter({ hasText: 'web' }).first()).toBeVisible();
  await expect(rows.filter({ hasText: /pool/i }).filter({ hasText: 'baseline' }).first()).toBeVisible();
  await shot(page, 'first-pool-feed');
});

test('a cluster whose operation fails sends no pool, says so, and the form keeps everything typed', async ({ control, projects, open }) => {
  const page = await openForm(open, projects);
  await fill(page);
  await page.getByLabel('Pool name').fill('workers');
  await page.getByLabel('Node count').fill('3');
  await expect(plan(page).getByText('Availability: can be done.')).toBeVisible();
  await control.nextOutcome({ outcome: 'failed', kind: 'nks_cluster' });
  await control.clearRequests();
  await page.getByRole('button', { name: 'Create cluster and pool' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Create cluster web — operation' })).toBeVisible();
  await control.finish({ kind: 'nks_cluster' });
  const failed = page.getByRole('alert').filter({ hasText: 'The platform ran the operation and it failed.' });
  await expect(failed).toContainText('Create cluster web');
  await expect(page.getByRole('status').filter({ hasText: 'Pool workers was not sent: cluster web was not made.' })).toBeVisible();
  const counts = await routes(control);
  expect(counts[CREATE_CLUSTER]).toBe(1);
  expect(counts[CREATE_POOL] ?? 0, 'no pool create after a failed cluster').toBe(0);
  // Everything typed is still there.
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('web');
  await expect(page.getByLabel('Tags', { exact: true })).toHaveValue('shop');
  await expect(page.getByLabel('Pool name')).toHaveValue('workers');
  await expect(page.getByLabel('Node count')).toHaveValue('3');
  await expect(page.getByLabel('Instance type')).toHaveValue('n1-highcpu-2');
  await shot(page, 'first-pool-cluster-failed');
});

test('a pool the API refuses after the cluster is made: said clearly, and Create pool for the new cluster holds it for a retry', async ({ api, control, projects, open }) => {
  const page = await openForm(open, projects);
  await fill(page);
  await page.getByLabel('Pool name').fill('workers');
  await page.getByLabel('Node count').fill('2');
  await page.getByLabel('Labels').fill('tier=web');
  await expect(plan(page).getByText('Availability: can be done.')).toBeVisible();
  await page.getByRole('button', { name: 'Create cluster and pool' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Create cluster web — operation' })).toBeVisible();
  // Only the pool's create (the cluster's is POST /v1/nks/clusters, with no slash after).
  await control.fault({
    match: { method: 'POST', path_prefix: '/v1/nks/clusters/' },
    count: 1,
    action: { type: 'status', status: 422, message: 'quota exceeded: nks.vcpu allows 8 in us-sva-2 and 2 remain' },
  });
  await control.finish({ kind: 'nks_cluster' });
  await expect(page.getByRole('status').filter({ hasText: 'Cluster web is made, but pool workers was not.' })).toBeVisible();
  await expect(page.getByText(/quota exceeded: nks\.vcpu allows 8/).first()).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Cluster web is made; pool workers is not.' })).toBeVisible();
  await shot(page, 'first-pool-pool-refused');
  await control.clearFaults();
  expect((await routes(control))[CREATE_POOL], 'the refused pool is not sent again by itself').toBe(1);

  // The way on: Create pool for web, holding what was typed for the pool.
  await page.getByRole('link', { name: 'Create pool workers in web' }).click();
  await expect(page.getByRole('heading', { name: 'Create pool for web' })).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('workers');
  await expect(page.getByLabel('Node count')).toHaveValue('2');
  await expect(page.getByLabel('Labels')).toHaveValue('tier=web');
  await expect(page.locator('#pool-instance-type')).toHaveValue('n1-highcpu-2');
  await page.getByRole('button', { name: 'Create pool' }).click();
  await expect(poolOpInFlight(page)).toBeVisible();
  expect((await webPools(api, projects)).map((p) => p.name)).toEqual(['workers']);
  await control.finish({ kind: 'nks_node_pool' });
  await expect(page.getByRole('heading', { name: 'workers', exact: true })).toBeVisible();
});

test('the first pool is checked before anything is sent, beside its fields; removing it says why a cluster needs one', async ({ control, projects, open }) => {
  const page = await openForm(open, projects);
  await fill(page);
  await page.getByLabel('Pool name').fill('Bad_Name');
  await page.getByLabel('Node count').fill('0');
  await page.getByLabel('Instance type').selectOption('');
  await control.clearRequests();
  await page.getByRole('button', { name: 'Create cluster and pool' }).click();
  await expect(fieldOf(page, 'Pool name').getByRole('alert').filter({ hasText: 'capital letters' })).toBeVisible();
  await expect(fieldOf(page, 'Node count').getByRole('alert').filter({ hasText: 'The first pool needs at least 1 node' })).toBeVisible();
  await expect(fieldOf(page, 'Instance type').getByRole('alert').filter({ hasText: 'Choose an instance type.' })).toBeVisible();
  await expect(page.getByText(/Nothing is sent until .*Pool name/)).toBeVisible();
  // The focus goes to the first field in error.
  await expect(page.locator('#pool-name')).toBeFocused();
  const counts = await routes(control);
  expect(counts[CREATE_CLUSTER] ?? 0, 'no cluster create').toBe(0);
  expect(counts[CREATE_POOL] ?? 0, 'no pool create').toBe(0);
  await expect(page.getByLabel('Pool name')).toHaveValue('Bad_Name');
  await shot(page, 'first-pool-invalid-1280');

  // Removed: the form says what that means, and Apply creates only the cluster.
  await page.getByRole('button', { name: 'Remove first pool' }).click();
  await expect(page.getByText(/No pool: without a worker node the new cluster never finishes provisioning/)).toBeVisible();
  await expect(page.getByLabel('Pool name')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Create cluster', exact: true })).toBeVisible();
  // Added back: what was typed is still there.
  await page.getByRole('button', { name: 'Add a first pool' }).click();
  await expect(page.getByLabel('Pool name')).toHaveValue('Bad_Name');
});

test('at 390 px the form with its first pool, the plan and the two steps stay readable', async ({ projects, open }) => {
  const page = await openForm(open, projects, 390);
  await fill(page);
  await expect(plan(page).getByRole('region', { name: 'First pool' })).toBeVisible();
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await shot(page, 'first-pool-form-390');
  expect(await overflow(), 'no sideways scroll').toBeLessThanOrEqual(0);
  await page.getByRole('button', { name: 'Create cluster and pool' }).click();
  await expect(page.getByText('Pool baseline: sent once the cluster is ready.')).toBeVisible();
  await shot(page, 'first-pool-progress-390');
  expect(await overflow(), 'no sideways scroll in progress').toBeLessThanOrEqual(0);
});

test('a reload while the cluster is being made loses nothing: the pool is still sent once the cluster is ready, and only once', async ({ control, projects, open }) => {
  const page = await openForm(open, projects);
  await fill(page);
  await page.getByLabel('Pool name').fill('kept');
  await expect(plan(page).getByText('Availability: can be done.')).toBeVisible();
  await control.clearRequests();
  await page.getByRole('button', { name: 'Create cluster and pool' }).click();
  const waiting = page.getByRole('status').filter({ hasText: 'Creating cluster web; pool kept follows once it is ready.' });
  await expect(waiting).toBeVisible();
  await page.reload();
  await expect(waiting).toBeVisible();
  await expect(page.getByText('Pool kept: sent once the cluster is ready.')).toBeVisible();
  await shot(page, 'first-pool-after-reload');
  await control.finish({ kind: 'nks_cluster' });
  await page.waitForURL(new RegExp(`/projects/${projects.Production}/operations/[0-9a-f-]{36}\\?cluster=`));
  await expect(poolOpInFlight(page)).toBeVisible();
  await control.finish({ kind: 'nks_node_pool' });
  await expect(page.getByRole('heading', { name: 'kept', exact: true })).toBeVisible();
  const counts = await routes(control);
  expect(counts[CREATE_CLUSTER], 'one cluster create').toBe(1);
  expect(counts[CREATE_POOL], 'one pool create').toBe(1);
  // Done: Create cluster starts afresh (web took the only VPC, so a new one is offered).
  await page.goto(new URL(`/projects/${projects.Production}/clusters/new`, page.url()).href);
  await expect(page.getByRole('button', { name: 'Create VPC, cluster and pool' })).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Pool name')).toHaveValue('baseline');
});

test('a flow whose operation the API no longer knows ends as the operation page says, and the form comes back with what was typed', async ({ control, projects, open }) => {
  const page = await openForm(open, projects);
  await fill(page);
  await page.getByLabel('Pool name').fill('kept');
  await expect(plan(page).getByText('Availability: can be done.')).toBeVisible();
  await page.getByRole('button', { name: 'Create cluster and pool' }).click();
  const waiting = page.getByRole('status').filter({ hasText: 'Creating cluster web; pool kept follows once it is ready.' });
  await expect(waiting).toBeVisible();
  // The API loses the operation (the simulator starts its world again), and the
  // person opens Create cluster again in the same tab before this page has
  // asked about it again (its reads of operations wait until the reload).
  const polls = await hold(page, (url) => url.pathname.startsWith('/v1/operations'), { method: 'GET' });
  await expect.poll(() => polls.held.length, 'a read of the operation is held').toBeGreaterThan(0);
  await control.reset({ seed: 'empty' });
  await page.reload();
  polls.release();
  const lost = page.getByText(/Pool kept was not sent: the cluster's operation [0-9a-f-]{36} is no longer known to the API\. Check whether cluster web exists before trying again\. Everything you typed is kept below\./);
  await expect(lost).toBeVisible();
  await expect(waiting).toHaveCount(0);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('web');
  await expect(page.getByLabel('Kubernetes version')).toHaveValue('v1.34.4');
  await expect(page.getByLabel('VPC', { exact: true }).locator('option:checked')).not.toHaveText('Choose a VPC');
  await expect(page.getByRole('radio', { name: 'Off' })).toBeChecked();
  await expect(page.getByLabel('Tags', { exact: true })).toHaveValue('shop');
  await expect(page.getByLabel('Pool name')).toHaveValue('kept');
  await shot(page, 'first-pool-operation-lost');
  // Nothing is waited for any more: a reload shows the form, not the flow.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Create cluster' })).toBeVisible();
  await expect(waiting).toHaveCount(0);
});

test("a reload while the pool's create is on its way never sends it again, and says where to look", async ({ api, control, projects, open }) => {
  const page = await openForm(open, projects);
  await fill(page);
  await expect(plan(page).getByText('Availability: can be done.')).toBeVisible();
  await control.clearRequests();
  await page.getByRole('button', { name: 'Create cluster and pool' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Create cluster web — operation' })).toBeVisible();
  // The pool's create (only it: POST /v1/nks/clusters/{id}/pools) is held
  // while the page is reloaded.
  const sending = await hold(page, /\/v1\/nks\/clusters\/[^/]+\/pools$/, { method: 'POST', times: 1 });
  await control.finish({ kind: 'nks_cluster' });
  await expect(page.getByText('Pool baseline: sending the create…')).toBeVisible();
  await page.reload();
  const note = page.getByRole('status').filter({ hasText: "Pool baseline's create was sent before this page was reloaded" });
  await expect(note).toContainText('not sent again');
  await expect(page.getByRole('link', { name: 'Create pool baseline in web' })).toBeVisible();
  await shot(page, 'first-pool-reload-while-sending');
  // The link holds the pool as typed (the draft is rebuilt after the reload).
  await page.getByRole('link', { name: 'Create pool baseline in web' }).click();
  await expect(page.getByRole('heading', { name: 'Create pool for web' })).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('baseline');
  // By now the reloaded page has read what it needs and sent what it would:
  // the held create went out at most once (the reload cut it off).
  sending.release();
  expect((await routes(control))[CREATE_POOL] ?? 0, "the pool's create went out at most once").toBeLessThanOrEqual(1);
  expect((await webPools(api, projects)).filter((p) => p.name === 'baseline').length, 'no second pool').toBeLessThanOrEqual(1);
  await expect(page.locator('#pool-instance-type')).toHaveValue('n1-highcpu-2');
});

/** Starts a cluster with its first pool, then leaves the page before the cluster is made. */
async function startAndLeave(page) {
  await fill(page);
  await page.getByLabel('Pool name').fill('kept');
  await expect(plan(page).getByText('Availability: can be done.')).toBeVisible();
  await page.getByRole('button', { name: 'Create cluster and pool' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Creating cluster web; pool kept follows once it is ready.' })).toBeVisible();
  await page.getByRole('link', { name: '← Clusters' }).click();
  await expect(page.getByRole('table', { name: 'Clusters' }).getByRole('link', { name: 'web', exact: true })).toBeVisible();
}

test('a first pool whose cluster was made after its page was left is said to wait, on the list, the cluster and Create cluster; Send sends it once', async ({ control, projects, open }) => {
  const page = await openForm(open, projects);
  await control.clearRequests();
  await startAndLeave(page);
  await control.finish({ kind: 'nks_cluster' });
  // The list says it beside the cluster's pools, with a way to the cluster.
  const row = page.getByRole('table', { name: 'Clusters' }).getByRole('row').filter({ hasText: 'web' });
  await expect(row.getByRole('cell', { name: /ready/ })).toBeVisible();
  await expect(row.getByRole('link', { name: 'pool kept waiting to be sent' })).toBeVisible();
  await shot(page, 'first-pool-waiting-list');
  // Create cluster, opened again, does not send it: it asks.
  await page.goto(new URL(`/projects/${projects.Production}/clusters/new`, page.url()).href);
  await expect(page.getByRole('status').filter({ hasText: 'Cluster web is ready; pool kept is waiting to be sent.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send pool kept' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Discard' })).toBeEnabled();
  await shot(page, 'first-pool-waiting-create');
  expect((await routes(control))[CREATE_POOL] ?? 0, 'nothing sent without a click').toBe(0);
  // The cluster's page says it too, and its Send sends it, once.
  await page.goto(new URL(`/projects/${projects.Production}/clusters`, page.url()).href);
  await page.getByRole('link', { name: 'pool kept waiting to be sent' }).click();
  const waiting = page.getByRole('group', { name: 'First pool waiting' });
  await expect(waiting).toContainText('Pool kept was asked for with this cluster in Create cluster, and has not been sent');
  await shot(page, 'first-pool-waiting-cluster');
  expect((await routes(control))[CREATE_POOL] ?? 0, 'nothing sent without a click').toBe(0);
  await waiting.getByRole('button', { name: 'Send pool kept' }).click();
  await page.waitForURL(new RegExp(`/projects/${projects.Production}/operations/[0-9a-f-]{36}\\?cluster=`));
  await expect(poolOpInFlight(page)).toBeVisible();
  await control.finish({ kind: 'nks_node_pool' });
  await expect(page.getByRole('heading', { name: 'kept', exact: true })).toBeVisible();
  expect((await routes(control))[CREATE_POOL], 'one pool create').toBe(1);
  // Sent: nothing waits any more.
  await page.goto(new URL(`/projects/${projects.Production}/clusters`, page.url()).href);
  await expect(page.getByRole('table', { name: 'Clusters' }).getByRole('link', { name: 'web', exact: true })).toBeVisible();
  await expect(page.getByText('waiting to be sent')).toHaveCount(0);
});

test('Discard drops a first pool that waited: nothing is sent, and no page says it waits', async ({ control, projects, open }) => {
  const page = await openForm(open, projects);
  await control.clearRequests();
  await startAndLeave(page);
  await control.finish({ kind: 'nks_cluster' });
  await page.goto(new URL(`/projects/${projects.Production}/clusters/new`, page.url()).href);
  await page.getByRole('button', { name: 'Discard' }).click();
  // The cluster's page, where a pool is added; nothing waits there.
  await expect(page.getByRole('heading', { name: 'web', exact: true })).toBeVisible();
  await expect(page.getByRole('group', { name: 'First pool waiting' })).toHaveCount(0);
  await page.getByRole('link', { name: '← Clusters' }).click();
  await expect(page.getByRole('table', { name: 'Clusters' }).getByRole('link', { name: 'web', exact: true })).toBeVisible();
  await expect(page.getByText('waiting to be sent')).toHaveCount(0);
  // Create cluster starts afresh.
  await page.goto(new URL(`/projects/${projects.Production}/clusters/new`, page.url()).href);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('');
  expect((await routes(control))[CREATE_POOL] ?? 0, 'nothing sent').toBe(0);
});
