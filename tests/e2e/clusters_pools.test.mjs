// Clusters and pools end to end: create, edit with immutable fields locked, scale
// (up safely, down with a warning), the baseline rule, delete, kubeconfig. Each
// test starts from a fresh demo world on a fast clock.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, shot } from './harness.mjs';

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
  const projects = await sim.api('/v1/projects');
  const production = projects.items.find((p) => p.name === 'Production');
  const clusters = await sim.api(`/v1/nks/clusters?project_id=${production.id}`);
  const cluster = clusters.items.find((c) => c.name === 'edge-prod');
  const pools = await sim.api(`/v1/nks/clusters/${cluster.id}/pools`);
  const pool = (name) => pools.items.find((p) => p.name === name);
  ids = { project: production.id, cluster: cluster.id, baseline: pool('baseline').id, zero: pool('batch-zero').id };
});

/** Opens `path` connected with the demo key. */
async function open(path) {
  const { context, page } = await openPage(browser);
  await page.goto(sim.url + path);
  await connect(page);
  return { context, page };
}

/** Resolves once the control is enabled (the plan's check may still be running). */
async function waitEnabled(locator, timeout = 10_000) {
  const until = Date.now() + timeout;
  while (!(await locator.isEnabled())) {
    if (Date.now() > until) throw new Error('still disabled');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const clusterPath = () => `/projects/${ids.project}/clusters/${ids.cluster}`;
const poolPath = (pool) => `${clusterPath()}/pools/${pool}`;

test('create pool: messages appear beside fields as one types, then the new pool opens when done', async () => {
  const { context, page } = await open(clusterPath());
  await page.getByRole('link', { name: 'Add pool' }).click();
  await page.getByRole('heading', { name: 'Create pool' }).waitFor();
  await shot(page, 'create-pool-empty');

  await page.getByLabel('Name', { exact: true }).fill('gpu-workers');
  await page.getByLabel('Boot volume size (GB)').fill('32');
  await page.getByLabel('Labels').fill('kubernetes.io/role=gpu');
  await page.getByLabel('Node count').fill('101');
  await assert.doesNotReject(page.getByText('Boot volume size must be between 64 and 512.').waitFor());
  await assert.doesNotReject(page.getByText(/uses a reserved prefix/).waitFor());
  await assert.doesNotReject(page.getByText('Node count must be between 0 and 100.').waitFor());
  await shot(page, 'create-pool-invalid');

  // Submitting an invalid form sends nothing and loses nothing.
  const posts = [];
  // The create itself, not its availability and cost checks.
  page.on('request', (r) => r.method() === 'POST' && new URL(r.url()).pathname.endsWith('/pools') && posts.push(r));
  await page.getByRole('button', { name: 'Create pool' }).click();
  await assert.doesNotReject(page.getByText('Choose an instance type.').waitFor());
  assert.equal(posts.length, 0);
  assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), 'gpu-workers');

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
  await assert.doesNotReject(progress.waitFor());
  await shot(page, 'create-pool-submitting');
  assert.equal(posts.length, 1, 'a double click sends one create');
  assert.deepEqual(JSON.parse(posts[0].postData()), {
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
  assert.match(new URL(page.url()).pathname, new RegExp(`/projects/${ids.project}/operations/[0-9a-f-]{36}$`));
  await assert.doesNotReject(page.getByRole('heading', { name: 'gpu-workers', exact: true }).waitFor({ timeout: 30_000 }));
  const op = await (await posts[0].response()).json();
  assert.ok(page.url().endsWith(`/pools/${op.resource_id}`), page.url());
  await context.close();
});

test('a refusal lands next to the field it names, Apply waits, and nothing typed is lost', async () => {
  const { context, page } = await open(`${clusterPath()}/pools/new`);
  await page.getByLabel('Name', { exact: true }).fill('baseline'); // taken: pool names are unique in a cluster
  await page.getByLabel('Instance type').selectOption('n1-standard-4');
  await page.getByLabel('Labels').fill('tier=extra');
  const nameField = page.locator('.field').filter({ has: page.getByLabel('Name', { exact: true }) });
  // The plan's availability check refuses the body before it is ever sent.
  await assert.doesNotReject(nameField.getByRole('alert').waitFor());
  assert.match(await nameField.getByRole('alert').textContent(), /baseline|name/i);
  assert.equal(await page.getByRole('button', { name: 'Create pool' }).isDisabled(), true);
  assert.equal(await page.getByLabel('Labels').inputValue(), 'tier=extra');
  assert.equal(await page.getByLabel('Instance type').inputValue(), 'n1-standard-4');
  // Fixing the field clears the refusal and frees Apply.
  await page.getByLabel('Name', { exact: true }).fill('baseline-b');
  await assert.doesNotReject(page.getByRole('status').filter({ hasText: 'Availability: can be done.' }).waitFor());
  assert.equal(await page.getByRole('button', { name: 'Create pool' }).isEnabled(), true);
  await context.close();
});

test('edit pool shows the node configuration locked, with the reason and the replace path', async () => {
  const { context, page } = await open(`${poolPath(ids.baseline)}/edit`);
  await page.getByRole('heading', { name: 'Edit pool baseline' }).waitFor();
  for (const label of ['Instance type', 'Boot volume size (GB)', 'Boot volume type', 'Labels']) {
    const field = page.getByLabel(label);
    assert.equal(await field.isDisabled(), true, `${label} is locked`);
  }
  assert.equal(await page.getByLabel('Instance type').inputValue(), 'n1-standard-8');
  const described = await page.getByLabel('Instance type').getAttribute('aria-describedby');
  const hint = await page.locator(`[id="${described.split(' ')[0]}"]`).textContent();
  assert.match(hint, /Fixed at creation/);
  for (const label of ['Name', 'Node count', 'Tags']) {
    assert.equal(await page.getByLabel(label, { exact: true }).isEditable(), true, `${label} is editable`);
  }
  await shot(page, 'edit-pool-locked');

  await page.getByRole('link', { name: 'Replace pool' }).click();
  await page.getByRole('heading', { name: 'Replace pool' }).waitFor();
  await assert.doesNotReject(async () => {
    await page.waitForFunction(() => document.querySelector('#pool-instance-type')?.value === 'n1-standard-8');
  });
  assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), 'baseline-v2');
  assert.equal(await page.getByLabel('Labels').inputValue(), 'tier=general');
  await context.close();
});

