// Plan before apply: availability, cost, quota and disruption beside the Apply
// button, on nks-sim's deterministic price table.
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
  await sim.control('DELETE', '/_sim/faults');
  const projects = await sim.api('/v1/projects');
  const production = projects.items.find((p) => p.name === 'Production');
  const clusters = await sim.api(`/v1/nks/clusters?project_id=${production.id}`);
  const cluster = clusters.items.find((c) => c.name === 'edge-prod');
  const pools = await sim.api(`/v1/nks/clusters/${cluster.id}/pools`);
  ids = { project: production.id, cluster: cluster.id, baseline: pools.items.find((p) => p.name === 'baseline').id };
});

async function open(path) {
  const { context, page } = await openPage(browser);
  await page.goto(sim.url + path);
  await connect(page);
  return { context, page };
}

const clusterPath = () => `/projects/${ids.project}/clusters/${ids.cluster}`;
const plan = (page) => page.getByRole('complementary', { name: 'Plan' });

test('an accepted create plan shows "can be done", the monthly total and its rows, and the quota', async () => {
  const { context, page } = await open(`${clusterPath()}/pools/new`);
  await page.getByLabel('Name', { exact: true }).fill('extra');
  await page.getByLabel('Instance type').selectOption('n1-standard-4');
  await page.getByLabel('Boot volume size (GB)').fill('100');
  await page.getByLabel('Node count').fill('2');
  await assert.doesNotReject(plan(page).getByText('Availability: can be done.').waitFor());
  // 2 × n1-standard-4: 8 vCPU × 8.7600 + 32 GB × 1.1680 + 200 GB ABS × 0.1000 = 70.08 + 37.376 + 20.00
  const cost = plan(page).getByRole('table', { name: 'Cost' });
  await cost.waitFor();
  const rows = await cost.getByRole('row').allTextContents();
  assert.ok(rows.some((r) => r.includes('8') && r.includes('$8.7600') && r.includes('$70.08')), rows.join(' | '));
  await assert.doesNotReject(plan(page).getByText(/Monthly total: \$\d/).waitFor());
  const quota = await plan(page).getByRole('list', { name: 'Quota' }).textContent();
  assert.match(quota, /vCPU: needs 8, \d+ remaining of 256/);
  await assert.doesNotReject(plan(page).getByText(/Organisation: \$/).waitFor());
  await shot(page, 'plan-accepted');
  await context.close();
});

test('a plan the quota refuses names the field, and Apply stays disabled', async () => {
  const { context, page } = await open(`${clusterPath()}/pools/new`);
  await page.getByLabel('Name', { exact: true }).fill('huge');
  await page.getByLabel('Instance type').selectOption('n1-standard-32');
  await page.getByLabel('Node count').fill('100');
  await assert.doesNotReject(plan(page).getByText(/Availability: cannot be done/).waitFor());
  const countField = page.locator('.field').filter({ has: page.getByLabel('Node count') });
  await assert.doesNotReject(countField.getByRole('alert').filter({ hasText: /quota/i }).waitFor());
  assert.equal(await page.getByRole('button', { name: 'Create pool' }).isDisabled(), true);
  const quota = await plan(page).getByRole('list', { name: 'Quota' }).textContent();
  assert.match(quota, /vCPU: needs 3200.*exceeds the quota/);
  await shot(page, 'plan-refused');
  await context.close();
});

test('a scale-down plan lists the nodes it terminates, and the update shows the cost delta', async () => {
  const nodes = await sim.api(`/v1/nks/clusters/${ids.cluster}/pools/${ids.baseline}/nodes`);
  const { context, page } = await open(`${clusterPath()}/pools/${ids.baseline}/edit`);
  await page.getByLabel('Node count').fill('2');
  const disruption = plan(page).getByRole('listitem').filter({ hasText: 'Manual scale-down' });
  await assert.doesNotReject(disruption.waitFor());
  const text = await disruption.textContent();
  assert.match(text, /1 node\(s\) terminated without cordon or drain/);
  assert.ok(nodes.items.some((n) => text.includes(n.name)), text);
  // 3 → 2 nodes of n1-standard-8: −8 vCPU × 8.7600 = −70.08 on compute_vcpu.
  const change = plan(page).getByRole('table', { name: 'Cost change' });
  await change.waitFor();
  const rows = await change.getByRole('row').allTextContents();
  assert.ok(rows.some((r) => r.includes('24 → 16') && r.includes('−$70.08')), rows.join(' | '));
  await assert.doesNotReject(plan(page).getByText(/Monthly: \$[\d,.]+ → \$[\d,.]+ \(−\$/).waitFor());
  await shot(page, 'plan-scale-down');
  await context.close();
});

test('a plan that cannot be checked says so and leaves Apply available; editing is never blocked', async () => {
  await sim.control('POST', '/_sim/faults', {
    match: { path_prefix: `/v1/nks/clusters/${ids.cluster}/pools/${ids.baseline}/availability` },
    action: { type: 'status', status: 503, message: 'maintenance' },
  });
  const { context, page } = await open(`${clusterPath()}/pools/${ids.baseline}/edit`);
  await page.getByLabel('Node count').fill('4');
  await assert.doesNotReject(plan(page).getByText(/Availability could not be checked; Apply is still possible/).waitFor({ timeout: 20_000 }));
  assert.equal(await page.getByRole('button', { name: 'Save' }).isEnabled(), true);
  await page.getByLabel('Tags').fill('still-typing');
  assert.equal(await page.getByLabel('Tags').inputValue(), 'still-typing');
  await context.close();
});

test('turning autoscaling off says what changes before it is applied', async () => {
  const { context, page } = await open(`${clusterPath()}/edit`);
  await page.getByRole('radio', { name: 'Off' }).check();
  await assert.doesNotReject(plan(page).getByText(/Autoscaling on → off: node counts freeze/).waitFor());
  await assert.doesNotReject(plan(page).getByText('Availability: can be done.').waitFor());
  await context.close();
});
