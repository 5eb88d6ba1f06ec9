// Clusters and pools end to end: create, edit with immutable fields locked, scale
// (up safely, down with a warning), the baseline rule, delete, kubeconfig. Each
// test starts from a fresh demo world at the API's own pace: once the console
// shows an operation in flight, the test ends it (`control.finish`) and the
// console follows it to its end.
import { test, expect, shot } from './fixtures.mjs';

const clusterPath = (demo) => `/projects/${demo.project}/clusters/${demo.cluster}`;
const poolPath = (demo, pool) => `${clusterPath(demo)}/pools/${pool}`;
/** `path` on the page's own origin (the worker's simulator). */
const here = (page, path) => new URL(path, page.url()).href;

/** The progress of an operation titled `title` (as the console names it:
 *  "Create pool", "Update cluster"…) while the console sees it in flight. */
const inFlight = (page, title) =>
  page.getByRole('status').filter({ hasText: new RegExp(`${title} — operation \\S+ is (pending|running)`) });

/** The changes sent, not their availability and cost checks. */
const mutations = (page, method) => {
  const sent = [];
  page.on('request', (r) => r.method() === method && !/\/(availability|cost)$/.test(new URL(r.url()).pathname) && sent.push(r));
  return sent;
};

test('create pool: messages appear beside fields as one types, then the new pool opens when done', async ({ control, demo, open }) => {
  const page = await open(clusterPath(demo));
  await page.getByRole('link', { name: 'Add pool' }).click();
  await expect(page.getByRole('heading', { name: 'Create pool' })).toBeVisible();
  await shot(page, 'create-pool-empty');

  await page.getByLabel('Name', { exact: true }).fill('gpu-workers');
  await page.getByLabel('Boot volume size (GB)').fill('32');
  await page.getByLabel('Labels').fill('kubernetes.io/role=gpu');
  await page.getByLabel('Node count').fill('101');
  await expect(page.getByText('Boot volume size must be between 64 and 512.')).toBeVisible();
  await expect(page.getByText(/uses a reserved prefix/)).toBeVisible();
  await expect(page.getByText('Node count must be between 0 and 100.')).toBeVisible();
  await shot(page, 'create-pool-invalid');

  // Submitting an invalid form sends nothing and loses nothing.
  const posts = [];
  // The create itself, not its availability and cost checks.
  page.on('request', (r) => r.method() === 'POST' && new URL(r.url()).pathname.endsWith('/pools') && posts.push(r));
  await page.getByRole('button', { name: 'Create pool' }).click();
  await expect(page.getByText('Choose an instance type.')).toBeVisible();
  expect(posts).toHaveLength(0);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('gpu-workers');

  await page.getByLabel('Instance type').selectOption({ label: 'n1-highcpu-8 — 8 vCPU, 16 GB memory' });
  await page.getByLabel('Boot volume size (GB)').fill('128');
  await page.getByLabel('Boot volume type').selectOption('nvme');
  await page.getByLabel('Labels').fill('accelerator=none\nteam=ml');
  await page.getByRole('button', { name: 'Add taint' }).click();
  await page.getByLabel('Key', { exact: true }).fill('dedicated');
  await page.getByLabel('Value', { exact: true }).fill('ml');
  await page.getByLabel('Effect').selectOption('NoExecute');
  await page.getByLabel('Node count').fill('2');
  await page.getByLabel('Tags').fill('ml, gpu');
  await page.getByRole('button', { name: 'Create pool' }).dblclick();
  const progress = page.getByRole('status').filter({ hasText: 'Create pool — operation' });
  await expect(progress).toBeVisible();
  await shot(page, 'create-pool-submitting');
  expect(posts, 'a double click sends one create').toHaveLength(1);
  expect(JSON.parse(posts[0].postData())).toEqual({
    name: 'gpu-workers',
    node_count: 2,
    node_config: {
      instance_type: 'n1-highcpu-8',
      boot_volume: { size: 128, type: 'nvme' },
      labels: ['accelerator=none', 'team=ml'],
      taints: ['dedicated=ml:NoExecute'],
    },
    tags: ['ml', 'gpu'],
  });
  // The progress is on the operation's own page; done, the new pool (found by
  // the operation's resource_id) opens by itself.
  await expect(page).toHaveURL((url) => new RegExp(`/projects/${demo.project}/operations/[0-9a-f-]{36}$`).test(url.pathname));
  await expect(inFlight(page, 'Create pool')).toBeVisible();
  await control.finish({ kind: 'nks_node_pool' });
  await expect(page.getByRole('heading', { name: 'gpu-workers', exact: true })).toBeVisible();
  const op = await (await posts[0].response()).json();
  await expect(page).toHaveURL((url) => url.href.endsWith(`/pools/${op.resource_id}`));
});

