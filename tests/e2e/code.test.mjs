// The change as code: the cURL the panel shows is run by bash against the test's
// simulator, and the world changes as Apply would have changed it. The snippet's
// `sleep` between reads of its operation moves the simulator's clock instead of
// waiting (a stub first on PATH), so the operation ends in simulated time.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { test, expect, shot, vpcTaken, newVpcClusterForm, DEMO_KEY, ROOT } from './fixtures.mjs';
import { go, goModule, runProgram } from './support/golang.mjs';

const run = promisify(execFile);
const clusterPath = (demo) => `/projects/${demo.project}/clusters/${demo.cluster}`;

/** Opens the Code panel in `scope` (the page, a form or a dialog) and answers
 *  the locator of the chosen tab's code. */
async function codeTab(scope, tab) {
  await scope.getByText('Code: cURL, Go, TypeScript, Terraform').click();
  await scope.getByRole('tab', { name: tab }).click();
  return scope.getByRole('tabpanel', { name: `${tab} code` });
}

/** The plan has answered: its figures are drawn above the Code panel, so the
 *  panel no longer moves under the pointer. */
async function planned(page) {
  await expect(page.getByRole('complementary', { name: 'Plan' }).getByText(/^Availability: /).first()).toBeVisible();
}

/** Runs a cURL snippet with bash: the key and base URL in the environment, and
 *  `sleep N` moving the simulator's clock N seconds. The operations it starts
 *  also take simulated time at a small scale (a cluster's 20 minutes in about a
 *  second), so its 5 s polls end in a few reads, not the 240 a cluster's create
 *  takes on the clock alone. Answers its stdout. */
async function runCurl(sim, text) {
  await sim.control.timeScale(0.001);
  const dir = mkdtempSync(path.join(tmpdir(), 'nks-curl-'));
  const stub = path.join(dir, 'sleep');
  writeFileSync(
    stub,
    '#!/usr/bin/env bash\ncurl -sS -X POST "$SIM/_sim/clock" -H "Content-Type: application/json" ' +
      `--data "{\\"advance_ms\\": $(( \${1%.*} * 1000 ))}" > /dev/null\n`,
  );
  chmodSync(stub, 0o755);
  const script = path.join(dir, 'change.sh');
  writeFileSync(script, text);
  const { stdout } = await run('bash', [script], {
    timeout: 60_000,
    env: {
      ...process.env,
      PATH: `${dir}:${process.env.PATH}`,
      SIM: sim.url,
      NIRVANA_LABS_BASE_URL: sim.url,
      NIRVANA_LABS_API_KEY: DEMO_KEY,
    },
  });
  return stdout;
}

/**
 * The Go and TypeScript snippets follow their operation on a 5 s timer of their
 * own. So that one read finds it done, the operations they start take simulated
 * time at a small scale, and the API takes 300 ms to answer the first read: a
 * latency of the API's, as the simulator's faults give it, not a wait of the test's.
 */
async function quickOperations(control) {
  await control.timeScale(0.0001);
  await control.fault({ match: { method: 'GET', path_prefix: '/v1/operations' }, count: 1, action: { type: 'latency', ms: 300 } });
}

const snippetEnv = (sim) => ({ NIRVANA_LABS_BASE_URL: sim.url, NIRVANA_LABS_API_KEY: DEMO_KEY });

/** Builds a Go snippet against Nirvana's Go SDK and runs it against the simulator. */
async function runGo(sim, text) {
  const dir = mkdtempSync(path.join(tmpdir(), 'nks-go-'));
  goModule(dir, 'snippet');
  writeFileSync(path.join(dir, 'main.go'), text);
  await go(dir, ['build', '-o', 'snippet', '.']);
  return runProgram(path.join(dir, 'snippet'), { env: snippetEnv(sim), timeout: 60_000 });
}

/** Type-checks a TypeScript snippet against Nirvana's TypeScript SDK, bundles it
 *  with the SDK's source (tools/ts-check.mjs) and runs it under node against the simulator. */
async function runTypeScript(sim, text) {
  const dir = mkdtempSync(path.join(tmpdir(), 'nks-ts-'));
  writeFileSync(path.join(dir, 'main.ts'), text);
  const bundle = path.join(dir, 'main.mjs');
  await run('node', [path.join(ROOT, 'tools', 'ts-check.mjs'), '--bundle', bundle, path.join(dir, 'main.ts')], { timeout: 120_000 });
  return runProgram(process.execPath, { args: [bundle], env: snippetEnv(sim), timeout: 60_000 });
}

