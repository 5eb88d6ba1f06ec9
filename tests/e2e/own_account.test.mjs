// Your own account in one command: `scripts/run.sh --api URL` builds the console
// and serves it with Debian's Caddy and the shipped deploy/Caddyfile, /v1 forwarded
// to the API given over TLS, no simulator of its own. Here the API is the worker's
// nks-sim behind a TLS listener with a certificate this test makes, which Caddy
// trusts for this run only (SSL_CERT_FILE). The console connects with the key
// typed, lists, creates a pool and follows its operation to done through Caddy;
// Caddy's output never holds the key.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { test, expect, shot, connect, createPool, DEMO_KEY, ROOT } from './fixtures.mjs';
import { freePort } from './support/servers.mjs';

/** A certificate for 127.0.0.1 and localhost, made now, and its key. */
function makeCertificate(dir) {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=nks-sim test',
    '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
  ], { stdio: 'ignore' });
  return { key, cert };
}

/** https on a loopback port, each connection passed to `target` (host:port) as it is. */
async function tlsInFront(target, { key, cert }) {
  const { hostname, port } = new URL(target);
  const server = tls.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (socket) => {
    const upstream = net.connect(Number(port), hostname);
    socket.pipe(upstream).pipe(socket);
    const end = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', end);
    upstream.on('error', end);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `https://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

test('scripts/run.sh --api serves the console through the shipped Caddyfile to an https API: connect, list, create a pool, follow it to done', async ({ sim, control, api, demo, open }) => {
  // The script builds the console (into a folder of its own: the suite's dist/ is in use).
  test.setTimeout(300_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nks-own-account-'));
  const certificate = makeCertificate(dir);
  const https = await tlsInFront(sim.url, certificate);
  const listen = `127.0.0.1:${await freePort()}`;
  const run = spawn('bash', [path.join(ROOT, 'scripts', 'run.sh'), '--api', https.url], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NKS_LISTEN: listen,
      NKS_DIST: path.join('target', 'own-account-dist'),
      // Trusted by Caddy (Go's TLS) for this run only.
      SSL_CERT_FILE: certificate.cert,
    },
  });
  let output = '';
  const ready = new Promise((resolve, reject) => {
    const seen = (chunk) => {
      output += chunk;
      if (output.includes('"serving initial configuration"')) resolve();
    };
    run.stdout.on('data', seen);
    run.stderr.on('data', seen);
    run.once('exit', (code) => reject(new Error(`scripts/run.sh --api exited with ${code}:\n${output}`)));
  });
  try {
    await ready;
    expect(output).toContain(`NKS console:  http://${listen}`);
    expect(output, 'no simulator started').not.toContain('nks-sim listening');

    const page = await open(`http://${listen}/`, { connected: false });
    await expect(page.getByRole('heading', { name: 'Connect to Nirvana NKS' })).toBeVisible();
    await connect(page, DEMO_KEY);
    await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'edge-prod' })).toBeVisible();
    await page.getByRole('link', { name: 'edge-prod' }).click();
    await createPool(page, control, 'own-account');
    await shot(page, 'own-account-pool');
    const pools = (await api('GET', `/v1/nks/clusters/${demo.cluster}/pools`)).items;
    expect(pools.map((p) => p.name)).toContain('own-account');

    // A call the API never answers (each connection dropped; Go retries a GET once on
    // a reused connection) is logged by Caddy as an error, with the request: the key
    // is not in it, nor anywhere in Caddy's output.
    await control.fault({ match: { method: 'GET', path: '/v1/user' }, action: { type: 'drop' } });
    const dropped = await fetch(`http://${listen}/v1/user`, { headers: { authorization: `Bearer ${DEMO_KEY}` } });
    expect(dropped.status).toBe(502);
    await control.clearFaults();
    await expect.poll(() => output).toMatch(/"level":"error"[^\n]*reverse_proxy|reverse_proxy[^\n]*"level":"error"|"logger":"http\.log\.error/);
    expect(output).not.toContain(DEMO_KEY);
  } finally {
    if (run.exitCode === null) {
      const gone = new Promise((resolve) => run.once('exit', resolve));
      process.kill(-run.pid, 'SIGTERM');
      await gone;
    }
    await https.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