test('a refusal lands next to the field it names, Apply waits, and nothing typed is lost', async ({ demo, open }) => {
  const page = await open(`${clusterPath(demo)}/pools/new`);
  await page.getByLabel('Name', { exact: true }).fill('baseline'); // taken: pool names are unique in a cluster
  await page.getByLabel('Instance type').selectOption('n1-standard-4');
  await page.getByLabel('Labels').fill('tier=extra');
  const nameField = page.locator('.field').filter({ has: page.getByLabel('Name', { exact: true }) });
  // The plan's availability check refuses the body before it is ever sent.
  await expect(nameField.getByRole('alert')).toHaveText(/baseline|name/i);
  await expect(page.getByRole('button', { name: 'Create pool' })).toBeDisabled();
  await expect(page.getByLabel('Labels')).toHaveValue('tier=extra');
  await expect(page.getByLabel('Instance type')).toHaveValue('n1-standard-4');
  // Fixing the field clears the refusal and frees Apply.
  await page.getByLabel('Name', { exact: true }).fill('baseline-b');
  await expect(page.getByRole('status').filter({ hasText: 'Availability: can be done.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create pool' })).toBeEnabled();
});

test('edit pool shows the node configuration locked, with the reason and the replace path', async ({ demo, open }) => {
  const page = await open(`${poolPath(demo, demo.baseline)}/edit`);
  await expect(page.getByRole('heading', { name: 'Edit pool baseline' })).toBeVisible();
  for (const label of ['Instance type', 'Boot volume size (GB)', 'Boot volume type', 'Labels']) {
    await expect(page.getByLabel(label), `${label} is locked`).toBeDisabled();
  }
  await expect(page.getByLabel('Instance type')).toHaveValue('n1-standard-8');
  const described = await page.getByLabel('Instance type').getAttribute('aria-describedby');
  await expect(page.locator(`[id="${described.split(' ')[0]}"]`)).toHaveText(/Fixed at creation/);
  for (const label of ['Name', 'Node count', 'Tags']) {
    await expect(page.getByLabel(label, { exact: true }), `${label} is editable`).toBeEditable();
  }
  await shot(page, 'edit-pool-locked');

  await page.getByRole('link', { name: 'Replace pool' }).click();
  await expect(page.getByRole('heading', { name: 'Replace pool' })).toBeVisible();
  await expect(page.locator('#pool-instance-type')).toHaveValue('n1-standard-8');
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('baseline-v2');
  await expect(page.getByLabel('Labels')).toHaveValue('tier=general');
});

