// Capacity and cost where the resource is (issue 23, item 1): the clusters list
// shows each cluster's region and, once the list is drawn, its nodes, vCPU,
// memory and monthly cost (issue 34: on unless hidden with the "Capacity and
// cost" toggle, `figures=off` in the URL); the cluster
// page a summary line (nodes ready of all, vCPU, memory, monthly cost) and each
// pool's share; the pool page its cost and its nodes' readiness. Every expected
// figure is computed here from what the simulator's API holds (pools, instance
// types, its cost quotes), never typed in. A figure that cannot be read says "—"
// and why, never a wrong sum; the list's reads go a few at a time, and a cluster
// of 1,000 pools is summed through every page, "≥" while incomplete.
import { test, expect, shot, hold } from './fixtures.mjs';

const openAt = (open, path, width = 1280, more = {}) => open(path, { width, height: 900, ...more });

/** Every item of a list endpoint, through its pagination. */
async function all(api, route) {
  const items = [];
  let cursor = null;
  for (;;) {
    const sep = route.includes('?') ? '&' : '?';
    const page = await api('GET', `${route}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
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
async function expected(api, cluster) {
  const types = await all(api, '/v1/instance_types');
  const pools = await all(api, `/v1/nks/clusters/${cluster.id}/pools`);
  const size = (p) => types.find((t) => t.name === p.node_config.instance_type && t.region === cluster.region);
  const nodes = pools.reduce((n, p) => n + p.node_count, 0);
  const vcpu = pools.reduce((n, p) => n + p.node_count * size(p).vcpu, 0);
  const memory = pools.reduce((n, p) => n + p.node_count * size(p).memory_gb, 0);
  const quote = await api('PATCH', `/v1/nks/clusters/${cluster.id}/cost`, {});
  return { pools, types, size, nodes, vcpu, memory, cost: dollars(quote.before.monthly_total) };
}

/**
 * The cells of the clusters table's row for `name`, once its figures are read,
 * read at once in the page: a row the list redraws (its cluster changed) reads
 * its figures again, and a read in several steps could straddle that.
 */
async function rowFigures(page, name, { timeout } = {}) {
  const table = page.getByRole('table', { name: 'Clusters' });
  await expect(table.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) })).toBeVisible();
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
    { timeout },
  );
  return handle.jsonValue();
}

const poolReadsOf = (control) => async () =>
  Object.entries((await control.requests()).by_path)
    .filter(([path]) => /^GET \/v1\/nks\/clusters\/[^/]+\/pools$/.test(path))
    .reduce((n, [, count]) => n + count, 0);

test('the clusters list shows each cluster\'s region, nodes, vCPU, memory and monthly cost as the API holds them, without being asked', async ({ api, demo, open }) => {
  const clusters = await all(api, `/v1/nks/clusters?project_id=${demo.project}`);
  expect(clusters.length).toBeGreaterThan(0);
  for (const width of [1280, 390]) {
    // A device of its own at each width: hiding the columns is kept on the device.
    const page = await openAt(open, `/projects/${demo.project}/clusters`, width, { fresh: true });
    const table = page.getByRole('table', { name: 'Clusters' });
    await expect(table.getByRole('columnheader', { name: 'Monthly cost' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Capacity and cost' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page).not.toHaveURL(/figures=/);
    for (const cluster of clusters) {
      const want = await expected(api, cluster);
      const got = await rowFigures(page, cluster.name);
      expect(got.region).toBe(cluster.region);
      expect(got.nodes.text, `${cluster.name} nodes`).toBe(group(want.nodes));
      expect(got.vcpu.text, `${cluster.name} vCPU`).toBe(group(want.vcpu));
      expect(got.memory.text, `${cluster.name} memory`).toBe(`${group(want.memory)} GB`);
      expect(got.cost.text, `${cluster.name} monthly cost`).toBe(want.cost);
      for (const figure of [got.nodes, got.vcpu, got.memory, got.cost]) {
        expect(figure.align, 'figures read right-aligned').toBe('right');
        expect(figure.numeric, 'in tabular figures').toMatch(/tabular-nums/);
      }
    }
    await shot(page, `capacity-clusters-${width}`);
    await page.close();
  }
});

test('the list is drawn first: the figures\' code and reads are asked for once it is, "…" in their cells meanwhile', async ({ api, demo, open }) => {
  const cluster = await api('GET', `/v1/nks/clusters/${demo.cluster}`);
  const want = await expected(api, cluster);
  const list = `/projects/${demo.project}/clusters`;
  const page = await openAt(open, `${list}?figures=off`);
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  // The figures' reads are held here until the list has been seen without them.
  const figureReads = /\/v1\/nks\/clusters\/[^/?]+\/(pools|cost)/;
  const reads = await hold(page, figureReads);
  await page.goto(new URL(list, page.url()).href);
  const row = page.getByRole('table', { name: 'Clusters' }).getByRole('row')
    .filter({ has: page.getByRole('link', { name: cluster.name, exact: true }) });
  const reading = row.getByRole('cell').filter({ hasText: /^…/ });
  await expect(reading).toHaveCount(4);
  await expect(reading.first()).toHaveText('… being read');
  await expect.poll(() => reads.held.length, 'the figures\' reads are on their way').toBeGreaterThan(0);
  await shot(page, 'capacity-clusters-being-read');
  // Asked for after the list was drawn: the code of the figures and their reads.
  const order = await page.evaluate(() => {
    const drawn = performance.getEntriesByName('nks:clusters-rendered')[0].startTime;
    const asked = (re) => performance.getEntriesByType('resource').filter((r) => re.test(r.name)).map((r) => r.startTime);
    return { drawn, code: asked(/cluster_figures/), reads: asked(/\/v1\/nks\/clusters\/[^/?]+\/(pools|cost)/) };
  });
  expect(order.code.length, 'the figures\' code is a file of its own').toBeGreaterThan(0);
  for (const at of [...order.code, ...order.reads]) {
    expect(at, 'asked for after the list is drawn').toBeGreaterThanOrEqual(order.drawn);
  }
  reads.release();
  const got = await rowFigures(page, cluster.name);
  expect(got.nodes.text).toBe(group(want.nodes));
  expect(got.cost.text).toBe(want.cost);
});

test('hiding the capacity and cost columns is kept on this device: the list opens as it was left, and reads no pools', async ({ control, demo, open }) => {
  const path = `/projects/${demo.project}/clusters`;
  const poolReads = poolReadsOf(control);
  const page = await openAt(open, path);
  const reopen = () => page.goto(new URL(path, page.url()).href);
  const table = page.getByRole('table', { name: 'Clusters' });
  const cost = table.getByRole('columnheader', { name: 'Monthly cost' });
  const toggle = page.getByRole('button', { name: 'Capacity and cost' });
  await expect(cost).toBeVisible();
  await toggle.click();
  await expect(cost).toHaveCount(0);
  await expect(page).toHaveURL(/[?&]figures=off/);
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await page.waitForLoadState('networkidle');
  const readsShown = await poolReads();
  // Reopened without the URL's figures=off: still hidden, and no pool is read.
  // (Nothing is seen of a read not made: the check waits for the page's
  // network to fall quiet.)
  await reopen();
  await expect(table).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await poolReads(), 'no pool is read for a list without its figures').toBe(readsShown);
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await expect(cost).toHaveCount(0);
  // The navigation's own link opens it so too.
  await page.getByRole('link', { name: 'Operations', exact: true }).first().click();
  await expect(page.getByRole('table', { name: 'Operations' })).toBeVisible();
  await page.getByRole('link', { name: 'Clusters', exact: true }).first().click();
  await expect(table).toBeVisible();
  await expect(cost).toHaveCount(0);
  // A link that asks for them shows them, and the choice kept stays.
  await page.goto(new URL(`${path}?figures=on`, page.url()).href);
  await expect(cost).toBeVisible();
  await reopen();
  await expect(table).toBeVisible();
  await expect(cost).toHaveCount(0);
  // Shown again, they stay shown.
  await toggle.click();
  await expect(cost).toBeVisible();
  await expect(page).not.toHaveURL(/figures=/);
  await reopen();
  await expect(cost).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
});

test('a figure that cannot be read says "—" and why, never a wrong sum', async ({ api, control, demo, open }) => {
  const cluster = await api('GET', `/v1/nks/clusters/${demo.cluster}`);
  const want = await expected(api, cluster);
  const list = `/projects/${demo.project}/clusters`;
  // This cluster's pools cannot be read: its sizes are unknown, its price is still the API's.
  await control.fault({
    match: { method: 'GET', path_prefix: `/v1/nks/clusters/${demo.cluster}/pools` },
    action: { type: 'status', status: 403, message: 'pools hidden for this test' },
  });
  let page = await openAt(open, list);
  let got = await rowFigures(page, cluster.name);
  for (const figure of [got.nodes, got.vcpu, got.memory]) {
    expect(figure.text).toBe('—');
    expect(figure.title).toMatch(/The pools could not be read/);
    expect(figure.all, 'the reason is there for a screen reader too').toMatch(/The pools could not be read/);
  }
  expect(got.cost.text).toBe(want.cost);
  await shot(page, 'capacity-clusters-unreadable');
  await page.close();

  // The instance types cannot be read: nodes are still counted, vCPU and memory are not.
  await control.clearFaults();
  await control.fault({
    match: { method: 'GET', path_prefix: '/v1/instance_types' },
    action: { type: 'status', status: 403, message: 'no instance types' },
  });
  page = await openAt(open, list);
  got = await rowFigures(page, cluster.name);
  expect(got.nodes.text).toBe(group(want.nodes));
  for (const figure of [got.vcpu, got.memory]) {
    expect(figure.text).toBe('—');
    expect(figure.title).toMatch(/The instance types could not be read/);
  }
  await page.close();

  // The cost quote fails: "—" with the reason, the sizes still shown.
  await control.clearFaults();
  await control.fault({
    match: { method: 'PATCH', path_prefix: `/v1/nks/clusters/${demo.cluster}/cost` },
    action: { type: 'status', status: 403, message: 'no prices' },
  });
  page = await openAt(open, list);
  got = await rowFigures(page, cluster.name);
  expect(got.vcpu.text).toBe(group(want.vcpu));
  expect(got.cost.text).toBe('—');
  expect(got.cost.title).toMatch(/The cost could not be read/);
});

test.describe('the large world', () => {
  test.use({ seed: 'large' });

  test('a page of big\'s pools that cannot be read leaves the sum of the pages before it, said to be only that', async ({ api, control, projects, open }) => {
    const big = (await all(api, `/v1/nks/clusters?project_id=${projects.Large}`)).find((c) => c.name === 'big');
    const want = await expected(api, big);
    const first700 = want.pools.slice(0, 700).reduce((n, p) => n + p.node_count, 0);
    await control.fault({
      match: { method: 'GET', path_prefix: `/v1/nks/clusters/${big.id}/pools` },
      action: { type: 'page_fail', page: 8, status: 503 },
    });
    const page = await openAt(open, `/projects/${projects.Large}/clusters`);
    const got = await rowFigures(page, 'big');
    expect(got.nodes.text).toBe(`≥ ${group(first700)}`);
    expect(got.nodes.title).toMatch(/^The sum of the 700 pools read; pools 701–1,000 could not be read\. /);
    expect(got.nodes.all, 'said to a screen reader too').toMatch(/The sum of the 700 pools read/);
    expect(got.vcpu.text).toMatch(/^≥ [\d,]+$/);
    expect(got.cost.text, 'the price is the API\'s own, whatever the pools read').toBe(want.cost);
    await shot(page, 'capacity-large-gap');
  });

  test('the Large project: at most 3 reads at once, 1,000 pools summed through every page, "≥" while incomplete', async ({ api, control, projects, context, open }) => {
    const clusters = await all(api, `/v1/nks/clusters?project_id=${projects.Large}`);
    const big = clusters.find((c) => c.name === 'big');
    const want = await expected(api, big);
    expect(want.pools.length, 'big has more than one page of pools').toBeGreaterThan(100);
    // Each page of big's pools is slow, so its sum is seen before the last page.
    const slow = await control.fault({
      match: { method: 'GET', path_prefix: `/v1/nks/clusters/${big.id}/pools` },
      action: { type: 'latency', ms: 700 },
    });
    await control.clearRequests();
    // The figure reads in flight at once, counted from the tab's first request.
    let inFlight = 0;
    let most = 0;
    const figureRead = (url) => /\/v1\/(instance_types|nks\/clusters\/[^/?]+\/(pools|cost))/.test(url);
    context.on('request', (r) => {
      if (figureRead(r.url())) most = Math.max(most, ++inFlight);
    });
    const done = (r) => {
      if (figureRead(r.url())) inFlight -= 1;
    };
    context.on('requestfinished', done);
    context.on('requestfailed', done);
    const page = await openAt(open, `/projects/${projects.Large}/clusters`, 1280, { context });
    const table = page.getByRole('table', { name: 'Clusters' });
    const bigRow = table.getByRole('row').filter({ has: page.getByRole('link', { name: 'big', exact: true }) });
    // The list reads its 40 clusters' figures three at a time, the 40 price
    // quotes first: big's first page of pools comes after them, and on a
    // loaded machine that queue alone has taken over 10 s. So have big's
    // remaining pages and the other 39 clusters' pools.
    const QUEUED = { timeout: 30_000 };
    await expect(bigRow.getByText(/^≥ [\d,]+$/).first()).toBeVisible(QUEUED);
    await shot(page, 'capacity-large-incomplete');
    await control('DELETE', `/_sim/faults/${slow.id}`);
    const got = await rowFigures(page, 'big', QUEUED);
    expect(got.nodes.text).toBe(group(want.nodes));
    expect(got.vcpu.text).toBe(group(want.vcpu));
    expect(got.memory.text).toBe(`${group(want.memory)} GB`);
    expect(got.cost.text).toBe(want.cost);
    // Every row read to its end: none still "…" or "≥".
    await expect(table.locator('tbody tr')).toHaveCount(clusters.length);
    await expect(table.locator('tbody tr').filter({ hasText: /…|≥/ })).toHaveCount(0, QUEUED);
    expect(most, `at most 3 figure reads at once (saw ${most})`).toBeLessThanOrEqual(3);
    // One quote per cluster, big's pool pages once each, the others' one page each.
    const counts = (await control.requests()).by_route;
    expect(counts['PATCH /v1/nks/clusters/{cluster_id}/cost']).toBe(clusters.length);
    expect(counts['GET /v1/nks/clusters/{cluster_id}/pools']).toBe(clusters.length - 1 + Math.ceil(want.pools.length / 100));
    await shot(page, 'capacity-large');
  });
});

test('the cluster page sums its nodes (ready of all), vCPU, memory and cost, and gives each pool its share', async ({ api, demo, open }) => {
  const cluster = await api('GET', `/v1/nks/clusters/${demo.cluster}`);
  const want = await expected(api, cluster);
  let ready = 0;
  for (const p of want.pools) {
    ready += (await all(api, `/v1/nks/clusters/${cluster.id}/pools/${p.id}/nodes`)).filter((n) => n.status === 'ready').length;
  }
  for (const width of [1280, 390]) {
    const page = await openAt(open, `/projects/${demo.project}/clusters/${demo.cluster}`, width);
    const figures = page.getByRole('list', { name: 'Capacity and cost' });
    // Each figure once read (none "…" any more), as the API's holdings add up.
    await expect(figures.getByRole('listitem')).toHaveText([
      `Nodes ${group(ready)} of ${group(want.nodes)} ready`,
      `vCPU ${group(want.vcpu)}`,
      `Memory ${group(want.memory)} GB`,
      `Monthly cost ${want.cost}`,
    ]);
    const table = page.getByRole('table', { name: 'Pools' });
    await expect(table).toBeVisible();
    const headers = await table.locator('thead th').allTextContents();
    const share = headers.findIndex((h) => h.trim() === 'Share of vCPU');
    expect(share, 'the pools table has a share column').toBeGreaterThanOrEqual(0);
    for (const p of want.pools) {
      const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: p.name, exact: true }) });
      const vcpu = p.node_count * want.size(p).vcpu;
      const percent = Math.floor((vcpu * 200 + want.vcpu) / (want.vcpu * 2));
      const text = percent === 0 && vcpu > 0 ? '<1%' : `${percent}%`;
      await expect(row.locator('td').nth(share), `${p.name}'s share`).toHaveText(text);
    }
    await shot(page, `capacity-cluster-${width}`);
    await page.close();
  }
});

test('the pool page shows what the pool costs a month and how many of its nodes are ready', async ({ api, demo, open }) => {
  const quote = await api('PATCH', `/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}/cost`, {});
  const nodes = await all(api, `/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}/nodes`);
  const ready = nodes.filter((n) => n.status === 'ready').length;
  expect(nodes.length).toBeGreaterThan(0);
  for (const width of [1280, 390]) {
    const page = await openAt(open, `/projects/${demo.project}/clusters/${demo.cluster}/pools/${demo.baseline}`, width);
    const figures = page.getByRole('list', { name: 'Cost and readiness' });
    // Each figure once read (none "…" any more), as the API gives them.
    await expect(figures.getByRole('listitem')).toHaveText([
      `Monthly cost ${dollars(quote.before.monthly_total)}`,
      `Nodes ${ready} of ${nodes.length} ready`,
    ]);
    await shot(page, `capacity-pool-${width}`);
    await page.close();
  }
});
