// End-to-end harness: starts nks-sim serving the release build, drives Debian's
// Chromium through playwright-core, and writes a screenshot of each tested page
// to target/screenshots/. Tests find elements by role and label, as a person would.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '../../tools/node_modules/playwright-core/index.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DEMO_KEY = 'nks-demo-key';
export const SHOTS = path.join(root, 'target', 'screenshots');
mkdirSync(SHOTS, { recursive: true });

const simBinary = process.env.NKS_SIM_BIN || path.join(root, 'target', 'debug', 'nks-sim');
const dist = process.env.NKS_DIST || path.join(root, 'dist');

/** Starts nks-sim on a free loopback port; resolves once it is listening. */
export async function startSim({ seed = 'demo', timeScale = '0.01', port = 0, extra = [] } = {}) {
  const args = ['--listen', `127.0.0.1:${port}`, '--seed', seed, '--time-scale', String(timeScale), '--dist', dist, ...extra];
  const child = spawn(simBinary, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('nks-sim did not start within 20 s')), 20_000);
    child.once('exit', (code) => reject(new Error(`nks-sim exited early with ${code}`)));
    lines.on('line', (line) => {
      const m = line.match(/^nks-sim listening on (http:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  return {
    url,
    child,
    async control(method, route, body) {
      const res = await fetch(url + route, {
        method,
        headers: body ? { 'content-type': 'application/json' } : {},
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      return text ? JSON.parse(text) : null;
    },
    async api(route) {
      const res = await fetch(url + route, { headers: { authorization: `Bearer ${DEMO_KEY}` } });
      return res.json();
    },
    async stop() {
      if (child.exitCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    },
  };
}

/** The Chromium the tests drive, and the flags this closed network needs. */
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches headless Chromium with those flags. */
export async function startBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
}

/** A fresh page that records console messages and every request it makes. */
export async function openPage(browser, { width = 1280, height = 860 } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  page.consoleLines = [];
  page.requestsMade = [];
  page.on('console', (msg) => page.consoleLines.push(msg.text()));
  page.on('pageerror', (err) => page.consoleLines.push(`pageerror: ${err.message}`));
  page.on('request', (req) => page.requestsMade.push({ url: req.url(), headers: req.headers() }));
  return { context, page };
}

/** Types the key on the connect screen and waits for the console to open. */
export async function connect(page, key = DEMO_KEY) {
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Connect' }).click();
}

export async function shot(page, name) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

// ---------------------------------------------------------------------------
// Hosting helpers (self-hosting and embedding tests).

import http from 'node:http';
import { readFile, stat } from 'node:fs/promises';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

async function listen(server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(resolve);
      }),
  };
}

function proxyTo(target, req, res) {
  const url = new URL(req.url, target);
  const upstream = http.request(
    url,
    { method: req.method, headers: { ...req.headers, host: url.host } },
    (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    res.writeHead(502).end();
  });
  req.pipe(upstream);
}

/**
 * Serves the release build the way docs/self-hosting.md configures nginx and
 * Caddy: the files of dist/ under `prefix`, index.html for any other path
 * under it with `<base href="/">` rewritten to the prefix, no-cache for
 * index.html and config.json, and `/v1` proxied to `api` (nks-sim).
 * `files` replaces files by name (a config.json of the test's own).
 * Every path asked for is kept in `requested`.
 */
export async function startHost({ prefix = '/', api, files = {} } = {}) {
  const requested = [];
  const server = http.createServer(async (req, res) => {
    const { pathname } = new URL(req.url, 'http://host');
    requested.push(pathname);
    if (api && (pathname === '/v1' || pathname.startsWith('/v1/'))) return proxyTo(api, req, res);
    if (pathname === prefix.replace(/\/$/, '') && prefix !== '/') {
      res.writeHead(301, { location: prefix }).end();
      return;
    }
    if (!pathname.startsWith(prefix)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('outside the console prefix');
      return;
    }
    const name = decodeURIComponent(pathname.slice(prefix.length));
    if (name in files) {
      res.writeHead(200, { 'content-type': TYPES[path.extname(name)] || 'text/plain', 'cache-control': 'no-cache' });
      res.end(files[name]);
      return;
    }
    const file = path.join(dist, path.normalize('/' + name));
    const isFile = name !== '' && (await stat(file).then((s) => s.isFile(), () => false));
    if (isFile && name !== 'index.html') {
      const hashed = /-[0-9a-f]{16}(_bg)?\.(js|wasm|css)$/.test(name);
      res.writeHead(200, {
        'content-type': TYPES[path.extname(name)] || 'application/octet-stream',
        'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
      });
      res.end(await readFile(file));
      return;
    }
    // The SPA fallback, with the prefix written into <base href> (nginx sub_filter).
    const html = (await readFile(path.join(dist, 'index.html'), 'utf8')).replace('<base href="/"', `<base href="${prefix}"`);
    res.writeHead(200, { 'content-type': TYPES['.html'], 'cache-control': 'no-cache' });
    res.end(html);
  });
  const { origin, close } = await listen(server);
  return { origin, url: origin + prefix, requested, close };
}

/**
 * A page of its own origin that answers `html` at every path: a portal that
 * embeds the console. `html` may be a function, called per request, for a page
 * that needs addresses known only after this server started.
 */
export async function startPortal(html) {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': TYPES['.html'] }).end(typeof html === 'function' ? html() : html);
  });
  return listen(server);
}

/** Runs axe-core (tools/node_modules) on the page; returns the serious and critical violations. */
export async function seriousViolations(page) {
  // Evaluated through the DevTools protocol, not added as a <script>: the page's
  // Content-Security-Policy rightly refuses scripts it does not know.
  await page.evaluate(await readFile(path.join(root, 'tools', 'node_modules', 'axe-core', 'axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** The demo seed's ids most tests start from: the Production project, its
 *  edge-prod cluster, and that cluster's baseline and batch-zero pools. */
export async function demoIds(sim) {
  const production = (await sim.api('/v1/projects')).items.find((p) => p.name === 'Production');
  const cluster = (await sim.api(`/v1/nks/clusters?project_id=${production.id}`)).items.find((c) => c.name === 'edge-prod');
  const pools = (await sim.api(`/v1/nks/clusters/${cluster.id}/pools`)).items;
  const pool = (name) => pools.find((p) => p.name === name).id;
  return { project: production.id, cluster: cluster.id, baseline: pool('baseline'), zero: pool('batch-zero') };
}

/** Calls the simulator's API with the demo key; fails the test on an error status. */
export async function apiCall(sim, method, route, body) {
  const res = await fetch(sim.url + route, {
    method,
    headers: { authorization: `Bearer ${DEMO_KEY}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** Waits, through the API, until the operation has ended (done or failed); returns it. */
export async function operationEnded(sim, opId, timeout = 40_000) {
  const until = Date.now() + timeout;
  for (;;) {
    const op = await apiCall(sim, 'GET', `/v1/operations/${opId}`);
    if (op.status === 'done' || op.status === 'failed') return op;
    if (Date.now() > until) throw new Error(`operation ${opId} still ${op.status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