test('the update carries only the changed mutable field, and scaling up is one step', async () => {
  const { context, page } = await open(`${poolPath(ids.baseline)}/edit`);
  const patches = [];
  page.on('request', (r) => r.method() === 'PATCH' && !/\/(availability|cost)$/.test(new URL(r.url()).pathname) && patches.push(r));
  await page.getByLabel('Node count').fill('101');
  await assert.doesNotReject(page.getByText('Node count must be between 0 and 100.').waitFor());
  await shot(page, 'edit-pool-invalid');
  await page.getByLabel('Node count').fill('4');
  await assert.doesNotReject(page.getByText(/Scaling up from 3 to 4: safe/).waitFor());
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('status').filter({ hasText: 'Update pool — operation' }).waitFor().catch(() => {});
  await shot(page, 'edit-pool-submitting');
  await assert.doesNotReject(page.getByRole('heading', { name: 'baseline', exact: true }).waitFor({ timeout: 20_000 }));
  assert.equal(patches.length, 1);
  assert.deepEqual(JSON.parse(patches[0].postData()), { node_count: 4 });
  await assert.doesNotReject(page.locator('.fields').getByText('4', { exact: true }).waitFor({ timeout: 20_000 }));
  await context.close();
});

test('scaling down warns that nodes go without drain, lists them with drain commands, and needs a confirmation', async () => {
  const { context, page } = await open(`${poolPath(ids.baseline)}/edit`);
  await page.getByLabel('Node count').fill('1');
  const warning = page.getByRole('region', { name: /terminates 2 nodes without draining/ });
  await assert.doesNotReject(warning.waitFor());
  await assert.doesNotReject(warning.getByText(/autoscaling on/).waitFor());
  // The seeded baseline's three nodes were created together: the platform
  // chooses two of the three, so all three are listed and none is guessed.
  const atRisk = await warning.getByRole('list', { name: 'Nodes at risk' }).getByRole('listitem').allTextContents();
  assert.equal(atRisk.length, 3);
  await assert.doesNotReject(warning.getByText(/these 3 are equally new .* it chooses 2 of them/).waitFor());
  const commands = await warning.getByLabel('Drain commands', { exact: true }).textContent();
  for (const node of atRisk) {
    assert.ok(commands.includes(`kubectl cordon ${node}`), commands);
    assert.ok(commands.includes(`kubectl drain ${node}`), commands);
  }
  const save = page.getByRole('button', { name: 'Save' });
  assert.equal(await save.isDisabled(), true, 'no scale-down without the confirmation');
  await shot(page, 'scale-down-warning');
  await page.getByLabel('I understand 2 nodes will be terminated without drain').check();
  await assert.doesNotReject(waitEnabled(save));
  await save.click();
  await assert.doesNotReject(page.getByRole('heading', { name: 'baseline', exact: true }).waitFor({ timeout: 20_000 }));
  await assert.doesNotReject(async () => {
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Nodes"] tbody tr').length === 1, null, { timeout: 30_000 });
  });
  await context.close();
});

