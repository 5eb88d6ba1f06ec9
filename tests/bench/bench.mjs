// The console's benchmark: size, load, render and polling cost, measured side by
// side in one run (medians of several runs where it matters), printed as a table
// and written to target/bench.json. Exits non-zero when a budget is missed.
//
//   node tests/bench/bench.mjs            full run
//   node tests/bench/bench.mjs --quick    size and polling cost only (CI)
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { startSim, DEMO_KEY } from '../e2e/support/sim.mjs';
import { startBrowser } from '../e2e/support/chromium.mjs';
import { largeCluster, scaleUp, nextRead } from './large.mjs';
import { startBareChromium } from './bare.mjs';
import { startCaddy, startNginx } from '../e2e/support/servers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = process.env.NKS_DIST || path.join(root, 'dist');
const quick = process.argv.includes('--quick');
// `--only NAME` runs one part (size, cold, network, scale, polling, memory) while working on it.
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const wanted = (part, inQuick) => (only ? only === part : inQuick || !quick);
const RUNS = quick ? 1 : 5;

const BUDGET = {
  // A cap, not the budget (issue 44): what a person feels is time, held by the
  // load budgets below (on loopback and through the shipped servers on a real
  // network); the gzip size of a new user's first load only may not pass this.
  firstLoadGzipKB: 320,
  // Issue 34: the clusters list with its capacity and cost columns, whose code
  // and reads come once the list is drawn.
  listCompleteGzipKB: 340,
  coldLoadMs: 300,
  // Issue 44: through the shipped server configurations, 60 ms away at 20 Mbps.
  networkLoadMs: 400,
  networkClusterPageMs: 350,
  coldFiguresMs: 600,
  poolsRenderMs: 100,
  rowUpdateMs: 2,
  pollingRpm: 30,
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const results = [];
function record(name, value, unit, budget, better = 'lower') {
  const ok = budget === undefined ? null : better === 'lower' ? value <= budget : value >= budget;
  results.push({ name, value: Math.round(value * 100) / 100, unit, budget: budget ?? null, ok });
}

// 1. Transfer: the wasm, js and css the browser fetches for a new user's first
// visit (the connect screen, the key typed and accepted, the cluster list),
// compressed as a server would send them. "First load" is what was asked for
// until the list was drawn; "list complete" adds what came after for its
// capacity and cost columns (their code is fetched once the list is drawn).
// Code loaded later still (other pages, src/app/lazy.rs) is only counted in
// "every page".
const compressed = (file) => {
  const data = readFileSync(path.join(dist, file));
  return {
    gz: zlib.gzipSync(data, { level: 9 }).length,
    br: zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
};
const fileOf = (pathname) => decodeURIComponent(pathname.split('/').pop());
const isCode = (f) => /\.(wasm|js|css)$/.test(f);

async function sizes(browser, sim) {
  const projects = await sim.api('GET', '/v1/projects');
  const prod = projects.items.find((p) => p.name === 'Production');
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  await page.goto(`${sim.url}/projects/${prod.id}/clusters`);
  await page.getByLabel('API key').fill(DEMO_KEY);
  await page.getByRole('button', { name: 'Connect' }).click();
  const drawn = await markTime(page, 'nks:clusters-rendered');
  await markTime(page, 'nks:figures-filled');
  await page.waitForLoadState('networkidle');
  // Each code file once, with when it was first asked for.
  const asked = new Map();
  const entries = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((r) => ({ path: new URL(r.name).pathname, start: r.startTime })));
  for (const { path: p, start } of entries) {
    const file = fileOf(p);
    if (isCode(file) && !asked.has(file)) asked.set(file, start);
  }
  await context.close();
  const files = [...asked.keys()].sort();
  const missing = files.filter((f) => !readdirSync(dist).includes(f));
  if (missing.length) throw new Error(`fetched files not in ${dist}: ${missing.join(', ')}`);
  const sum = (fs, key) => fs.reduce((n, f) => n + compressed(f)[key], 0) / 1024;
  const first = files.filter((f) => asked.get(f) < drawn);
  const after = files.filter((f) => asked.get(f) >= drawn);
  for (const f of files) {
    const when = asked.get(f) < drawn ? '' : ', after the list';
    record(`transfer ${f.replace(/-[0-9a-f]{16}/, '')} (gzip${when})`, compressed(f).gz / 1024, 'KB');
  }
  record(`first-load transfer, gzip (${first.length} files)`, sum(first, 'gz'), 'KB', BUDGET.firstLoadGzipKB);
  record('first-load transfer, brotli', sum(first, 'br'), 'KB');
  record(`list complete with its figures, gzip (${first.length + after.length} files)`, sum(files, 'gz'), 'KB', BUDGET.listCompleteGzipKB);
  const all = readdirSync(dist).filter(isCode);
  const total = all.reduce((n, f) => n + compressed(f).gz, 0);
  record(`every page's code, gzip (${all.length} files)`, total / 1024, 'KB');
}

async function newPage(browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await context.addInitScript((key) => sessionStorage.setItem('nks-console.api-key', key), DEMO_KEY);
  const page = await context.newPage();
  return { context, page };
}

async function markTime(page, name, timeout = 30_000) {
  await page.waitForFunction((n) => performance.getEntriesByName(n).length > 0, name, { timeout });
  return page.evaluate((n) => performance.getEntriesByName(n)[0].startTime, name);
}

// 2. Cold load: navigation to the cluster list drawn with data (the app's own
// `nks:clusters-rendered` mark), then to its capacity and cost columns filled
// (`nks:figures-filled`). Each load opens a fresh browser context (no HTTP
// cache, no compiled wasm) in a Chromium driven over a bare DevTools pipe
// (bare.mjs): Playwright's own instrumentation of a page costs it some 50 ms here.
// One load first, not counted: a browser's first page pays for its own start
// (processes, fonts), which a person's running browser has long done.
// The phases of the median load are printed, so the next cut is chosen from
// figures: the document, the code fetched, compiled and started, each API read,
// the first paint, the list drawn, its figures filled.
const COLD_RUNS = quick ? 1 : 9;

async function coldLoad(sim) {
  const projects = await sim.api('GET', '/v1/projects');
  const prod = projects.items.find((p) => p.name === 'Production');
  const chromium = await startBareChromium();
  const loads = [];
  try {
    for (let i = 0; i <= COLD_RUNS; i++) {
      const load = await chromium.openUntil(`${sim.url}/projects/${prod.id}/clusters`, {
        initScript: `sessionStorage.setItem('nks-console.api-key', ${JSON.stringify(DEMO_KEY)})`,
        marks: ['nks:clusters-rendered', 'nks:figures-filled'],
      });
      if (i > 0) loads.push(load);
    }
  } finally {
    await chromium.close();
  }
  const list = (l) => l.marks['nks:clusters-rendered'];
  const filled = (l) => l.marks['nks:figures-filled'];
  record('cold load to cluster list (median)', median(loads.map(list)), 'ms', BUDGET.coldLoadMs);
  const sorted = loads.map(list).sort((a, b) => a - b);
  results.push({ name: 'cold load, fastest–slowest', value: `${Math.round(sorted[0])}–${Math.round(sorted.at(-1))}`, unit: 'ms', budget: null, ok: null });
  record('cold load to the list\'s figures filled (median)', median(loads.map(filled)), 'ms', BUDGET.coldFiguresMs);
  const typical = [...loads].sort((a, b) => list(a) - list(b))[Math.floor((loads.length - 1) / 2)];
  for (const [phase, at] of coldPhases(typical)) {
    results.push({ name: `  phase: ${phase}`, value: Math.round(at), unit: 'ms', budget: null, ok: null });
  }
}

/** A load's phases in the order they ended: [what, ms from the navigation's start]. */
function coldPhases(load) {
  const code = load.fetched.filter((f) => isCode(fileOf(f.path)));
  const drawn = load.marks['nks:clusters-rendered'];
  const firstCode = code.filter((f) => f.start < drawn);
  const laterCode = code.filter((f) => f.start >= drawn);
  const phases = [
    ['document', load.document],
    [`code fetched (${firstCode.length} files)`, Math.max(...firstCode.map((f) => f.end))],
    ['compiled and started', load.marks['nks:started']],
    ['first paint', load.paint],
    ...load.fetched
      .filter((f) => f.path.startsWith('/v1/') || f.path.endsWith('config.json'))
      .map((f) => [`read ${f.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '{id}')} (asked at ${Math.round(f.start)})`, f.end]),
    ['list drawn', drawn],
    ...(laterCode.length ? [[`figures' code fetched (${laterCode.length} files)`, Math.max(...laterCode.map((f) => f.end))]] : []),
    ['figures filled', load.marks['nks:figures-filled']],
  ];
  return phases.filter(([, at]) => typeof at === 'number').sort((a, b) => a[1] - b[1]);
}

// 2b. On a real network, through the shipped servers: Debian's Caddy with
// deploy/Caddyfile and Debian's nginx with deploy/nginx.conf (as the e2e suite
// runs them, tests/e2e/support/servers.mjs) in front of the simulator, the browser
// 60 ms from them at 20 Mbps (Chromium's network emulation). A cold load to the
// list at each server's root site; then, through Caddy, a cluster's page opened
// from the list with its code not yet fetched, to its pools drawn.
const NETWORK = { latency: 60, downloadThroughput: 20e6 / 8, uploadThroughput: 20e6 / 8 };
const NETWORK_RUNS = 5;

async function networkLoads(sim) {
  const projects = await sim.api('GET', '/v1/projects');
  const prod = projects.items.find((p) => p.name === 'Production');
  const clusters = await sim.api('GET', `/v1/nks/clusters?project_id=${prod.id}`);
  const edge = clusters.items.find((c) => c.name === 'edge-prod');
  const chromium = await startBareChromium();
  const initScript = `sessionStorage.setItem('nks-console.api-key', ${JSON.stringify(DEMO_KEY)})`;
  try {
    for (const [name, start] of [['Caddy', startCaddy], ['nginx', startNginx]]) {
      const server = await start({ api: sim.url });
      try {
        const url = `${server.root.url}projects/${prod.id}/clusters`;
        const loads = [];
        const opens = [];
        for (let i = 0; i <= NETWORK_RUNS; i++) {
          const run = await chromium.openUntil(url, {
            initScript,
            network: NETWORK,
            marks: ['nks:clusters-rendered'],
            // The link a person clicks; the time from the click to the pools drawn.
            then: {
              expression: `(() => { performance.mark('bench:open-cluster'); document.querySelector('a[href$="/clusters/${edge.id}"]').click(); })()`,
              marks: ['bench:open-cluster', 'nks:pools-rendered'],
            },
          });
          if (i === 0) continue; // the browser's own start, as in the cold load above
          loads.push(run.loaded.marks['nks:clusters-rendered']);
          opens.push(run.then.marks['nks:pools-rendered'] - run.then.marks['bench:open-cluster']);
        }
        const spread = (xs) => `${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))}`;
        record(`cold load to the list through ${name}, 60 ms / 20 Mbps (median)`, median(loads), 'ms', BUDGET.networkLoadMs);
        results.push({ name: `  ${name}: fastest–slowest`, value: spread(loads), unit: 'ms', budget: null, ok: null });
        record(`open a cluster from the list through ${name}, code not yet fetched, to its pools (median)`, median(opens), 'ms', BUDGET.networkClusterPageMs);
      } finally {
        await server.close();
      }
    }
  } finally {
    await chromium.close();
  }
}

// 3. Scale: the large seed's 1,000-pool cluster page. All 1,000 pools are read,
// filtered and compared on every read; the rows of one page are drawn.
const POOLS_PER_PAGE = 50;
async function scale(browser, sim) {
  const { project: large, cluster: big, pools } = await largeCluster(sim);
  const times = [];
  const updates = [];
  const marks = (page) =>
    page.evaluate(() => {
      const at = (n) => performance.getEntriesByName(n).map((e) => e.startTime);
      return { loaded: at('nks:pools-loaded'), rendered: at('nks:pools-rendered'), updated: at('nks:pools-updated') };
    });
  const replaced = [];
  for (let i = 0; i < RUNS; i++) {
    const { context, page } = await newPage(browser);
    await page.goto(`${sim.url}/projects/${large.id}/clusters/${big.id}`);
    const loaded = await markTime(page, 'nks:pools-loaded', 60_000);
    const rendered = await markTime(page, 'nks:pools-rendered', 60_000);
    // The page shows the pools 50 at a time: its first page drawn, out of all 1,000 read.
    const rows = await page.locator('table[aria-label="Pools"] tbody tr').count();
    if (rows !== POOLS_PER_PAGE) throw new Error(`${rows} pool rows drawn, not a page of ${POOLS_PER_PAGE}`);
    const count = await page.getByRole('navigation', { name: 'Pool pages' }).locator('.pager-count').textContent();
    if (count !== `1\u2013${POOLS_PER_PAGE} of 1,000`) throw new Error(`the pager says "${count}", not 1,000 pools`);
    times.push(rendered - loaded);
    // One pool's status changes behind the console's back (a scale-up started
    // elsewhere): the next refresh must redraw that row and no other. Its script
    // time runs from the parsed read reaching the table (nks:pools-loaded) to the
    // table's DOM written (nks:pools-updated); fetching and parsing come before.
    const before = await marks(page);
    await page.evaluate(() => {
      window.__rowsAdded = 0;
      const body = document.querySelector('table[aria-label="Pools"] tbody');
      new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes) if (n.nodeName === 'TR') window.__rowsAdded += 1;
      }).observe(body, { childList: true });
    });
    // The pool scaled up is on the page shown (the API's order, first page).
    const target = pools[i];
    const row = page.locator(`table[aria-label="Pools"] tbody tr:has(a[href$="/pools/${target.id}"])`);
    if ((await row.count()) !== 1) throw new Error(`pool ${target.name} is not on the page shown`);
    await scaleUp(sim, big, target);
    await nextRead(page, before.loaded.length);
    const after = await marks(page);
    const k = before.loaded.length;
    updates.push(after.updated[k] - after.loaded[k]);
    await row.locator('.badge-updating').waitFor();
    replaced.push(await page.evaluate(() => window.__rowsAdded));
    await context.close();
  }
  record('1,000 pools: data to screen (median)', median(times), 'ms', BUDGET.poolsRenderMs);
  record('1,000 pools: one pool changed, script time (median)', median(updates), 'ms', BUDGET.rowUpdateMs);
  // Fine-grained: the change redraws exactly one row (the most in any run).
  record('1,000 pools: rows redrawn for one change (max)', Math.max(...replaced), 'rows', 1);
}

