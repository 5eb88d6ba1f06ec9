// The guide's own program as the judge of nks-sim. Its package and its main are
// read from shared/reference/worker-autoscaling-guide.txt as written (the Go lines
// of the text, in order), built and vetted against Nirvana's Go SDK v1.94.2, and run
// against a simulator of their own with only the placeholder project and VPC ids
// replaced. It creates an autoscaling cluster, a pool, reads capacity and scales to
// 5. Then each of the guide's five outcomes is caused by a simulator fault, and the
// guide's `fatal` must take its branch: where it does not, the simulator is wrong.
import { readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { test, expect, DEMO_KEY, ROOT, startSim } from './fixtures.mjs';
import { SHARED, go, goModule, runProgram } from './support/golang.mjs';

const PROJECT_PLACEHOLDER = '123e4567-e89b-12d3-a456-426614174000';
const VPC_PLACEHOLDER = '123e4567-e89b-12d3-a456-426614174001';
const DIR = path.join(ROOT, 'target', 'guide');

/**
 * The guide's Go, as two files: the lines of the text that are Go (comments,
 * declarations, and the indented lines and closing brackets of their bodies; a
 * blank line inside a block stays), split at `package main`. The package's own
 * clause is the one line the guide leaves out: its import path is
 * "gocheck/nksworkers".
 */
function guideSources() {
  const text = readFileSync(path.join(SHARED, 'reference', 'worker-autoscaling-guide.txt'), 'utf8');
  const go = /^(\/\/|func |var |type |import \(|package |[})]|[ \t]+\S)/;
  const out = [];
  let inCode = false;
  for (const line of text.split('\n')) {
    if (go.test(line)) {
      if (!inCode && out.length) out.push('');
      out.push(line);
      inCode = true;
    } else if (line.trim() === '' && inCode) {
      out.push('');
    } else {
      inCode = false;
    }
  }
  const split = out.indexOf('package main');
  expect(split, 'the guide has a `package main`').toBeGreaterThan(0);
  return {
    library: ['package nksworkers', '', ...out.slice(0, split)].join('\n'),
    main: out.slice(split).join('\n'),
  };
}

test.describe.configure({ mode: 'serial' });

let binary;

test.beforeAll(async () => {
  // A first build compiles the SDK (about 80 s on two cores); later ones are cached.
  test.setTimeout(300_000);
  const { library, main } = guideSources();
  rmSync(DIR, { recursive: true, force: true });
  goModule(DIR, 'gocheck');
  mkdirSync(path.join(DIR, 'nksworkers'));
  writeFileSync(path.join(DIR, 'nksworkers', 'nksworkers.go'), library);
  writeFileSync(path.join(DIR, 'main.go'), main);
  binary = path.join(DIR, 'guide');
  await go(DIR, ['build', '-o', binary, '.']);
  await go(DIR, ['vet', './...']);
});

/**
 * A simulator of the run's own (time scale `timeScale`), the guide's main with the
 * two placeholders replaced by its Production project and free VPC, built; `prepare`
 * sets the fault. Answers the run's exit and output, and the simulator to read back.
 */
async function runGuide({ prepare = async () => {} } = {}) {
  // The guide polls an operation every 5 s of its own clock. So that its first read
  // finds each one ended, operations take simulated time at a scale that ends a
  // cluster's create in 60 ms, and the API takes 150 ms to answer a read of an
  // operation: a latency of the API's, as the simulator's faults give it, not a
  // wait of the test's.
  const sim = await startSim({ timeScale: 0.00005 });
  await sim.control.fault({ match: { method: 'GET', path_prefix: '/v1/operations' }, action: { type: 'latency', ms: 150 } });
  try {
    const projects = (await sim.api('GET', '/v1/projects')).items;
    const project = projects.find((p) => p.name === 'Production').id;
    const vpcs = (await sim.api('GET', `/v1/networking/vpcs?project_id=${project}`)).items;
    const vpc = vpcs.find((v) => v.name === 'prod-spare-vpc').id;
    const main = readFileSync(path.join(DIR, 'main.go'), 'utf8');
    expect(main.split(PROJECT_PLACEHOLDER).length - 1, 'one project placeholder').toBe(1);
    expect(main.split(VPC_PLACEHOLDER).length - 1, 'one VPC placeholder').toBe(1);
    const dir = path.join(DIR, `run-${sim.url.split(':').pop()}`);
    mkdirSync(dir, { recursive: true });
    goModule(dir, 'gocheck');
    mkdirSync(path.join(dir, 'nksworkers'));
    writeFileSync(path.join(dir, 'nksworkers', 'nksworkers.go'), readFileSync(path.join(DIR, 'nksworkers', 'nksworkers.go')));
    writeFileSync(path.join(dir, 'main.go'), main.replace(PROJECT_PLACEHOLDER, project).replace(VPC_PLACEHOLDER, vpc));
    await go(dir, ['build', '-o', 'guide', '.']);
    await prepare(sim);
    const result = await runProgram(path.join(dir, 'guide'), {
      env: { NIRVANA_LABS_API_KEY: DEMO_KEY, NIRVANA_LABS_BASE_URL: sim.url },
    });
    rmSync(dir, { recursive: true, force: true });
    return { ...result, sim, project, vpc, stop: () => sim.stop() };
  } catch (err) {
    await sim.stop();
    throw err;
  }
}