test('a change that would leave every pool at zero nodes is refused with the reason', async () => {
  const { context, page } = await open(`${poolPath(ids.baseline)}/edit`);
  await page.getByLabel('Node count').fill('0');
  await assert.doesNotReject(page.getByText(/Keep one baseline pool at 1 node or more/).first().waitFor());
  assert.equal(await page.getByRole('button', { name: 'Save' }).isDisabled(), true);
  await shot(page, 'scale-to-zero-refused');
  // Deleting the only pool with nodes is refused the same way.
  await page.goto(sim.url + poolPath(ids.baseline));
  await page.getByRole('heading', { name: 'Delete pool' }).waitFor();
  await assert.doesNotReject(page.locator('#delete').getByText(/Keep one baseline pool/).waitFor());
  await page.getByLabel('Type baseline to confirm').fill('baseline');
  assert.equal(await page.getByRole('button', { name: 'Delete pool' }).isDisabled(), true);
  await context.close();
});

test('delete pool and delete node are confirmed by typing the name and tracked to the end', async () => {
  const { context, page } = await open(poolPath(ids.baseline));
  const nodes = page.getByRole('table', { name: 'Nodes' });
  await nodes.waitFor();
  const firstNode = (await nodes.getByRole('row').nth(1).getByRole('cell').first().textContent()).trim();
  await page.getByRole('button', { name: `Delete node ${firstNode}` }).click();
  const dialog = page.getByRole('dialog', { name: `Delete node ${firstNode}` });
  await assert.doesNotReject(dialog.getByText(`kubectl drain ${firstNode}`, { exact: false }).waitFor());
  await dialog.getByLabel(`Type ${firstNode} to confirm`).fill(firstNode);
  await dialog.getByRole('button', { name: 'Delete node' }).click();
  await assert.doesNotReject(dialog.getByRole('status').filter({ hasText: 'Delete node' }).waitFor());
  await assert.doesNotReject(async () => {
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Nodes"] tbody tr').length === 2, null, { timeout: 30_000 });
  });

  await page.goto(sim.url + poolPath(ids.zero));
  await page.getByRole('heading', { name: 'batch-zero' }).waitFor();
  const confirm = page.getByRole('button', { name: 'Delete pool' });
  assert.equal(await confirm.isDisabled(), true, 'disabled until the name is typed');
  await page.getByLabel('Type batch-zero to confirm').fill('batch-zero');
  await confirm.click();
  await assert.doesNotReject(page.getByRole('heading', { name: 'edge-prod' }).waitFor({ timeout: 30_000 }));
  await assert.doesNotReject(async () => {
    await page.waitForFunction(() => !document.querySelector('table[aria-label="Pools"]')?.textContent.includes('batch-zero'), null, { timeout: 30_000 });
  });
  await context.close();
});

