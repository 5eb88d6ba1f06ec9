// Capacity and cost where the resource is (issue 23, item 1): the clusters list
// shows each cluster's region, and on request (the "Capacity and cost" toggle,
// `figures=on` in the URL) its nodes, vCPU, memory and monthly cost; the cluster
// page a summary line (nodes ready of all, vCPU, memory, monthly cost) and each
// pool's share; the pool page its cost and its nodes' readiness. Every expected
// figure is computed here from what the simulator's API holds (pools, instance
// types, its cost quotes), never typed in. A figure that cannot be read says "—"
// and why, never a wrong sum; the list's reads go a few at a time, and a cluster
// of 1,000 pools is summed through every page, "≥" while incomplete.
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

/**
 * The cells of the clusters table's row for `name`, once its figures are read,
 * read at once in the page: a row the list redraws (its cluster changed) reads
 * its figures again, and a read in several steps could straddle that.
 */
async function rowFigures(page, name) {
  const table = page.getByRole('table', { name: 'Clusters' });
  await table.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) }).waitFor();
  const headers = (await table.locator('thead th').allTextContents()).map((h) => h.trim());
  const handle = await page.waitForFunction(
    ([n, cols]) => {
      const tr = [...document.querySelectorAll('table[aria-label="Clusters"] tbody tr')]
        .find((r) => r.querySelector('a')?.textContent === n);
      if (!tr) return null;
      const cells = [...tr.querySelectorAll('td')];
      const read = (label) => {
        const cell = cells[cols.indexOf(label)];
        const first = cell?.querySelector('span');
        if (!first) return null;
        return {
          text: first.textContent.trim(),
          all: cell.textContent.trim(),
          title: first.getAttribute('title'),
          align: getComputedStyle(cell).textAlign,
          numeric: getComputedStyle(cell).fontVariantNumeric,
        };
      };
      const figures = ['Nodes', 'vCPU', 'Memory', 'Monthly cost'].map(read);
      // Still being read ("…"), or a floor while more pages come (not a gap's).
      const pending = (f) => !f || f.text === '…' || (f.text.startsWith('≥') && !/ read; /.test(f.title ?? ''));
      if (figures.some(pending)) return null;
      const [nodes, vcpu, memory, cost] = figures;
      return { region: cells[cols.indexOf('Region')].textContent.trim(), nodes, vcpu, memory, cost };
    },
    [name, headers],
    { timeout: 30_000 },
  );
  return handle.jsonValue();
}

test('the clusters list shows each cluster\'s region, nodes, vCPU, memory and monthly cost as the API holds them', async () => {
  const clusters = await all(`/v1/nks/clusters?project_id=${ids.project}`);
  assert.ok(clusters.length > 0);
  for (const width of [1280, 390]) {
    const poolReads = async () => Object.entries((await sim.control('GET', '/_sim/requests')).by_path)
      .filter(([path]) => /^GET \/v1\/nks\/clusters\/[^/]+\/pools$/.test(path))
      .reduce((n, [, count]) => n + count, 0);
    const readsBefore = await poolReads();
    const { context, page } = await open(`/projects/${ids.project}/clusters`, width);
    // Asked for: a plain list reads no pools and has no such columns.
    const table = page.getByRole('table', { name: 'Clusters' });
    await table.waitFor();
    await page.waitForLoadState('networkidle');
    assert.equal(await poolReads(), readsBefore, 'no pool is read for a plain list');
    assert.equal(await table.getByRole('columnheader', { name: 'Monthly cost' }).count(), 0);
    const toggle = page.getByRole('button', { name: 'Capacity and cost' });
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    await toggle.click();
    await page.waitForURL(/[?&]figures=on/);
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    for (const cluster of clusters) {
      const want = await expected(cluster);
      const got = await rowFigures(page, cluster.name);
      assert.equal(got.region, cluster.region);
      assert.equal(got.nodes.text, group(want.nodes), `${cluster.name} nodes`);
      assert.equal(got.vcpu.text, group(want.vcpu), `${cluster.name} vCPU`);
      assert.equal(got.memory.text, `${group(want.memory)} GB`, `${cluster.name} memory`);
      assert.equal(got.cost.text, want.cost, `${cluster.name} monthly cost`);
      for (const figure of [got.nodes, got.vcpu, got.memory, got.cost]) {
        assert.equal(figure.align, 'right', 'figures read right-aligned');
        assert.match(figure.numeric, /tabular-nums/, 'in tabular figures');
      }
    }
    await shot(page, `capacity-clusters-${width}`);
    await context.close();
  }
});