test('create pool: the cURL on screen makes the pool Apply would make', async ({ sim, api, demo, open }) => {
  const page = await open(`${clusterPath(demo)}/pools/new`);
  await page.getByLabel('Name', { exact: true }).fill('from-curl');
  await page.getByLabel('Instance type').selectOption('n1-standard-4');
  await page.getByLabel('Labels').fill('team=ml');
  // A tag is free text: quotes, $( ) and backticks must reach the API as typed.
  await page.getByLabel('Tags').fill("it's $(id) `id`");
  await page.getByLabel('Node count').fill('2');
  await planned(page);
  const curl = await codeTab(page, 'cURL');
  await expect(curl).toContainText('"name":"from-curl"');
  await expect(curl).toContainText('NIRVANA_LABS_API_KEY');
  await expect(curl).not.toContainText(DEMO_KEY);
  await shot(page, 'code-create-pool-curl');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'code-create-pool-curl-390');

  const posts = [];
  page.on('request', (r) => r.method() === 'POST' && new URL(r.url()).pathname.endsWith('/pools') && posts.push(r));
  const out = await runCurl(sim, await curl.textContent());
  const id = out.match(/pool made: (\S+)/)?.[1];
  expect(id, out).toBeTruthy();
  const pool = await api('GET', `/v1/nks/clusters/${demo.cluster}/pools/${id}`);
  expect(pool).toMatchObject({
    name: 'from-curl',
    node_count: 2,
    status: 'ready',
    node_config: { instance_type: 'n1-standard-4', labels: ['team=ml'] },
    tags: ["it's $(id) `id`"],
  });
  expect(posts, 'the console itself sent nothing').toHaveLength(0);

  // The other formats are of the same change.
  await page.getByRole('tab', { name: 'Go' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Go code' })).toContainText('client.NKS.Clusters.Pools.New(ctx');
  await page.getByRole('tab', { name: 'TypeScript' }).click();
  await expect(page.getByRole('tabpanel', { name: 'TypeScript code' })).toContainText('client.nks.clusters.pools.create(');
  await page.getByRole('tab', { name: 'Terraform' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Terraform code' })).toContainText('resource "nirvana_nks_node_pool" "from-curl"');
});

test('scale a pool: the cURL sends node_count alone, and the pool scales', async ({ sim, api, demo, open }) => {
  const before = await api('GET', `/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}`);
  const page = await open(`${clusterPath(demo)}/pools/${demo.baseline}/edit`);
  await page.getByLabel('Node count').fill(String(before.node_count + 1));
  await planned(page);
  const curl = await codeTab(page, 'cURL');
  await expect(curl).toContainText(`--data '{"node_count":${before.node_count + 1}}'`);
  await page.getByRole('tab', { name: 'Terraform' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Terraform code' })).toContainText('in place: node_count.');
  await shot(page, 'code-scale-pool-terraform');
  await page.getByRole('tab', { name: 'cURL' }).click();

  const out = await runCurl(sim, await page.getByRole('tabpanel', { name: 'cURL code' }).textContent());
  expect(out).toContain(`pool changed: ${demo.baseline}`);
  const after = await api('GET', `/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}`);
  expect(after.node_count).toBe(before.node_count + 1);
  expect(after.name).toBe(before.name);
});

test('create pool: the Go and the TypeScript on screen, built against Nirvana\'s SDKs, each make the pool Apply would make', async ({ sim, api, control, demo, open }) => {
  await quickOperations(control);
  const page = await open(`${clusterPath(demo)}/pools/new`);
  await page.getByLabel('Instance type').selectOption('n1-standard-4');
  await page.getByLabel('Labels').fill('team=ml');
  await page.getByLabel('Tags').fill("it's \"quoted\"");
  await page.getByLabel('Node count').fill('2');
  for (const [tab, runner, name] of [
    ['Go', runGo, 'from-go'],
    ['TypeScript', runTypeScript, 'from-ts'],
  ]) {
    await page.getByLabel('Name', { exact: true }).fill(name);
    await planned(page);
    const code = tab === 'Go' ? await codeTab(page, tab) : page.getByRole('tabpanel', { name: `${tab} code` });
    if (tab !== 'Go') await page.getByRole('tab', { name: tab }).click();
    await expect(code).toContainText(`"${name}"`);
    if (tab === 'TypeScript') await quickOperations(control);
    const out = await runner(sim, await code.textContent());
    expect(out.code, `${out.stdout}${out.stderr}`).toBe(0);
    const id = out.stdout.match(/pool made:? (\S+)/)?.[1];
    expect(id, `${out.stdout}${out.stderr}`).toBeTruthy();
    const pool = await api('GET', `/v1/nks/clusters/${demo.cluster}/pools/${id}`);
    expect(pool).toMatchObject({
      name,
      node_count: 2,
      status: 'ready',
      node_config: { instance_type: 'n1-standard-4', labels: ['team=ml'] },
      tags: ["it's \"quoted\""],
    });
  }
});

test('scale a pool: the Go on screen, built against Nirvana\'s Go SDK, sends node_count alone and the pool scales', async ({ sim, api, control, demo, open }) => {
  await quickOperations(control);
  const before = await api('GET', `/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}`);
  const page = await open(`${clusterPath(demo)}/pools/${demo.baseline}/edit`);
  await page.getByLabel('Node count').fill(String(before.node_count + 1));
  await planned(page);
  const code = await codeTab(page, 'Go');
  await expect(code).toContainText(`NodeCount: nirvana.Int(${before.node_count + 1})`);
  const out = await runGo(sim, await code.textContent());
  expect(out.code, `${out.stdout}${out.stderr}`).toBe(0);
  expect(out.stdout).toContain(demo.baseline);
  const after = await api('GET', `/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}`);
  expect(after.node_count).toBe(before.node_count + 1);
  expect(after).toMatchObject({ name: before.name, node_config: before.node_config, tags: before.tags });
});

test('a form with a problem shows no code, and says why', async ({ demo, open }) => {
  const page = await open(`${clusterPath(demo)}/pools/new`);
  await page.getByLabel('Node count').fill('101');
  await page.getByText('Code: cURL, Go, TypeScript, Terraform').click();
  const why = page.getByRole('status').filter({ hasText: 'No code yet: the API would refuse this change as the form stands' });
  await expect(why).toBeVisible();
  await expect(why.getByRole('listitem').filter({ hasText: 'Node count must be between 0 and 100.' })).toBeVisible();
  await shot(page, 'code-refused-why');
  await expect(page.getByRole('tabpanel')).toHaveCount(0);
  // Fixed, the code follows.
  await page.getByLabel('Name', { exact: true }).fill('fixed');
  await page.getByLabel('Instance type').selectOption('n1-standard-4');
  await page.getByLabel('Node count').fill('1');
  await expect(page.getByRole('tabpanel', { name: 'cURL code' })).toContainText('"name":"fixed"');
});

test('add a firewall rule: the cURL on screen makes the rule the dialog would add', async ({ sim, api, demo, open }) => {
  const cluster = await api('GET', `/v1/nks/clusters/${demo.cluster}`);
  const page = await open(`/projects/${demo.project}/networking/vpcs/${cluster.vpc_id}`);
  await page.getByRole('button', { name: 'Add rule' }).click();
  const form = page.getByRole('form', { name: 'Add firewall rule' });
  await form.getByLabel('Name').fill('from-curl');
  await form.getByLabel('Source (CIDR)').fill('198.51.100.0/24');
  await form.getByLabel('Destination (CIDR)').fill('10.20.0.243/32');
  await form.getByLabel('Destination ports').fill('80, 443');
  const curl = await codeTab(form, 'cURL');
  await expect(curl).toContainText(`/v1/networking/vpcs/${cluster.vpc_id}/firewall_rules`);
  await shot(page, 'code-add-rule-curl');
  const out = await runCurl(sim, await curl.textContent());
  const id = out.match(/firewall rule made: (\S+)/)?.[1];
  expect(id, out).toBeTruthy();
  const rule = await api('GET', `/v1/networking/vpcs/${cluster.vpc_id}/firewall_rules/${id}`);
  expect(rule).toMatchObject({
    name: 'from-curl',
    protocol: 'tcp',
    source_address: '198.51.100.0/24',
    destination_address: '10.20.0.243/32',
    destination_ports: ['80', '443'],
    status: 'ready',
  });
});

test('delete a node: the confirmation shows the DELETE, and Terraform says a node is not its resource', async ({ api, demo, open }) => {
  const nodes = await api('GET', `/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}/nodes`);
  const node = nodes.items[0];
  const page = await open(`${clusterPath(demo)}/pools/${demo.baseline}`);
  await page.getByRole('button', { name: `Delete node ${node.name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Delete node ${node.name}` });
  const curl = await codeTab(dialog, 'cURL');
  await expect(curl).toContainText(`-X DELETE "$base/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}/nodes/${node.id}"`);
  await dialog.getByRole('tab', { name: 'Terraform' }).click();
  await expect(dialog.getByRole('tabpanel', { name: 'Terraform code' })).toContainText('A node is not a Terraform resource');
  await shot(page, 'code-delete-node-terraform');
});

test('export a cluster to Terraform: its VPC, rules, cluster and pools, with import blocks, to copy or download', async ({ api, demo, open }) => {
  const cluster = await api('GET', `/v1/nks/clusters/${demo.cluster}`);
  const pools = await api('GET', `/v1/nks/clusters/${demo.cluster}/pools`);
  const page = await open(clusterPath(demo));
  await page.getByText('main.tf: the resources and their import blocks').click();
  const tf = page.getByRole('tabpanel', { name: 'Terraform export' });
  await expect(tf).toContainText(`resource "nirvana_nks_cluster" "${cluster.name}"`);
  await expect(tf).toContainText(`id = "${cluster.id}"`);
  await expect(tf).toContainText(/vpc_id += nirvana_networking_vpc\.\S+\.id/);
  for (const pool of pools.items) {
    await expect(tf).toContainText(`id = "${cluster.id}/${pool.id}"`);
  }
  await expect(tf).toContainText(`cluster_id = nirvana_nks_cluster.${cluster.name}.id`);
  // edge-prod autoscales: no pool's block pins the count the autoscaler moves, and the note says why.
  expect(cluster.autoscaling).toBe(true);
  const text = await tf.textContent();
  const ignored = text.match(/lifecycle \{\s*ignore_changes = \[node_count\]\s*\}/g) ?? [];
  expect(ignored, 'every pool ignores node_count changes').toHaveLength(pools.items.length);
  await expect(tf).toContainText('# The cluster autoscales: applying a stale node_count would scale down without drain.');
  await expect(page.getByText(/The cluster autoscales, so each pool ignores changes to node_count/)).toBeVisible();
  await shot(page, 'code-export-cluster');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download', exact: true }).click()]);
  expect(download.suggestedFilename()).toBe(`${cluster.name}.tf`);
});

test.describe('a new VPC, a cluster in it and its first pool', () => {
  // The empty world's one free VPC is taken, so Create cluster makes a new one.
  test.use({ seed: 'empty' });

  test('the cURL on screen makes all three, in order, each in the one before', async ({ sim, api, control, projects, open }) => {
    await vpcTaken(api, control, projects.Production);
    const page = await newVpcClusterForm(open, projects.Production);
    await planned(page);
    const curl = await codeTab(page, 'cURL');
    await expect(curl).toContainText('# Create pool.');
    await expect(curl).toContainText('# Create VPC.');
    await page.getByRole('tab', { name: 'Terraform' }).click();
    await expect(page.getByRole('tabpanel', { name: 'Terraform code' })).toContainText('vpc_id             = nirvana_networking_vpc.web-vpc.id');
    await shot(page, 'code-new-vpc-cluster-terraform');
    await page.getByRole('tab', { name: 'cURL' }).click();

    const out = await runCurl(sim, await page.getByRole('tabpanel', { name: 'cURL code' }).textContent());
    const [, vpcId] = out.match(/VPC made: (\S+)/) ?? [];
    const [, clusterId] = out.match(/cluster made: (\S+)/) ?? [];
    const [, poolId] = out.match(/pool made: (\S+)/) ?? [];
    expect(vpcId && clusterId && poolId, out).toBeTruthy();
    expect(await api('GET', `/v1/networking/vpcs/${vpcId}`)).toMatchObject({ name: 'web-vpc', status: 'ready' });
    expect(await api('GET', `/v1/nks/clusters/${clusterId}`)).toMatchObject({ name: 'web', vpc_id: vpcId, status: 'ready' });
    expect(await api('GET', `/v1/nks/clusters/${clusterId}/pools/${poolId}`)).toMatchObject({ cluster_id: clusterId, status: 'ready' });
  });
});

test('allow kubectl: the form shows the rule it would add, or why it would not', async ({ demo, open }) => {
  const page = await open(clusterPath(demo));
  await page.getByRole('button', { name: 'Allow kubectl from…' }).click();
  const form = page.getByRole('form', { name: 'Allow kubectl' });
  await form.getByLabel('Allow kubectl from (source range)').fill('198.51.100.7');
  await form.getByText('Code: cURL, Go, TypeScript, Terraform').click();
  await expect(form.getByRole('status').filter({ hasText: 'would refuse' }).getByRole('listitem')).toHaveCount(1);
  await form.getByLabel('Allow kubectl from (source range)').fill('198.51.100.7/32');
  await form.getByRole('tab', { name: 'cURL' }).click();
  const curl = form.getByRole('tabpanel', { name: 'cURL code' });
  await expect(curl).toContainText('"source_address":"198.51.100.7/32"');
  await expect(curl).toContainText('"destination_ports":["443"]');
});