test('create cluster: choices from the API, a hosting VPC disabled with the reason, autoscaling chosen explicitly', async () => {
  const { context, page } = await open(`/projects/${ids.project}/clusters`);
  await page.getByRole('link', { name: 'Create cluster' }).first().click();
  await page.getByRole('heading', { name: 'Create cluster' }).waitFor();
  await shot(page, 'create-cluster-empty');
  const versions = await page.getByLabel('Kubernetes version').locator('option').allTextContents();
  assert.ok(versions.some((v) => v.includes('v1.34.4')), versions.join());
  const hosting = page.getByLabel('VPC').locator('option', { hasText: 'prod-vpc (' });
  assert.equal(await hosting.isDisabled(), true);
  assert.match(await hosting.textContent(), /already hosts cluster edge-prod/);
  // This test is about the cluster alone: its first pool (on by default) is removed.
  await page.getByRole('button', { name: 'Remove first pool' }).click();
  await page.getByLabel('Name', { exact: true }).fill('edge-staging');
  await page.getByLabel('Kubernetes version').selectOption('v1.34.4');
  await page.getByLabel('VPC').selectOption({ label: 'prod-spare-vpc (10.21.0.0/24)' });
  await page.getByRole('button', { name: 'Create cluster' }).click();
  await assert.doesNotReject(page.getByText('Choose whether cluster autoscaling is on or off.').waitFor());
  await shot(page, 'create-cluster-invalid');
  await page.getByRole('radio', { name: 'On' }).check();
  await page.getByLabel('Tags').fill('staging');
  await page.getByRole('button', { name: 'Create cluster' }).click();
  await assert.doesNotReject(page.getByRole('status').filter({ hasText: 'Create cluster — operation' }).waitFor());
  await shot(page, 'create-cluster-submitting');
  await assert.doesNotReject(page.getByRole('heading', { name: 'edge-staging', exact: true }).waitFor({ timeout: 40_000 }));
  await context.close();
});

test('edit cluster locks project, region, VPC and version, and saves the rest', async () => {
  const { context, page } = await open(`${clusterPath()}/edit`);
  await page.getByRole('heading', { name: 'Edit cluster edge-prod' }).waitFor();
  const form = page.getByRole('main');
  for (const label of ['Project', 'Region', 'VPC', 'Kubernetes version']) {
    assert.equal(await form.getByLabel(label).isDisabled(), true, `${label} is locked`);
  }
  assert.equal(await form.getByLabel('Kubernetes version').inputValue(), 'v1.34.4');
  await shot(page, 'edit-cluster-locked');
  const patches = [];
  page.on('request', (r) => r.method() === 'PATCH' && !/\/(availability|cost)$/.test(new URL(r.url()).pathname) && patches.push(r));
  await page.getByLabel('Name', { exact: true }).fill('');
  await assert.doesNotReject(page.getByText('Name is required.').waitFor());
  await shot(page, 'edit-cluster-invalid');
  await page.getByLabel('Name', { exact: true }).fill('edge-prod-eu');
  await page.getByRole('radio', { name: 'Off' }).check();
  await assert.doesNotReject(page.getByText(/Turning autoscaling off freezes node counts/).waitFor());
  await page.getByRole('button', { name: 'Save' }).click();
  await assert.doesNotReject(page.getByRole('heading', { name: 'edge-prod-eu', exact: true }).waitFor({ timeout: 20_000 }));
  assert.deepEqual(JSON.parse(patches[0].postData()), { name: 'edge-prod-eu', autoscaling: false });
  await context.close();
});