test('the choice of the capacity and cost columns is kept on this device: the list opens as it was left', async () => {
  const { context, page } = await open(`/projects/${ids.project}/clusters`);
  const cost = page.getByRole('table', { name: 'Clusters' }).getByRole('columnheader', { name: 'Monthly cost' });
  const toggle = page.getByRole('button', { name: 'Capacity and cost' });
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  await toggle.click();
  await cost.waitFor();
  // Reopened without the URL's figures=on: still shown, the toggle pressed.
  await page.goto(`${sim.url}/projects/${ids.project}/clusters`);
  await cost.waitFor();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  // The navigation's own link opens it so too.
  await page.getByRole('link', { name: 'Operations', exact: true }).first().click();
  await page.getByRole('table', { name: 'Operations' }).waitFor();
  await page.getByRole('link', { name: 'Clusters', exact: true }).first().click();
  await cost.waitFor();
  // Turned off, it stays off.
  await toggle.click();
  await cost.waitFor({ state: 'detached' });
  assert.doesNotMatch(page.url(), /figures=/);
  await page.goto(`${sim.url}/projects/${ids.project}/clusters`);
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  assert.equal(await cost.count(), 0);
  await context.close();
});

test('a figure that cannot be read says "—" and why, never a wrong sum', async () => {
  const cluster = await sim.api(`/v1/nks/clusters/${ids.cluster}`);
  const want = await expected(cluster);
  // This cluster's pools cannot be read: its sizes are unknown, its price is still the API's.
  await sim.control('POST', '/_sim/faults', {
    match: { method: 'GET', path_prefix: `/v1/nks/clusters/${ids.cluster}/pools` },
    action: { type: 'status', status: 403, message: 'pools hidden for this test' },
  });
  let { context, page } = await open(`/projects/${ids.project}/clusters?figures=on`);
  let got = await rowFigures(page, cluster.name);
  for (const figure of [got.nodes, got.vcpu, got.memory]) {
    assert.equal(figure.text, '—');
    assert.match(figure.title, /The pools could not be read/);
    assert.match(figure.all, /The pools could not be read/, 'the reason is there for a screen reader too');
  }
  assert.equal(got.cost.text, want.cost);
  await shot(page, 'capacity-clusters-unreadable');
  await context.close();

  // The instance types cannot be read: nodes are still counted, vCPU and memory are not.
  await sim.control('DELETE', '/_sim/faults');
  await sim.control('POST', '/_sim/faults', {
    match: { method: 'GET', path_prefix: '/v1/instance_types' },
    action: { type: 'status', status: 403, message: 'no instance types' },
  });
  ({ context, page } = await open(`/projects/${ids.project}/clusters?figures=on`));
  got = await rowFigures(page, cluster.name);
  assert.equal(got.nodes.text, group(want.nodes));
  for (const figure of [got.vcpu, got.memory]) {
    assert.equal(figure.text, '—');
    assert.match(figure.title, /The instance types could not be read/);
  }
  await context.close();

  // The cost quote fails: "—" with the reason, the sizes still shown.
  await sim.control('DELETE', '/_sim/faults');
  await sim.control('POST', '/_sim/faults', {
    match: { method: 'PATCH', path_prefix: `/v1/nks/clusters/${ids.cluster}/cost` },
    action: { type: 'status', status: 403, message: 'no prices' },
  });
  ({ context, page } = await open(`/projects/${ids.project}/clusters?figures=on`));
  got = await rowFigures(page, cluster.name);
  assert.equal(got.vcpu.text, group(want.vcpu));
  assert.equal(got.cost.text, '—');
  assert.match(got.cost.title, /The cost could not be read/);
  await context.close();
  await sim.control('DELETE', '/_sim/faults');
});