test('the update carries only the changed mutable field, and scaling up is one step', async ({ control, demo, open }) => {
  const page = await open(`${poolPath(demo, demo.baseline)}/edit`);
  const patches = mutations(page, 'PATCH');
  await page.getByLabel('Node count').fill('101');
  await expect(page.getByText('Node count must be between 0 and 100.')).toBeVisible();
  await shot(page, 'edit-pool-invalid');
  await page.getByLabel('Node count').fill('4');
  await expect(page.getByText(/Scaling up from 3 to 4: safe/)).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(inFlight(page, 'Update pool')).toBeVisible();
  await shot(page, 'edit-pool-submitting');
  await control.finish({ kind: 'nks_node_pool' });
  await expect(page.getByRole('heading', { name: 'baseline', exact: true })).toBeVisible();
  expect(patches).toHaveLength(1);
  expect(JSON.parse(patches[0].postData())).toEqual({ node_count: 4 });
  await expect(page.locator('.fields').getByText('4', { exact: true })).toBeVisible();
});

test('scaling down warns that nodes go without drain, lists them with drain commands, and needs a confirmation, said beside Save while missing', async ({ control, demo, open }) => {
  const page = await open(`${poolPath(demo, demo.baseline)}/edit`);
  await page.getByLabel('Node count').fill('1');
  const warning = page.getByRole('region', { name: /terminates 2 nodes without draining/ });
  await expect(warning).toBeVisible();
  await expect(warning.getByText(/autoscaling on/)).toBeVisible();
  // The seeded baseline's three nodes were created together: the platform
  // chooses two of the three, so all three are listed and none is guessed.
  const nodesAtRisk = warning.getByRole('list', { name: 'Nodes at risk' }).getByRole('listitem');
  await expect(nodesAtRisk).toHaveCount(3);
  const atRisk = await nodesAtRisk.allTextContents();
  await expect(warning.getByText(/these 3 are equally new .* it chooses 2 of them/)).toBeVisible();
  const commands = warning.getByLabel('Drain commands', { exact: true });
  for (const node of atRisk) {
    await expect(commands).toContainText(`kubectl cordon ${node}`);
    await expect(commands).toContainText(`kubectl drain ${node}`);
  }
  const save = page.getByRole('button', { name: 'Save' });
  await expect(save, 'no scale-down without the confirmation').toBeDisabled();
  // Said beside Save, and to a screen reader on Save itself.
  const why = page.locator('.form-actions').getByText('Save is disabled until you tick "I understand 2 nodes will be terminated without drain" above.');
  await expect(why).toBeVisible();
  await expect(save).toHaveAccessibleDescription(/Save is disabled until you tick/);
  await shot(page, 'scale-down-warning');
  await page.getByLabel('I understand 2 nodes will be terminated without drain').check();
  await expect(save).toBeEnabled();
  await expect(why).toHaveCount(0);
  await save.click();
  await expect(inFlight(page, 'Update pool')).toBeVisible();
  await control.finish({ kind: 'nks_node_pool' });
  await expect(page.getByRole('heading', { name: 'baseline', exact: true })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Nodes' }).locator('tbody tr')).toHaveCount(1);
});

test('a change that would leave every pool at zero nodes is refused with the reason', async ({ demo, open }) => {
  const page = await open(`${poolPath(demo, demo.baseline)}/edit`);
  await page.getByLabel('Node count').fill('0');
  await expect(page.getByText(/Keep one baseline pool at 1 node or more/).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await shot(page, 'scale-to-zero-refused');
  // Deleting the only pool with nodes is refused the same way.
  await page.goto(here(page, poolPath(demo, demo.baseline)));
  await expect(page.getByRole('heading', { name: 'Delete pool' })).toBeVisible();
  await expect(page.locator('#delete').getByText(/Keep one baseline pool/)).toBeVisible();
  await page.getByLabel('Type baseline to confirm').fill('baseline');
  await expect(page.getByRole('button', { name: 'Delete pool' })).toBeDisabled();
});

test('delete pool and delete node are confirmed by typing the name and tracked to the end', async ({ control, demo, open }) => {
  const page = await open(poolPath(demo, demo.baseline));
  const nodes = page.getByRole('table', { name: 'Nodes' });
  const firstCell = nodes.getByRole('row').nth(1).getByRole('cell').first();
  await expect(firstCell).toBeVisible();
  const firstNode = (await firstCell.textContent()).trim();
  await page.getByRole('button', { name: `Delete node ${firstNode}` }).click();
  const dialog = page.getByRole('dialog', { name: `Delete node ${firstNode}` });
  await expect(dialog.getByText(`kubectl drain ${firstNode}`, { exact: false })).toBeVisible();
  await dialog.getByLabel(`Type ${firstNode} to confirm`).fill(firstNode);
  await dialog.getByRole('button', { name: 'Delete node' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Delete node' })).toBeVisible();
  await expect(inFlight(dialog, 'Delete node')).toBeVisible();
  await control.finish({ kind: 'nks_node' });
  await expect(nodes.locator('tbody tr')).toHaveCount(2);

  await page.goto(here(page, poolPath(demo, demo.zero)));
  await expect(page.getByRole('heading', { name: 'batch-zero' })).toBeVisible();
  const confirm = page.getByRole('button', { name: 'Delete pool' });
  await expect(confirm, 'disabled until the name is typed').toBeDisabled();
  await page.getByLabel('Type batch-zero to confirm').fill('batch-zero');
  await confirm.click();
  await expect(inFlight(page, 'Delete pool')).toBeVisible();
  await control.finish({ kind: 'nks_node_pool' });
  await expect(page.getByRole('heading', { name: 'edge-prod' })).toBeVisible();
  const pools = page.getByRole('table', { name: 'Pools' });
  await expect(pools.getByRole('link', { name: 'baseline', exact: true })).toBeVisible();
  await expect(pools).not.toContainText('batch-zero');
});

test('a pool delete sent, then another page opened: its end is told there, and does not pull the person back', async ({ control, demo, open }) => {
  const page = await open(poolPath(demo, demo.zero));
  await expect(page.getByRole('heading', { name: 'batch-zero' })).toBeVisible();
  await page.getByLabel('Type batch-zero to confirm').fill('batch-zero');
  await page.getByRole('button', { name: 'Delete pool' }).click();
  await expect(inFlight(page, 'Delete pool')).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operations' }).click();
  await expect(page.getByRole('table', { name: 'Operations' })).toBeVisible();
  await control.finish({ kind: 'nks_node_pool' });
  await expect(page.getByRole('status').filter({ hasText: 'Delete pool: done.' })).toBeVisible();
  // The delete's flow ended with its page: the person stays where they went.
  await expect(page.getByRole('table', { name: 'Operations' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe(`/projects/${demo.project}/operations`);
});

test('create cluster: choices from the API, a hosting VPC disabled with the reason, autoscaling chosen explicitly', async ({ control, demo, open }) => {
  const page = await open(`/projects/${demo.project}/clusters`);
  await page.getByRole('link', { name: 'Create cluster' }).first().click();
  await expect(page.getByRole('heading', { name: 'Create cluster' })).toBeVisible();
  await shot(page, 'create-cluster-empty');
  await expect(page.getByLabel('Kubernetes version').locator('option').filter({ hasText: 'v1.34.4' }).first()).toBeAttached();
  const hosting = page.getByLabel('VPC').locator('option', { hasText: 'prod-vpc (' });
  await expect(hosting).toBeDisabled();
  await expect(hosting).toHaveText(/already hosts cluster edge-prod/);
  // This test is about the cluster alone: its first pool (on by default) is removed.
  await page.getByRole('button', { name: 'Remove first pool' }).click();
  await page.getByLabel('Name', { exact: true }).fill('edge-staging');
  await page.getByLabel('Kubernetes version').selectOption('v1.34.4');
  await page.getByLabel('VPC').selectOption({ label: 'prod-spare-vpc (10.21.0.0/24)' });
  await page.getByRole('button', { name: 'Create cluster' }).click();
  await expect(page.getByText('Choose whether cluster autoscaling is on or off.')).toBeVisible();
  await shot(page, 'create-cluster-invalid');
  await page.getByRole('radio', { name: 'On' }).check();
  await page.getByLabel('Tags').fill('staging');
  await page.getByRole('button', { name: 'Create cluster' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Create cluster — operation' })).toBeVisible();
  await shot(page, 'create-cluster-submitting');
  await expect(inFlight(page, 'Create cluster')).toBeVisible();
  await control.finish({ kind: 'nks_cluster' });
  await expect(page.getByRole('heading', { name: 'edge-staging', exact: true })).toBeVisible();
});

test('edit cluster locks project, region, VPC and version, shows the locked project and VPC by name with the id beside, and saves the rest', async ({ api, control, demo, open }) => {
  const cluster = await api('GET', `/v1/nks/clusters/${demo.cluster}`);
  const vpc = await api('GET', `/v1/networking/vpcs/${cluster.vpc_id}`);
  const page = await open(`${clusterPath(demo)}/edit`);
  await expect(page.getByRole('heading', { name: 'Edit cluster edge-prod' })).toBeVisible();
  const form = page.getByRole('main');
  for (const label of ['Project', 'Region', 'VPC', 'Kubernetes version']) {
    await expect(form.getByLabel(label), `${label} is locked`).toBeDisabled();
  }
  await expect(form.getByLabel('Kubernetes version')).toHaveValue('v1.34.4');
  await expect(form.getByLabel('Project')).toHaveValue('Production');
  await expect(form.getByLabel('Project')).toHaveAccessibleDescription(new RegExp(`ID ${demo.project}`));
  await expect(form.getByLabel('VPC')).toHaveValue(`${vpc.name} (${vpc.subnet.cidr})`);
  await expect(form.getByText(`ID ${cluster.vpc_id}`)).toBeVisible();
  await shot(page, 'edit-cluster-locked');
  const patches = mutations(page, 'PATCH');
  await page.getByLabel('Name', { exact: true }).fill('');
  await expect(page.getByText('Name is required.')).toBeVisible();
  await shot(page, 'edit-cluster-invalid');
  await page.getByLabel('Name', { exact: true }).fill('edge-prod-eu');
  await page.getByRole('radio', { name: 'Off' }).check();
  await expect(page.getByText(/Turning autoscaling off freezes node counts/)).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(inFlight(page, 'Update cluster')).toBeVisible();
  await control.finish({ kind: 'nks_cluster' });
  await expect(page.getByRole('heading', { name: 'edge-prod-eu', exact: true })).toBeVisible();
  expect(JSON.parse(patches[0].postData())).toEqual({ name: 'edge-prod-eu', autoscaling: false });
});

test('kubeconfig downloads as <cluster>.kubeconfig.yaml', async ({ demo, open }) => {
  const page = await open(clusterPath(demo));
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download kubeconfig' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('edge-prod.kubeconfig.yaml');
});

test('while an operation runs on a pool its conflicting actions are disabled, so no 409 is provoked', async ({ api, demo, open }) => {
  // Someone else scales the pool; the console picks the operation up. At the
  // API's pace the update takes 2 minutes: it is still running throughout.
  await api('PATCH', `/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}`, { node_count: 5 });
  const page = await open(`${poolPath(demo, demo.baseline)}/edit`);
  await expect(page.getByText(/An operation is in flight on this pool/)).toBeVisible();
  await page.getByLabel('Tags').fill('busy');
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
});

test('edit pool opened while an update started elsewhere runs: once it is done, the banner goes and Save comes back, with what was typed kept', async ({ api, control, demo, open }) => {
  await api('PATCH', `/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}`, { node_count: 4 });
  const page = await open(`${poolPath(demo, demo.baseline)}/edit`);
  const busy = page.getByText('This pool is updating on the platform; wait for it to be ready before editing.');
  await expect(busy).toBeVisible();
  await page.getByLabel('Tags').fill('after-the-update');
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await shot(page, 'edit-pool-updating');
  await control.finish({ kind: 'nks_node_pool' });
  await expect(busy).toHaveCount(0);
  await expect(page.getByText(/An operation is in flight on this pool/)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Save' })).toBeEnabled();
  await expect(page.getByLabel('Tags')).toHaveValue('after-the-update');
  await shot(page, 'edit-pool-updated');
});

test('delete cluster is confirmed by typing its name', async ({ control, demo, open }) => {
  const page = await open(clusterPath(demo));
  await expect(page.getByRole('heading', { name: 'Delete cluster' })).toBeVisible();
  await page.getByLabel('Type edge-prod to confirm').fill('edge-pro');
  await expect(page.getByRole('button', { name: 'Delete cluster' })).toBeDisabled();
  await page.getByLabel('Type edge-prod to confirm').fill('edge-prod');
  await page.getByRole('button', { name: 'Delete cluster' }).click();
  await expect(inFlight(page, 'Delete cluster')).toBeVisible();
  await control.finish({ kind: 'nks_cluster' });
  await expect(page.getByText('No clusters in this project yet.')).toBeVisible();
});

test('a refresh keeps what is typed in the delete dialogs', async ({ api, control, demo, context, open }) => {
  // The pages read their cluster or pool again every 15 s; the dialogs must not be
  // rebuilt by it, or the half-typed confirmation would vanish. Here the read
  // brings a change made meanwhile through the API, so the page is seen to
  // have applied it; the refresh's 15 s pass on this tab's clock, which is the
  // test's, instead of being waited out.
  await context.clock.install();
  const cases = [
    {
      path: clusterPath(demo),
      label: 'Type edge-prod to confirm',
      read: `/v1/nks/clusters/${demo.cluster}`,
      // The cluster's tags, shown among its fields.
      change: () => api('PATCH', `/v1/nks/clusters/${demo.cluster}`, { tags: ['refreshed'] }),
      applied: (page) => page.locator('.fields').getByText('refreshed', { exact: true }),
    },
    {
      path: poolPath(demo, demo.zero),
      label: 'Type batch-zero to confirm',
      read: `/v1/nks/clusters/${demo.cluster}/pools/${demo.zero}`,
      // The pool's node count, which the delete dialog itself says.
      change: () => api('PATCH', `/v1/nks/clusters/${demo.cluster}/pools/${demo.zero}`, { node_count: 1 }),
      applied: (page) => page.locator('#delete').getByText('Deleting pool batch-zero terminates its 1 node without'),
    },
  ];
  for (const { path, label, read, change, applied } of cases) {
    const page = await open(path, { context });
    const field = page.getByLabel(label);
    await field.fill('edge');
    const op = await change();
    await control.finish({ id: op.id });
    const reread = page.waitForResponse((r) => r.request().method() === 'GET' && new URL(r.url()).pathname === read);
    await page.clock.fastForward(15_000);
    await reread;
    await expect(applied(page)).toBeVisible();
    await expect(field, path).toHaveValue('edge');
    await page.close();
  }
});

test('the cluster list filters and sorts from the URL', async ({ demo, open }) => {
  const page = await open(`/projects/${demo.project}/clusters?status=error`);
  await expect(page.getByText('The only cluster does not match these filters.')).toBeVisible();
  await page.getByRole('search').getByLabel('Status').selectOption('ready');
  await expect(page.getByRole('link', { name: 'edge-prod' })).toBeVisible();
  await expect(page).toHaveURL(/status=ready/);
  // Typing in the name filter and choosing an order go to the URL as well.
  const search = page.getByRole('search');
  await search.getByLabel('Filter by name').fill('no-such-cluster');
  await expect(page.getByText('The only cluster does not match these filters.')).toBeVisible();
  await expect(page).toHaveURL((url) => url.searchParams.get('name') === 'no-such-cluster');
  await search.getByLabel('Sort by').selectOption('name');
  await search.getByLabel('Filter by name').fill('EDGE');
  await expect(page.getByRole('link', { name: 'edge-prod' })).toBeVisible();
  const query = (url) => [url.searchParams.get('name'), url.searchParams.get('status'), url.searchParams.get('sort')];
  await expect.poll(() => query(new URL(page.url()))).toEqual(['EDGE', 'ready', 'name']);
});

test('the pools of a cluster filter by name, instance type or label, from the URL', async ({ demo, open }) => {
  const page = await open(clusterPath(demo));
  const pools = page.getByRole('table', { name: 'Pools' });
  const filter = page.getByLabel('Filter pools');
  const names = async () => (await pools.locator('tbody tr td:first-child').allTextContents()).sort();
  await expect(pools.getByRole('link', { name: 'baseline' })).toBeVisible();
  await expect.poll(names).toEqual(['baseline', 'batch-zero']);
  for (const [typed, shown] of [['HIGHCPU', ['batch-zero']], ['tier=general', ['baseline']], ['base', ['baseline']]]) {
    await filter.fill(typed);
    await expect.poll(names, typed).toEqual(shown);
    await expect(page).toHaveURL((url) => url.searchParams.get('filter') === typed);
  }
  await filter.fill('no-such-pool');
  await expect(page.getByText('None of the 2 pools match this filter.')).toBeVisible();
  // The filter survives a reload: it is in the URL.
  await page.goto(here(page, `${clusterPath(demo)}?filter=workload%3Dbatch`));
  await expect(pools.getByRole('link', { name: 'batch-zero' })).toBeVisible();
  await expect(filter).toHaveValue('workload=batch');
  await expect.poll(names).toEqual(['batch-zero']);
});

test.describe('the large world', () => {
  test.use({ seed: 'large' });

  test('a cluster of 1,000 pools shows them 50 at a time, with the page in the URL', async ({ api, projects, open }) => {
    const large = projects.Large;
    const big = (await api('GET', `/v1/nks/clusters?project_id=${large}&limit=100`)).items.find((c) => c.name === 'big');
    const page = await open(`/projects/${large}/clusters/${big.id}`);
    const pools = page.getByRole('table', { name: 'Pools' });
    const pager = page.getByRole('navigation', { name: 'Pool pages' });
    await expect(pools.getByRole('link', { name: 'pool-0000' })).toBeVisible();
    await expect(pools.locator('tbody tr')).toHaveCount(50);
    await expect(pager.locator('.pager-count')).toHaveText('1–50 of 1,000');
    await expect(pager.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await pager.getByRole('button', { name: 'Next' }).click();
    await expect(pools.getByRole('link', { name: 'pool-0050' })).toBeVisible();
    await expect(pager.locator('.pager-count')).toHaveText('51–100 of 1,000');
    await expect(pools.locator('tbody tr')).toHaveCount(50);
    await expect(page).toHaveURL((url) => url.searchParams.get('page') === '2');
    // Back returns to the first page; a reload keeps the page shown.
    await page.goBack();
    await expect(pools.getByRole('link', { name: 'pool-0000' })).toBeVisible();
    await page.goto(here(page, `/projects/${large}/clusters/${big.id}?page=20`));
    await expect(pools.getByRole('link', { name: 'pool-0999' })).toBeVisible();
    await expect(pager.locator('.pager-count')).toHaveText('951–1,000 of 1,000');
    await expect(pager.getByRole('button', { name: 'Next' })).toBeDisabled();

    // A filter starts at its first page and counts what it matches.
    await page.getByLabel('Filter pools').fill('pool-09');
    await expect(pools.getByRole('link', { name: 'pool-0900' })).toBeVisible();
    await expect(pager.locator('.pager-count')).toHaveText('1–50 of 100 matching (of 1,000)');
    await expect(page).toHaveURL((url) => url.searchParams.get('page') === null);
    await shot(page, 'pools-filtered-page');
  });
});
