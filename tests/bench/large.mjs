// The large seed's 1,000-pool cluster, as the benchmark and the profiler probe use it.
import { DEMO_KEY } from '../e2e/support/sim.mjs';

/** Resets the simulator to the large seed: its project, the big cluster, its first 100 pools. */
export async function largeCluster(sim) {
  await sim.control('POST', '/_sim/reset', { seed: 'large', time_scale: 1 });
  const projects = await sim.api('GET', '/v1/projects');
  const project = projects.items.find((p) => p.name === 'Large');
  const clusters = await sim.api('GET', `/v1/nks/clusters?project_id=${project.id}&limit=100`);
  const cluster = clusters.items.find((c) => c.name === 'big');
  const pools = await sim.api('GET', `/v1/nks/clusters/${cluster.id}/pools?limit=100`);
  return { project, cluster, pools: pools.items };
}

/** Scales `pool` up by one behind the console's back; the operation lasts minutes. */
export async function scaleUp(sim, cluster, pool) {
  const res = await fetch(`${sim.url}/v1/nks/clusters/${cluster.id}/pools/${pool.id}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${DEMO_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ node_count: pool.node_count + 1 }),
  });
  if (!res.ok) throw new Error(`scale ${pool.name}: ${res.status}`);
  return res.json();
}

/** Resolves once the pools table has read again (after `reads` reads) and written it. */
export function nextRead(page, reads) {
  return page.waitForFunction((n) => {
    const l = performance.getEntriesByName('nks:pools-loaded').length;
    return l > n && performance.getEntriesByName('nks:pools-updated').length >= l;
  }, reads, { timeout: 40_000 });
}
