import NirvanaLabs from '@nirvana-labs/nirvana';

// The key is read from NIRVANA_LABS_API_KEY, the API from NIRVANA_LABS_BASE_URL.
const client = new NirvanaLabs({
  baseURL: process.env['NIRVANA_LABS_BASE_URL'] || "http://127.0.0.1:8080",
});

// Follows an operation until it is done or failed (pending, running and
// unknown are not terminal) and returns the id of the resource it changed.
async function waitFor(id: string): Promise<string> {
  for (;;) {
    const op = await client.operations.get(id);
    if (op.status === 'done') return op.resource_id;
    if (op.status === 'failed') throw new Error(`operation ${id} failed`);
    await new Promise((resolve) => setTimeout(resolve, 5000));
  }
}

// Create pool.
const op1 = await client.nks.clusters.pools.create("cluster-1", {
  name: "web",
  node_count: 3,
  node_config: {
    instance_type: "n1-standard-4",
    boot_volume: {
      size: 100,
      type: "abs",
    },
    labels: ["tier=web"],
    taints: ["dedicated=web:NoSchedule"],
  },
  tags: ["team"],
});
const poolId = await waitFor(op1.id);
console.log('pool made:', poolId);