function operationRequests(counts) {
  return Object.entries(counts.by_route)
    .filter(([route]) => route.startsWith('GET /v1/operations'))
    .reduce((n, [, c]) => n + c, 0);
}

/** Starts `n` pool scale-ups in the large seed's big cluster; each lasts minutes. */
async function startOperations(sim, n) {
  const { project, cluster, pools } = await largeCluster(sim);
  const ops = [];
  for (const pool of pools.slice(0, n)) ops.push(await scaleUp(sim, cluster, pool));
  return { project: project.id, ops };
}

// 4. Polling cost: operation requests per minute, console vs the guide's loop.
// The three sizes are measured at the same time, each against a simulator of
// its own (its request counts are its own), in real time: polling runs on the
// browser's timers, so the window is the measure.
async function pollingCost(browser) {
  const warmup = 5_000;
  const window = quick ? 30_000 : 60_000;
  const sizes = [1, 10, 100];
  const measured = await Promise.all(sizes.map(async (n) => {
    const sim = await startSim({ timeScale: '1' });
    try {
      return await pollingAt(browser, sim, n, warmup, window);
    } finally {
      await sim.stop();
    }
  }));
  const perN = {};
  sizes.forEach((n, i) => {
    const { consoleRpm, referenceRpm } = measured[i];
    perN[n] = consoleRpm;
    record(`polling, ${n} in flight: console`, consoleRpm, 'req/min', BUDGET.pollingRpm);
    if (referenceRpm !== undefined) record(`polling, ${n} in flight: reference (5 s per op)`, referenceRpm, 'req/min');
  });
  // Flat in N: 100 operations may cost at most twice what one costs (pages of 100).
  const flat = perN[100] <= Math.max(2 * perN[1], perN[1] + 4);
  results.push({ name: 'polling flat in N (100 vs 1)', value: `${perN[1].toFixed(1)} → ${perN[100].toFixed(1)}`, unit: 'req/min', budget: '≤ 2×', ok: flat });
}

