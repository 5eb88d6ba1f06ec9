// Capacity and cost where the resource is (issue 23, item 1), the part that fits
// the first-load budget today: the clusters list shows each cluster's region;
// the cluster page a summary line (nodes ready of all, vCPU, memory, monthly
// cost) and each pool's share; the pool page its cost and its nodes' readiness.
// Every expected figure is computed here from what the simulator's API holds
// (pools, instance types, its cost quotes), never typed in.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, shot, demoIds, apiCall } from './harness.mjs';

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
  ids = await demoIds(sim);
});

async function open(path, width = 1280) {
  const { context, page } = await openPage(browser, { width, height: 900 });
  await page.goto(sim.url + path);
  await connect(page);
  return { context, page };
}

/** Every item of a list endpoint, through its pagination. */
async function all(route) {
  const items = [];
  let cursor = null;
  for (;;) {
    const sep = route.includes('?') ? '&' : '?';
    const page = await sim.api(`${route}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    items.push(...page.items);
    cursor = page.pagination?.next_cursor;
    if (!cursor || page.items.length === 0) return items;
  }
}

const group = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** An API amount as the console writes it: `$1,234.50`, every decimal kept. */
function dollars(amount) {
  const [int, frac] = amount.split('.');
  return `$${group(int)}${frac !== undefined ? `.${frac}` : ''}`;
}

/** What the API holds for a cluster: its pools summed with their instance types, and its price. */
async function expected(cluster) {
  const types = await all('/v1/instance_types');
  const pools = await all(`/v1/nks/clusters/${cluster.id}/pools`);
  const size = (p) => types.find((t) => t.name === p.node_config.instance_type && t.region === cluster.region);
  const nodes = pools.reduce((n, p) => n + p.node_count, 0);
  const vcpu = pools.reduce((n, p) => n + p.node_count * size(p).vcpu, 0);
  const memory = pools.reduce((n, p) => n + p.node_count * size(p).memory_gb, 0);
  const quote = await apiCall(sim, 'PATCH', `/v1/nks/clusters/${cluster.id}/cost`, {});
  return { pools, types, size, nodes, vcpu, memory, cost: dollars(quote.before.monthly_total) };
}

/** The Region cell of the clusters table's row for `name`. */
async function regionOf(page, name) {
  const table = page.getByRole('table', { name: 'Clusters' });
  const row = table.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
  await row.waitFor();
  const headers = await table.locator('thead th').allTextContents();
  return (await row.locator('td').nth(headers.findIndex((h) => h.trim() === 'Region')).textContent()).trim();
}

test('the clusters list shows each cluster\'s region', async () => {
  const clusters = await all(`/v1/nks/clusters?project_id=${ids.project}`);
  assert.ok(clusters.length > 0);
  for (const width of [1280, 390]) {
    const { context, page } = await open(`/projects/${ids.project}/clusters`, width);
    for (const cluster of clusters) {
      assert.equal(await regionOf(page, cluster.name), cluster.region);
    }
    await shot(page, `capacity-clusters-${width}`);
    await context.close();
  }
});

test('the cluster page sums its nodes (ready of all), vCPU, memory and cost, and gives each pool its share', async () => {
  const cluster = await sim.api(`/v1/nks/clusters/${ids.cluster}`);
  const want = await expected(cluster);
  let ready = 0;
  for (const p of want.pools) {
    ready += (await all(`/v1/nks/clusters/${cluster.id}/pools/${p.id}/nodes`)).filter((n) => n.status === 'ready').length;
  }
  for (const width of [1280, 390]) {
    const { context, page } = await open(`/projects/${ids.project}/clusters/${ids.cluster}`, width);
    const figures = page.getByRole('list', { name: 'Capacity and cost' });
    await figures.waitFor();
    await page.waitForFunction(() => {
      const list = document.querySelector('[aria-label="Capacity and cost"]');
      return list && !list.textContent.includes('…');
    }, null, { timeout: 20_000 });
    const items = (await figures.getByRole('listitem').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    assert.deepEqual(items, [
      `Nodes ${group(ready)} of ${group(want.nodes)} ready`,
      `vCPU ${group(want.vcpu)}`,
      `Memory ${group(want.memory)} GB`,
      `Monthly cost ${want.cost}`,
    ]);
    const table = page.getByRole('table', { name: 'Pools' });
    const headers = await table.locator('thead th').allTextContents();
    const share = headers.findIndex((h) => h.trim() === 'Share of vCPU');
    assert.ok(share >= 0, 'the pools table has a share column');
    for (const p of want.pools) {
      const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: p.name, exact: true }) });
      const vcpu = p.node_count * want.size(p).vcpu;
      const percent = Math.floor((vcpu * 200 + want.vcpu) / (want.vcpu * 2));
      const text = percent === 0 && vcpu > 0 ? '<1%' : `${percent}%`;
      assert.equal((await row.locator('td').nth(share).textContent()).trim(), text, `${p.name}'s share`);
    }
    await shot(page, `capacity-cluster-${width}`);
    await context.close();
  }
});

test('the pool page shows what the pool costs a month and how many of its nodes are ready', async () => {
  const quote = await apiCall(sim, 'PATCH', `/v1/nks/clusters/${ids.cluster}/pools/${ids.baseline}/cost`, {});
  const nodes = await all(`/v1/nks/clusters/${ids.cluster}/pools/${ids.baseline}/nodes`);
  const ready = nodes.filter((n) => n.status === 'ready').length;
  assert.ok(nodes.length > 0);
  for (const width of [1280, 390]) {
    const { context, page } = await open(`/projects/${ids.project}/clusters/${ids.cluster}/pools/${ids.baseline}`, width);
    const figures = page.getByRole('list', { name: 'Cost and readiness' });
    await figures.waitFor();
    await page.waitForFunction(() => {
      const list = document.querySelector('[aria-label="Cost and readiness"]');
      return list && !list.textContent.includes('…');
    }, null, { timeout: 20_000 });
    const items = (await figures.getByRole('listitem').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    assert.deepEqual(items, [
      `Monthly cost ${dollars(quote.before.monthly_total)}`,
      `Nodes ${ready} of ${nodes.length} ready`,
    ]);
    await shot(page, `capacity-pool-${width}`);
    await context.close();
  }
});