test('kubeconfig downloads as <cluster>.kubeconfig.yaml', async () => {
  const { context, page } = await open(clusterPath());
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download kubeconfig' }).click(),
  ]);
  assert.equal(download.suggestedFilename(), 'edge-prod.kubeconfig.yaml');
  await context.close();
});

test('while an operation runs on a pool its conflicting actions are disabled, so no 409 is provoked', async () => {
  // Someone else scales the pool; the console picks the operation up. At 0.1 the
  // update takes 12 s, so it is still running when a cold-loading console opens
  // (at 0.01 it lasted 1.2 s and could end first on a slow machine).
  await sim.control('POST', '/_sim/time-scale', { time_scale: 0.1 });
  await fetch(`${sim.url}/v1/nks/clusters/${ids.cluster}/pools/${ids.baseline}`, {
    method: 'PATCH',
    headers: { authorization: 'Bearer nks-demo-key', 'content-type': 'application/json' },
    body: JSON.stringify({ node_count: 5 }),
  });
  const { context, page } = await open(`${poolPath(ids.baseline)}/edit`);
  await assert.doesNotReject(page.getByText(/An operation is in flight on this pool/).waitFor());
  await page.getByLabel('Tags').fill('busy');
  assert.equal(await page.getByRole('button', { name: 'Save' }).isDisabled(), true);
  await context.close();
});

test('delete cluster is confirmed by typing its name', async () => {
  const { context, page } = await open(clusterPath());
  await page.getByRole('heading', { name: 'Delete cluster' }).waitFor();
  await page.getByLabel('Type edge-prod to confirm').fill('edge-pro');
  assert.equal(await page.getByRole('button', { name: 'Delete cluster' }).isDisabled(), true);
  await page.getByLabel('Type edge-prod to confirm').fill('edge-prod');
  await page.getByRole('button', { name: 'Delete cluster' }).click();
  await assert.doesNotReject(page.getByText('No clusters in this project yet.').waitFor({ timeout: 40_000 }));
  await context.close();
});

test('a refresh keeps what is typed in the delete dialogs', async () => {
  // The pages read their cluster or pool again every 15 s; the dialogs must not be
  // rebuilt by it, or the half-typed confirmation would vanish.
  for (const [path, label, read] of [
    [clusterPath(), 'Type edge-prod to confirm', `/v1/nks/clusters/${ids.cluster}`],
    [poolPath(ids.zero), 'Type batch-zero to confirm', `/v1/nks/clusters/${ids.cluster}/pools/${ids.zero}`],
  ]) {
    const { context, page } = await open(path);
    const field = page.getByLabel(label);
    await field.fill('edge');
    const reread = page.waitForResponse(
      (r) => r.request().method() === 'GET' && new URL(r.url()).pathname === read,
      { timeout: 25_000 },
    );
    await reread;
    await page.waitForTimeout(300); // the read is applied
    assert.equal(await field.inputValue(), 'edge', path);
    await context.close();
  }
});

test('the cluster list filters and sorts from the URL', async () => {
  const { context, page } = await open(`/projects/${ids.project}/clusters?status=error`);
  await assert.doesNotReject(page.getByText('None of the 1 clusters match these filters.').waitFor());
  await page.getByRole('search').getByLabel('Status').selectOption('ready');
  await assert.doesNotReject(page.getByRole('link', { name: 'edge-prod' }).waitFor());
  assert.ok(page.url().includes('status=ready'));
  // Typing in the name filter and choosing an order go to the URL as well.
  const search = page.getByRole('search');
  await search.getByLabel('Filter by name').fill('no-such-cluster');
  await assert.doesNotReject(page.getByText('None of the 1 clusters match these filters.').waitFor());
  assert.equal(new URL(page.url()).searchParams.get('name'), 'no-such-cluster');
  await search.getByLabel('Sort by').selectOption('name');
  await search.getByLabel('Filter by name').fill('EDGE');
  await assert.doesNotReject(page.getByRole('link', { name: 'edge-prod' }).waitFor());
  const query = new URL(page.url()).searchParams;
  assert.deepEqual([query.get('name'), query.get('status'), query.get('sort')], ['EDGE', 'ready', 'name']);
  await context.close();
});