/** The console's operation requests per minute with `n` in flight, then the guide's loop's. */
async function pollingAt(browser, sim, n, warmup, window) {
  const { project, ops } = await startOperations(sim, n);
  const { context, page } = await newPage(browser);
  await page.goto(`${sim.url}/projects/${project}/clusters`);
  await page.waitForFunction(() => /[1-9]/.test(document.querySelector('.ops-count')?.textContent ?? ''), null, { timeout: 30_000 });
  await sleep(warmup);
  await sim.control('DELETE', '/_sim/requests');
  await sleep(window);
  const consoleRpm = (operationRequests(await sim.control('GET', '/_sim/requests')) * 60_000) / window;
  await context.close();
  // The reference has no budget: the quick run (the test command's) leaves it out.
  if (quick) return { consoleRpm };

  // The reference: the guide's WaitForOperation, one GET per operation every 5 s.
  await sim.control('DELETE', '/_sim/requests');
  const span = Math.min(window, 20_000);
  const stop = Date.now() + span;
  const loops = ops.map(async (op) => {
    while (Date.now() < stop) {
      await fetch(`${sim.url}/v1/operations/${op.id}`, { headers: { authorization: `Bearer ${DEMO_KEY}` } });
      await sleep(5_000);
    }
  });
  await Promise.all(loops);
  const referenceRpm = (operationRequests(await sim.control('GET', '/_sim/requests')) * 60_000) / span;
  return { consoleRpm, referenceRpm };
}

