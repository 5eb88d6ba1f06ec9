// Hosting the release build the way docs/self-hosting.md does (a prefix, a
// proxy of /v1), a portal page of another origin, and axe-core's checks.
import http from 'node:http';
import path from 'node:path';
import { readFile, stat } from 'node:fs/promises';
import { DIST as dist, ROOT as root } from './sim.mjs';

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