test('the pools of a cluster filter by name, instance type or label, from the URL', async () => {
  const { context, page } = await open(clusterPath());
  const pools = page.getByRole('table', { name: 'Pools' });
  const filter = page.getByLabel('Filter pools');
  const names = async () => (await pools.locator('tbody tr td:first-child').allTextContents()).sort();
  await pools.getByRole('link', { name: 'baseline' }).waitFor();
  assert.deepEqual(await names(), ['baseline', 'batch-zero']);
  for (const [typed, shown] of [['HIGHCPU', ['batch-zero']], ['tier=general', ['baseline']], ['base', ['baseline']]]) {
    await filter.fill(typed);
    await page.waitForFunction((n) => document.querySelectorAll('table[aria-label="Pools"] tbody tr').length === n, shown.length);
    assert.deepEqual(await names(), shown, typed);
    assert.equal(new URL(page.url()).searchParams.get('filter'), typed);
  }
  await filter.fill('no-such-pool');
  await assert.doesNotReject(page.getByText('None of the 2 pools match this filter.').waitFor());
  // The filter survives a reload: it is in the URL.
  await page.goto(`${sim.url}${clusterPath()}?filter=workload%3Dbatch`);
  await assert.doesNotReject(pools.getByRole('link', { name: 'batch-zero' }).waitFor());
  assert.equal(await filter.inputValue(), 'workload=batch');
  assert.deepEqual(await names(), ['batch-zero']);
  await context.close();
});

test('a cluster of 1,000 pools shows them 50 at a time, with the page in the URL', async () => {
  await sim.control('POST', '/_sim/reset', { seed: 'large', time_scale: 0.01 });
  const large = (await sim.api('/v1/projects')).items.find((p) => p.name === 'Large');
  const big = (await sim.api(`/v1/nks/clusters?project_id=${large.id}&limit=100`)).items.find((c) => c.name === 'big');
  const { context, page } = await open(`/projects/${large.id}/clusters/${big.id}`);
  const pools = page.getByRole('table', { name: 'Pools' });
  const pager = page.getByRole('navigation', { name: 'Pool pages' });
  await pools.getByRole('link', { name: 'pool-0000' }).waitFor({ timeout: 30_000 });
  assert.equal(await pools.locator('tbody tr').count(), 50);
  assert.equal(await pager.locator('.pager-count').textContent(), '1–50 of 1,000');
  assert.ok(await pager.getByRole('button', { name: 'Previous' }).isDisabled());

  await pager.getByRole('button', { name: 'Next' }).click();
  await pools.getByRole('link', { name: 'pool-0050' }).waitFor();
  assert.equal(await pager.locator('.pager-count').textContent(), '51–100 of 1,000');
  assert.equal(await pools.locator('tbody tr').count(), 50);
  assert.equal(new URL(page.url()).searchParams.get('page'), '2');
  // Back returns to the first page; a reload keeps the page shown.
  await page.goBack();
  await pools.getByRole('link', { name: 'pool-0000' }).waitFor();
  await page.goto(`${sim.url}/projects/${large.id}/clusters/${big.id}?page=20`);
  await pools.getByRole('link', { name: 'pool-0999' }).waitFor({ timeout: 30_000 });
  assert.equal(await pager.locator('.pager-count').textContent(), '951–1,000 of 1,000');
  assert.ok(await pager.getByRole('button', { name: 'Next' }).isDisabled());

  // A filter starts at its first page and counts what it matches.
  await page.getByLabel('Filter pools').fill('pool-09');
  await pools.getByRole('link', { name: 'pool-0900' }).waitFor();
  assert.equal(await pager.locator('.pager-count').textContent(), '1–50 of 100 matching (of 1,000)');
  assert.equal(new URL(page.url()).searchParams.get('page'), null);
  await shot(page, 'pools-filtered-page');
  await context.close();
});