// 5. Memory: JS heap while operations come and go, sampled over time.
async function memory(browser, sim) {
  await sim.control('POST', '/_sim/reset', { seed: 'demo', time_scale: 0.005 });
  const projects = await sim.api('GET', '/v1/projects');
  const prod = projects.items.find((p) => p.name === 'Production');
  const clusters = await sim.api('GET', `/v1/nks/clusters?project_id=${prod.id}`);
  const cluster = clusters.items[0];
  const pools = await sim.api('GET', `/v1/nks/clusters/${cluster.id}/pools`);
  const baseline = pools.items.find((p) => p.name === 'baseline');
  const { context, page } = await newPage(browser);
  const cdp = await context.newCDPSession(page);
  await page.goto(`${sim.url}/projects/${prod.id}/clusters/${cluster.id}`);
  await markTime(page, 'nks:pools-rendered');
  const samples = [];
  const minutes = Number(process.env.NKS_BENCH_MEMORY_MINUTES || 3);
  const end = Date.now() + minutes * 60_000;
  let count = baseline.node_count;
  while (Date.now() < end) {
    count = count === 3 ? 4 : 3;
    await fetch(`${sim.url}/v1/nks/clusters/${cluster.id}/pools/${baseline.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${DEMO_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ node_count: count }),
    });
    await sleep(10_000);
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    samples.push(usedSize / 1024 / 1024);
  }
  await context.close();
  const half = Math.floor(samples.length / 2);
  const first = median(samples.slice(0, half));
  const last = median(samples.slice(half));
  record('JS heap, first half (median)', first, 'MB');
  record('JS heap, second half (median)', last, 'MB');
  results.push({ name: 'JS heap growth trend', value: `${(last - first).toFixed(2)}`, unit: 'MB', budget: '≤ 10 % of first half', ok: last - first <= first * 0.1 });
}

const sim = await startSim({ timeScale: '1' });
const browser = await startBrowser();
try {
  if (wanted('size', true)) await sizes(browser, sim);
  if (wanted('cold', false)) await coldLoad(sim);
  if (wanted('network', false)) await networkLoads(sim);
  if (wanted('scale', false)) await scale(browser, sim);
  if (wanted('polling', true)) await pollingCost(browser);
  if (wanted('memory', false)) await memory(browser, sim);
} finally {
  await browser.close();
  await sim.stop();
}

const width = Math.max(...results.map((r) => r.name.length));
console.log(`\n${'measure'.padEnd(width)}  ${'value'.padStart(14)}  budget     verdict`);
for (const r of results) {
  const verdict = r.ok === null ? '' : r.ok ? 'ok' : 'MISSED';
  console.log(`${r.name.padEnd(width)}  ${`${r.value} ${r.unit}`.padStart(14)}  ${String(r.budget ?? '').padEnd(9)}  ${verdict}`);
}
mkdirSync(path.join(root, 'target'), { recursive: true });
writeFileSync(path.join(root, 'target', 'bench.json'), JSON.stringify({ quick, results }, null, 2));
const missed = results.filter((r) => r.ok === false);
console.log(`\n${results.filter((r) => r.ok).length} passed, ${missed.length} failed`);
process.exit(missed.length ? 1 : 0);
