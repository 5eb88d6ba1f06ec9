// Where the 1,000-pool cluster page spends its script time: samples the first
// render and then one pool's change with Chromium's profiler, and prints the
// functions with the most self time. A companion to bench.mjs, for working on
// its scale figures, not a check.
//
//   NKS_WASM_NAMES=1 trunk build --release   (names in the wasm, see split-build.sh)
//   node tests/bench/profile.mjs [--runs N]
import { startSim, DEMO_KEY } from '../e2e/support/sim.mjs';
import { startBrowser } from '../e2e/support/chromium.mjs';
import { largeCluster, scaleUp, nextRead } from './large.mjs';

const runs = process.argv.includes('--runs') ? Number(process.argv[process.argv.indexOf('--runs') + 1]) : 3;

const nameOf = (node) => node.callFrame.functionName || `(${node.callFrame.url.split('/').pop() || 'anonymous'})`;

/**
 * Self time per function name (ms), from a CDP Profiler.Profile, and total time
 * (self and callees) of the console's own functions, each counted once per sample.
 */
function selfTimes(profile, into, inclusive) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const deltas = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]);
    const name = nameOf(node);
    if (name === '(idle)' || name === '(program)') continue;
    const ms = (deltas[i + 1] ?? 0) / 1000;
    into.set(name, (into.get(name) ?? 0) + ms);
    const seen = new Set();
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const frame = nameOf(byId.get(id)).replace(/::h[0-9a-f]{16}$/, '').replace(/17h[0-9a-f]{16}E$/, '');
      if (frame.includes('nks_console') && !seen.has(frame)) {
        seen.add(frame);
        inclusive.set(frame, (inclusive.get(frame) ?? 0) + ms);
      }
    }
  }
}

function print(title, totals, count) {
  const rows = [...totals.entries()].sort((a, b) => b[1] - a[1]);
  const sum = rows.reduce((n, [, ms]) => n + ms, 0);
  console.log(`\n${title}: ${(sum / count).toFixed(2)} ms of samples per run`);
  for (const [name, ms] of rows.slice(0, 25)) {
    console.log(`${(ms / count).toFixed(3).padStart(9)} ms  ${name.slice(0, 150)}`);
  }
}

const sim = await startSim({ timeScale: '1' });
const browser = await startBrowser();
try {
  const { project: large, cluster: big, pools } = await largeCluster(sim);
  const render = new Map();
  const update = new Map();
  const renderTotal = new Map();
  const updateTotal = new Map();
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await context.addInitScript((key) => sessionStorage.setItem('nks-console.api-key', key), DEMO_KEY);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
    await cdp.send('Profiler.start');
    await page.goto(`${sim.url}/projects/${large.id}/clusters/${big.id}`);
    await page.waitForFunction(() => performance.getEntriesByName('nks:pools-rendered').length > 0, null, { timeout: 60_000 });
    selfTimes((await cdp.send('Profiler.stop')).profile, render, renderTotal);

    const loaded = await page.evaluate(() => performance.getEntriesByName('nks:pools-loaded').length);
    await cdp.send('Profiler.start');
    await scaleUp(sim, big, pools[i]);
    await nextRead(page, loaded);
    selfTimes((await cdp.send('Profiler.stop')).profile, update, updateTotal);
    await context.close();
  }
  print('first render (navigation to pools rendered), self time', render, runs);
  print('first render, the console\'s functions with their callees', renderTotal, runs);
  print('one pool changed (the whole wait, timers included), self time', update, runs);
  print('one pool changed, the console\'s functions with their callees', updateTotal, runs);
} finally {
  await browser.close();
  await sim.stop();
}