test('the guide builds and vets against the Go SDK, and runs against nks-sim to the end', async () => {
  expect(binary).toBeTruthy();
  const run = await runGuide();
  try {
    expect(run.stderr).not.toMatch(/fatal|gave up|rejected|could not reach|failed/i);
    expect(run.code, run.stderr).toBe(0);
    // ObserveCapacity printed the new pool as the API holds it.
    expect(run.stderr).toMatch(/pool compute \(n1-highcpu-16\): 1 nodes, ready=true/);
    // Read back: the autoscaling cluster in the VPC given, its pool scaled to 5.
    const clusters = (await run.sim.api('GET', `/v1/nks/clusters?project_id=${run.project}`)).items;
    const cluster = clusters.find((c) => c.name === 'production-workers');
    expect(cluster).toMatchObject({ autoscaling: true, kubernetes_version: 'v1.34.4', vpc_id: run.vpc, region: 'us-sva-2', status: 'ready' });
    expect(cluster.tags).toEqual(['production', 'workers']);
    const pools = (await run.sim.api('GET', `/v1/nks/clusters/${cluster.id}/pools`)).items;
    expect(pools).toHaveLength(1);
    expect(pools[0]).toMatchObject({ name: 'compute', node_count: 5, status: 'ready' });
    expect(pools[0].node_config).toMatchObject({
      instance_type: 'n1-highcpu-16',
      boot_volume: { size: 128, type: 'abs' },
      labels: ['workload=batch'],
      taints: ['dedicated=batch:NoSchedule'],
    });
  } finally {
    await run.stop();
  }
});

// Each outcome, caused on the cluster's create, and the branch of `fatal` it must take.
const CREATE = { method: 'POST', path: '/v1/nks/clusters' };
const outcomes = [
  {
    what: 'an operation that fails',
    prepare: (sim) => sim.control.nextOutcome({ outcome: 'failed', kind: 'nks_cluster' }),
    says: 'creating cluster: the platform ran the operation and it failed',
  },
  {
    what: 'a 422',
    prepare: (sim) => sim.control.fault({ match: CREATE, action: { type: 'status', status: 422, message: 'name is taken' } }),
    says: 'creating cluster: the API rejected the request with 422; fix it, retrying will not help',
  },
  {
    what: 'a sustained 503',
    prepare: (sim) => sim.control.fault({ match: CREATE, action: { type: 'status', status: 503, retry_after_ms: '20' } }),
    says: "creating cluster: the API returned 503 and the client's retries are already spent",
  },
  {
    what: 'a sustained 429',
    prepare: (sim) => sim.control.fault({ match: CREATE, action: { type: 'status', status: 429, retry_after_ms: '20' } }),
    says: "creating cluster: the API returned 429 and the client's retries are already spent",
  },
  {
    what: 'a dropped connection',
    prepare: (sim) => sim.control.fault({ match: CREATE, action: { type: 'drop' } }),
    says: 'creating cluster: could not reach the API',
  },
];

for (const { what, prepare, says } of outcomes) {
  test(`the guide's fatal tells ${what} for what it is`, async () => {
    const run = await runGuide({ prepare });
    try {
      expect(run.code, `${run.stdout}${run.stderr}`).not.toBe(0);
      expect(run.stderr).toContain(says);
      // The client retried what the guide says it retries, and nothing else.
      const sent = (await run.sim.control.requests()).by_route['POST /v1/nks/clusters'] ?? 0;
      expect(sent, 'creates sent').toBe(what === 'a 422' || what === 'an operation that fails' ? 1 : 4);
    } finally {
      await run.stop();
    }
  });
}