test('a page of big\'s pools that cannot be read leaves the sum of the pages before it, said to be only that', async () => {
  await sim.control('POST', '/_sim/reset', { seed: 'large', time_scale: 0.01 });
  const large = (await sim.api('/v1/projects')).items.find((p) => p.name === 'Large');
  const big = (await all(`/v1/nks/clusters?project_id=${large.id}`)).find((c) => c.name === 'big');
  const want = await expected(big);
  const first700 = want.pools.slice(0, 700).reduce((n, p) => n + p.node_count, 0);
  await sim.control('POST', '/_sim/faults', {
    match: { method: 'GET', path_prefix: `/v1/nks/clusters/${big.id}/pools` },
    action: { type: 'page_fail', page: 8, status: 503 },
  });
  const { context, page } = await open(`/projects/${large.id}/clusters?figures=on`);
  const got = await rowFigures(page, 'big');
  assert.equal(got.nodes.text, `≥ ${group(first700)}`);
  assert.match(got.nodes.title, /^The sum of the 700 pools read; pools 701–1,000 could not be read\. /);
  assert.match(got.nodes.all, /The sum of the 700 pools read/, 'said to a screen reader too');
  assert.match(got.vcpu.text, /^≥ [\d,]+$/);
  assert.equal(got.cost.text, want.cost, 'the price is the API\'s own, whatever the pools read');
  await shot(page, 'capacity-large-gap');
  await context.close();
  await sim.control('DELETE', '/_sim/faults');
});

test('the Large project: at most 3 reads at once, 1,000 pools summed through every page, "≥" while incomplete', async () => {
  await sim.control('POST', '/_sim/reset', { seed: 'large', time_scale: 0.01 });
  const large = (await sim.api('/v1/projects')).items.find((p) => p.name === 'Large');
  const clusters = await all(`/v1/nks/clusters?project_id=${large.id}`);
  const big = clusters.find((c) => c.name === 'big');
  const want = await expected(big);
  assert.ok(want.pools.length > 100, 'big has more than one page of pools');
  // Each page of big's pools is slow, so its sum is seen before the last page.
  const slow = await sim.control('POST', '/_sim/faults', {
    match: { method: 'GET', path_prefix: `/v1/nks/clusters/${big.id}/pools` },
    action: { type: 'latency', ms: 700 },
  });
  await sim.control('DELETE', '/_sim/requests');
  const { context, page } = await openPage(browser, { width: 1280, height: 900 });
  let inFlight = 0;
  let most = 0;
  const figureRead = (url) => /\/v1\/(instance_types|nks\/clusters\/[^/?]+\/(pools|cost))/.test(url);
  page.on('request', (r) => { if (figureRead(r.url())) most = Math.max(most, ++inFlight); });
  const done = (r) => { if (figureRead(r.url())) inFlight -= 1; };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  await page.goto(`${sim.url}/projects/${large.id}/clusters?figures=on`);
  await connect(page);
  const bigRow = page.getByRole('table', { name: 'Clusters' }).getByRole('row')
    .filter({ has: page.getByRole('link', { name: 'big', exact: true }) });
  await bigRow.getByText(/^≥ [\d,]+$/).first().waitFor({ timeout: 60_000 });
  await shot(page, 'capacity-large-incomplete');
  await sim.control('DELETE', `/_sim/faults/${slow.id}`);
  const got = await rowFigures(page, 'big');
  assert.equal(got.nodes.text, group(want.nodes));
  assert.equal(got.vcpu.text, group(want.vcpu));
  assert.equal(got.memory.text, `${group(want.memory)} GB`);
  assert.equal(got.cost.text, want.cost);
  for (const c of clusters) {
    await page.waitForFunction((n) => {
      const tr = [...document.querySelectorAll('table[aria-label="Clusters"] tbody tr')]
        .find((r) => r.querySelector('a')?.textContent === n);
      return tr && !tr.textContent.includes('…') && !tr.textContent.includes('≥');
    }, c.name, { timeout: 60_000 });
  }
  assert.ok(most <= 3, `at most 3 figure reads at once (saw ${most})`);
  // One quote per cluster, big's pool pages once each, the others' one page each.
  const counts = (await sim.control('GET', '/_sim/requests')).by_route;
  assert.equal(counts['PATCH /v1/nks/clusters/{cluster_id}/cost'], clusters.length);
  assert.equal(counts['GET /v1/nks/clusters/{cluster_id}/pools'], clusters.length - 1 + Math.ceil(want.pools.length / 100));
  await shot(page, 'capacity-large');
  await context.close();
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
