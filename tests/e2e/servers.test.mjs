// The shipped server configurations, run for real (support/servers.mjs): Debian's
// Caddy with deploy/Caddyfile and Debian's nginx with deploy/nginx.conf, each at
// its root site and its /tools/nks/ site, in front of the worker's nks-sim. In
// Chromium: the console loads and connects, a new pool is created through /v1 and
// followed to done, a deep link reloads to the same page, no page reports a CSP
// violation, and every response carries the headers docs/self-hosting.md promises.
import { readFileSync, readdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { test as base, expect, shot, connect, createPool, DIST } from './fixtures.mjs';
import { SERVERS, loaderHash, startCaddy } from './support/servers.mjs';

const HASHED = /-[0-9a-f]{16}(_bg)?\.(js|wasm|css)$/;
const YEAR = 'public, max-age=31536000, immutable';

/** Records the page's CSP refusals, in every document it loads. */
const watchCsp = (page) =>
  page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
const cspViolations = (page) => page.evaluate(() => window.__cspViolations);

/** One GET of `url` with `accept-encoding`, its body as sent (not decoded). */
function rawGet(url, acceptEncoding) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

const mainWasm = () => readdirSync(DIST).find((f) => /_bg\.wasm$/.test(f));

for (const [serverName, start] of Object.entries(SERVERS)) {
  const test = base.extend({
    server: async ({ sim }, use) => {
      const server = await start({ api: sim.url });
      await use(server);
      await server.close();
    },
  });
  // These tests read the requests and responses of the page.
  test.use({ recordRequests: true });

  for (const siteName of ['root', 'prefix']) {
    test(`${serverName}, ${siteName} site: the console connects, creates a pool through /v1 and follows it to done, a deep link reloads, no CSP violation`, async ({ server, control, api, demo, open }) => {
      const site = server[siteName];
      const page = await open(site.url, { connected: false, beforeLoad: watchCsp });
      await expect(page.getByRole('heading', { name: 'Connect to Nirvana NKS' })).toBeVisible();
      await connect(page);
      await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
      await expect(page).toHaveURL((url) => url.pathname.startsWith(`${site.base}projects/`));

      await page.getByRole('link', { name: 'edge-prod' }).click();
      const name = `via-${serverName}-${siteName}`;
      await createPool(page, control, name);
      expect(new URL(page.url()).pathname.startsWith(`${site.base}projects/${demo.project}/clusters/`)).toBe(true);
      await shot(page, `server-${serverName}-${siteName}-pool`);

      // Every call the console made went to its own origin, and the server took it to
      // the API: the pool is there, read back from nks-sim itself.
      const calls = page.requestsMade.filter((r) => new URL(r.url).pathname.startsWith('/v1/'));
      expect(calls.length).toBeGreaterThan(0);
      for (const r of calls) expect(new URL(r.url).origin, r.url).toBe(site.origin);
      expect(calls.some((r) => r.method === 'POST' && r.url.endsWith(`/v1/nks/clusters/${demo.cluster}/pools`))).toBe(true);
      const pools = (await api('GET', `/v1/nks/clusters/${demo.cluster}/pools`)).items;
      expect(pools.map((p) => p.name)).toContain(name);
      expect(await cspViolations(page), 'CSP violations').toEqual([]);

      // The pool's page is a deep link: a reload is served the app, which opens it again.
      const deep = page.url();
      expect(new URL(deep).pathname).toMatch(new RegExp(`^${site.base}projects/[^/]+/clusters/[^/]+/pools/[^/]+$`));
      await page.reload();
      await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Nodes' })).toBeVisible();
      expect(page.url()).toBe(deep);
      await page.waitForLoadState('networkidle');
      expect(await cspViolations(page), 'CSP violations after the reload').toEqual([]);
    });

    test(`${serverName}, ${siteName} site: the headers docs/self-hosting.md promises, and the precompressed files`, async ({ server, demo, open }) => {
      const site = server[siteName];
      const responses = [];
      const deep = `${site.url}projects/${demo.project}/clusters/${demo.cluster}`;
      const page = await open(deep, { beforeLoad: (p) => p.on('response', (r) => responses.push(r)) });
      await expect(page.getByRole('table', { name: 'Pools' })).toBeVisible();
      await page.waitForLoadState('networkidle');

      const headersOf = async (r) => ({
        url: r.url(),
        status: r.status(),
        accepted: (await r.request().allHeaders())['accept-encoding'] ?? '',
        ...(await r.allHeaders()),
      });
      const all = await Promise.all(responses.filter((r) => new URL(r.url()).origin === site.origin).map(headersOf));
      const byPath = (test) => all.filter((h) => test(new URL(h.url).pathname));

      // The page (the app served for a deep link): the policy with this build's
      // loader hash and frame-ancestors, revalidated on every load.
      const [doc] = byPath((p) => p === new URL(deep).pathname);
      expect(doc.status).toBe(200);
      expect(doc['content-type']).toMatch(/^text\/html/);
      expect(doc['cache-control']).toBe('no-cache');
      expect(doc['x-content-type-options']).toBe('nosniff');
      expect(doc['referrer-policy']).toBe('no-referrer');
      const csp = doc['content-security-policy'];
      expect(csp).toContain(`script-src 'self' 'wasm-unsafe-eval' ${loaderHash()}`);
      expect(csp).toContain("frame-ancestors 'self' https://portal.example.com");
      expect(csp).toContain("connect-src 'self'");

      const [config] = byPath((p) => p.endsWith('/config.json'));
      expect(config['cache-control']).toBe('no-cache');

      const hashed = byPath((p) => HASHED.test(p));
      expect(hashed.map((h) => path.extname(new URL(h.url).pathname)).sort()).toEqual(expect.arrayContaining(['.css', '.js', '.wasm']));
      for (const h of hashed) {
        expect(h['cache-control'], h.url).toBe(YEAR);
        expect(h['content-security-policy'], h.url).toBe(csp);
        // Where Chromium accepts br, Caddy sends the build's .br; nginx (no brotli
        // module) and Caddy otherwise the .gz.
        const br = serverName === 'caddy' && /\bbr\b/.test(h.accepted);
        expect(h['content-encoding'], `${h.url} (accept-encoding: ${h.accepted})`).toBe(br ? 'br' : 'gzip');
        expect(h.vary ?? '', h.url).toMatch(/accept-encoding/i);
      }
      for (const h of hashed.filter((h) => h.url.endsWith('.wasm'))) expect(h['content-type'], h.url).toBe('application/wasm');
      // The API answers pass through with the API's own headers, compressed or not as it chose.
      expect(byPath((p) => p.startsWith('/v1/')).every((h) => h.status === 200)).toBe(true);

      // The precompressed files, byte for byte: brotli where the docs say so (Caddy),
      // gzip otherwise, and the same bytes as the build's once decoded.
      const wasm = mainWasm();
      const url = `${site.url}${wasm}`;
      const original = readFileSync(path.join(DIST, wasm));
      const gz = await rawGet(url, 'gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gz.headers['content-type']).toBe('application/wasm');
      expect(zlib.gunzipSync(gz.body).equals(original)).toBe(true);
      expect(gz.body.equals(readFileSync(path.join(DIST, `${wasm}.gz`))), 'the build\'s own .gz is sent').toBe(true);
      const br = await rawGet(url, 'br, gzip');
      if (serverName === 'caddy') {
        expect(br.headers['content-encoding']).toBe('br');
        expect(br.body.equals(readFileSync(path.join(DIST, `${wasm}.br`))), 'the build\'s own .br is sent').toBe(true);
        expect(zlib.brotliDecompressSync(br.body).equals(original)).toBe(true);
      } else {
        expect(br.headers['content-encoding']).toBe('gzip');
      }
      const plain = await rawGet(url, 'identity');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.equals(original)).toBe(true);
    });
  }
}

base('caddy, a build deployed without its .br and .gz: the wasm is still compressed as it is sent', async ({ sim }) => {
  const server = await startCaddy({ api: sim.url, precompressed: false });
  try {
    const wasm = mainWasm();
    const original = readFileSync(path.join(DIST, wasm));
    const gz = await rawGet(`${server.root.url}${wasm}`, 'gzip');
    expect(gz.headers['content-type']).toBe('application/wasm');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body.equals(readFileSync(path.join(DIST, `${wasm}.gz`))), 'not the build\'s .gz: none is served').toBe(false);
    expect(zlib.gunzipSync(gz.body).equals(original)).toBe(true);
    expect(gz.body.length).toBeLessThan(original.length / 2);
  } finally {
    await server.close();
  }
});

base('nks-sim --dist (scripts/run.sh) sends the build\'s own .br or .gz as accepted, as the shipped servers do', async ({ sim }) => {
  const wasm = mainWasm();
  const original = readFileSync(path.join(DIST, wasm));
  for (const [accept, encoding, file] of [
    ['gzip, deflate, br, zstd', 'br', `${wasm}.br`],
    ['gzip', 'gzip', `${wasm}.gz`],
    ['identity', undefined, wasm],
  ]) {
    const got = await rawGet(`${sim.url}/${wasm}`, accept);
    expect(got.headers['content-encoding'], accept).toBe(encoding);
    expect(got.headers.vary, accept).toMatch(/accept-encoding/i);
    expect(got.headers['content-type']).toBe('application/wasm');
    expect(got.body.equals(readFileSync(path.join(DIST, file))), `${accept}: ${file}`).toBe(true);
    const decoded = encoding === 'br' ? zlib.brotliDecompressSync(got.body) : encoding === 'gzip' ? zlib.gunzipSync(got.body) : got.body;
    expect(decoded.equals(original), accept).toBe(true);
  }
});
