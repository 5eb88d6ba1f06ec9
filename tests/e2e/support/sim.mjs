// nks-sim as a child process: started on a free loopback port, serving the
// release build from dist/, with its test controls (/_sim) and API (/v1) wrapped
// for the tests.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const DEMO_KEY = 'nks-demo-key';
export const DIST = process.env.NKS_DIST ? path.resolve(ROOT, process.env.NKS_DIST) : path.join(ROOT, 'dist');
const SIM_BIN = process.env.NKS_SIM_BIN || path.join(ROOT, 'target', 'debug', 'nks-sim');

/**
 * Starts nks-sim; resolves once it is listening. `timeScale` 1 is the API's own
 * pace: tests end operations with `control.finish()` or `control.advance()`.
 */
export async function startSim({ seed = 'demo', timeScale = 1, port = 0, extra = [] } = {}) {
  const args = ['--listen', `127.0.0.1:${port}`, '--seed', seed, '--time-scale', String(timeScale), '--dist', DIST, ...extra];
  const child = spawn(SIM_BIN, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  // A deadline on the start, not a wait: it fires only if no line comes.
  const deadline = AbortSignal.timeout(20_000);
  const url = await new Promise((resolve, reject) => {
    deadline.addEventListener('abort', () => reject(new Error('nks-sim did not start within 20 s')));
    child.once('exit', (code) => reject(new Error(`nks-sim exited early with ${code}`)));
    lines.on('line', (line) => {
      const m = line.match(/^nks-sim listening on (http:\/\/\S+)/);
      if (m) resolve(m[1]);
    });
  });
  return simAt(url, child);
}

async function send(url, method, route, { body, key } = {}) {
  const headers = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url + route, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: res.status, ok: res.ok, headers: res.headers, body: json };
}

/** The simulator at `url`, with its API and controls as functions. */
export function simAt(url, child = null) {
  /** Calls the API with the demo key; throws on an error status. Answers the JSON body (null for 204). */
  const api = async (method, route, body) => {
    const res = await send(url, method, route, { body, key: DEMO_KEY });
    if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  /** The API's whole answer, whatever its status: { status, ok, headers, body }. */
  api.send = (method, route, body, { key = DEMO_KEY } = {}) => send(url, method, route, { body, key });

  /** A test control under /_sim; throws on an error status. */
  const control = async (method, route, body) => {
    const res = await send(url, method, route, { body });
    if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  /** In-flight operations end now, as planned: all of them, or those of `{ id }` or `{ kind }`. */
  control.finish = (which = {}) => control('POST', '/_sim/operations/finish', which);
  /** Moves the simulator's clock forward; what was due meanwhile has happened. */
  control.advance = (ms) => control('POST', '/_sim/clock', { advance_ms: ms });
  control.fault = (spec) => control('POST', '/_sim/faults', spec);
  control.clearFaults = () => control('DELETE', '/_sim/faults');
  /** The next operation (of `kind`) fails, or sits in unknown. */
  control.nextOutcome = (spec) => control('POST', '/_sim/operations/next', spec);
  control.requests = () => control('GET', '/_sim/requests');
  control.clearRequests = () => control('DELETE', '/_sim/requests');
  control.timeScale = (timeScale) => control('POST', '/_sim/time-scale', { time_scale: timeScale });
  control.reset = ({ seed = 'demo', timeScale = 1, autoscaler = false } = {}) =>
    control('POST', '/_sim/reset', { seed, time_scale: timeScale, autoscaler });

  return {
    url,
    child,
    api,
    control,
    async stop() {
      if (!child || child.exitCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    },
  };
}

/** Names of the world's projects → ids. */
export async function projectIds(api) {
  const { items } = await api('GET', '/v1/projects');
  return Object.fromEntries(items.map((p) => [p.name, p.id]));
}

/** The demo seed's ids most tests start from: the Production project, its
 *  edge-prod cluster, and that cluster's baseline and batch-zero pools. */
export async function demoIds(api) {
  const projects = await projectIds(api);
  const project = projects.Production;
  const cluster = (await api('GET', `/v1/nks/clusters?project_id=${project}`)).items.find((c) => c.name === 'edge-prod');
  const pools = cluster ? (await api('GET', `/v1/nks/clusters/${cluster.id}/pools`)).items : [];
  const pool = (name) => pools.find((p) => p.name === name)?.id;
  return { project, cluster: cluster?.id, baseline: pool('baseline'), zero: pool('batch-zero') };
}
