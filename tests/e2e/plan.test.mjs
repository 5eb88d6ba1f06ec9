// Plan before apply: availability, cost, quota and disruption beside the Apply
// button, on nks-sim's deterministic price table.
import { test, expect, shot } from './fixtures.mjs';

const clusterPath = (demo) => `/projects/${demo.project}/clusters/${demo.cluster}`;
const plan = (page) => page.getByRole('complementary', { name: 'Plan' });

test('an accepted create plan shows "can be done", the monthly total and its rows, and the quota', async ({ demo, open }) => {
  const page = await open(`${clusterPath(demo)}/pools/new`);
  await page.getByLabel('Name', { exact: true }).fill('extra');
  await page.getByLabel('Instance type').selectOption('n1-standard-4');
  await page.getByLabel('Boot volume size (GB)').fill('100');
  await page.getByLabel('Node count').fill('2');
  await expect(plan(page).getByText('Availability: can be done.')).toBeVisible();
  // 2 × n1-standard-4: 8 vCPU × 8.7600 + 32 GB × 1.1680 + 200 GB ABS × 0.1000 = 70.08 + 37.376 + 20.00
  const cost = plan(page).getByRole('table', { name: 'Cost' });
  await expect(cost.getByRole('row').filter({ hasText: '8' }).filter({ hasText: '$8.7600' }).filter({ hasText: '$70.08' }).first()).toBeVisible();
  await expect(plan(page).getByText(/Monthly total: \$\d/)).toBeVisible();
  await expect(plan(page).getByRole('list', { name: 'Quota' })).toContainText(/vCPU: needs 8, \d+ remaining of 256/);
  // Numbers of four digits and more are grouped, as every count is.
  await expect(plan(page).getByRole('list', { name: 'Quota' })).toContainText(/Memory \(GB\): needs 32, [\d,]+ remaining of 1,024/);
  await expect(plan(page).getByText(/Organisation: \$/)).toBeVisible();
  await shot(page, 'plan-accepted');
});

test('a plan the quota refuses names the field, and Apply stays disabled', async ({ demo, open }) => {
  const page = await open(`${clusterPath(demo)}/pools/new`);
  await page.getByLabel('Name', { exact: true }).fill('huge');
  await page.getByLabel('Instance type').selectOption('n1-standard-32');
  await page.getByLabel('Node count').fill('100');
  await expect(plan(page).getByText(/Availability: cannot be done/)).toBeVisible();
  const countField = page.locator('.field').filter({ has: page.getByLabel('Node count') });
  await expect(countField.getByRole('alert').filter({ hasText: /quota/i })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create pool' })).toBeDisabled();
  await expect(plan(page).getByRole('list', { name: 'Quota' })).toContainText(/vCPU: needs 3,200.*exceeds the quota/);
  await shot(page, 'plan-refused');
});

test('a scale-down plan lists the nodes it terminates, and the update shows the cost delta', async ({ api, demo, open }) => {
  const nodes = await api('GET', `/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}/nodes`);
  const page = await open(`${clusterPath(demo)}/pools/${demo.baseline}/edit`);
  await page.getByLabel('Node count').fill('2');
  const disruption = plan(page).getByRole('listitem').filter({ hasText: 'Manual scale-down' });
  await expect(disruption).toContainText(/1 node terminated without cordon or drain/);
  const names = nodes.items.map((n) => n.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  await expect(disruption).toContainText(new RegExp(names.join('|')));
  // 3 → 2 nodes of n1-standard-8: −8 vCPU × 8.7600 = −70.08 on compute_vcpu.
  const change = plan(page).getByRole('table', { name: 'Cost change' });
  await expect(change.getByRole('row').filter({ hasText: '24 → 16' }).filter({ hasText: '−$70.08' }).first()).toBeVisible();
  await expect(plan(page).getByText(/Monthly: \$[\d,.]+ → \$[\d,.]+ \(−\$/)).toBeVisible();
  await shot(page, 'plan-scale-down');
});

test('a plan that cannot be checked says so and leaves Apply available; editing is never blocked', async ({ control, demo, open }) => {
  await control.fault({
    match: { path_prefix: `/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}/availability` },
    action: { type: 'status', status: 503, message: 'maintenance' },
  });
  const page = await open(`${clusterPath(demo)}/pools/${demo.baseline}/edit`);
  await page.getByLabel('Node count').fill('4');
  await expect(plan(page).getByText(/Availability could not be checked; Apply is still possible/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save' })).toBeEnabled();
  await page.getByLabel('Tags').fill('still-typing');
  await expect(page.getByLabel('Tags')).toHaveValue('still-typing');
});

test('turning autoscaling off says what changes before it is applied', async ({ demo, open }) => {
  const page = await open(`${clusterPath(demo)}/edit`);
  await page.getByRole('radio', { name: 'Off' }).check();
  await expect(plan(page).getByText(/Autoscaling on → off: node counts freeze/)).toBeVisible();
  await expect(plan(page).getByText('Availability: can be done.')).toBeVisible();
});

test('the run-rate a plan predicts "after" is the run-rate the next plan says "now": computed exactly, rounded once', async ({ api, control, demo, open }) => {
  // Two pools of the cluster with memory: each one's memory cost has a fraction of a
  // cent (32 GB × $1.1680 = $37.376), which a sum of rounded figures loses.
  const zero = await api('PATCH', `/v1/nks/clusters/${demo.cluster}/pools/${demo.zero}`, { node_count: 1 });
  await control.finish({ id: zero.id });
  const billing = (page) => plan(page).getByText(/^Organisation: /);
  const figures = async (page) => {
    await expect(billing(page)).toBeVisible();
    const [, now, after] = (await billing(page).textContent()).match(/Organisation: \$([\d,.]+) a month now → \$([\d,.]+) after/);
    return { now, after };
  };
  // Scaled up one node at a time, three times: each change's "after" is checked against the next "now".
  let predicted = null;
  for (const count of ['4', '5', '6', '7']) {
    const page = await open(`${clusterPath(demo)}/pools/${demo.baseline}/edit`);
    await page.getByLabel('Node count').fill(count);
    await expect(plan(page).getByText(/Monthly: .* → /)).toBeVisible();
    const seen = await figures(page);
    if (predicted) expect(seen.now, `after the change to ${Number(count) - 1} nodes`).toBe(predicted);
    predicted = seen.after;
    if (count === '7') break;
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').filter({ hasText: /Update pool — operation .* is (pending|running)/ })).toBeVisible();
    await control.finish({ kind: 'nks_node_pool' });
    await expect(page.getByRole('heading', { name: 'baseline', exact: true })).toBeVisible();
    await page.close();
  }
});
