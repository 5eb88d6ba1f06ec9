// The key and the page: the API key goes only to the configured API, in the
// Authorization header, and nowhere else (URL, log, localStorage without the
// opt-in, error messages), also when calls fail; logging out forgets it; the
// page's Content-Security-Policy allows only its own files and API, and blocks
// an injected inline script.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSim, startBrowser, openPage, connect, shot, DEMO_KEY } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = process.env.NKS_DIST ? path.resolve(root, process.env.NKS_DIST) : path.join(root, 'dist');

let sim;
let browser;
let ids;

before(async () => {
  sim = await startSim({ timeScale: '0.01' });
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
  await sim?.stop();
});

beforeEach(async () => {
  await sim.control('POST', '/_sim/reset', { seed: 'demo' });
  await sim.control('POST', '/_sim/time-scale', { time_scale: 0.01 });
  const project = (await sim.api('/v1/projects')).items.find((p) => p.name === 'Production');
  const cluster = (await sim.api(`/v1/nks/clusters?project_id=${project.id}`)).items[0];
  const pool = (await sim.api(`/v1/nks/clusters/${cluster.id}/pools`)).items.find((p) => p.name === 'baseline');
  ids = { project: project.id, cluster: cluster.id, pool: pool.id };
});

const fault = (spec) => sim.control('POST', '/_sim/faults', spec);
const clearFaults = () => sim.control('DELETE', '/_sim/faults');

/** Everything the page could leak the key through, besides the Authorization header. */
async function assertKeyNowhere(page, { remembered = false } = {}) {
  for (const r of page.requestsMade) {
    assert.ok(!r.url.includes(DEMO_KEY), `key in URL ${r.url}`);
    assert.equal(new URL(r.url).origin, sim.url, `request left the configured origin: ${r.url}`);
    const apiCall = new URL(r.url).pathname.startsWith('/v1/');
    if (r.headers.authorization !== undefined) {
      assert.ok(apiCall, `Authorization sent with a non-API request: ${r.url}`);
    }
  }
  assert.ok(!page.consoleLines.some((l) => l.includes(DEMO_KEY)), 'key in the console log');
  const seen = await page.evaluate(() => ({
    text: document.body.innerText,
    html: document.documentElement.outerHTML,
    url: location.href + document.cookie,
    local: Object.keys(localStorage).map((k) => [k, localStorage.getItem(k)]),
  }));
  assert.ok(!seen.text.includes(DEMO_KEY) && !seen.html.includes(DEMO_KEY), 'key shown in the page');
  assert.ok(!seen.url.includes(DEMO_KEY), 'key in the address or a cookie');
  const inLocal = seen.local.filter(([, v]) => (v || '').includes(DEMO_KEY)).map(([k]) => k);
  assert.deepEqual(inLocal, remembered ? ['nks-console.api-key'] : [], 'key in localStorage');
}

test('the key stays out of URLs, logs, storage and error messages while calls fail (500, 429, dropped)', async () => {
  const { context, page } = await openPage(browser);
  await page.goto(sim.url + '/');
  await connect(page);
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  for (const action of [
    { type: 'status', status: 500, message: 'boom' },
    { type: 'status', status: 429, retry_after_ms: '100' },
    { type: 'drop' },
    { type: 'malformed' },
  ]) {
    await fault({ match: { method: 'GET', path_prefix: '/v1/nks/clusters' }, action });
    try {
      await page.reload();
      await page.getByRole('alert').first().waitFor({ timeout: 20_000 });
    } finally {
      await clearFaults();
    }
    await assertKeyNowhere(page);
  }
  // A failed mutation too: its error names the call and the answer, never the key.
  await page.goto(`${sim.url}/projects/${ids.project}/clusters/${ids.cluster}/pools/${ids.pool}/edit`);
  await page.getByLabel('Tags').fill('leak-check');
  const save = page.getByRole('button', { name: 'Save' });
  for (let i = 0; i < 100 && !(await save.isEnabled()); i++) await new Promise((r) => setTimeout(r, 100));
  await fault({ match: { method: 'PATCH', path_prefix: `/v1/nks/clusters/${ids.cluster}/pools/${ids.pool}` }, count: 1, action: { type: 'status', status: 500, message: 'boom' } });
  await save.click();
  await page.getByRole('alert').filter({ hasText: 'Update pool' }).first().waitFor({ timeout: 15_000 });
  await clearFaults();
  await assertKeyNowhere(page);
  const apiCalls = page.requestsMade.filter((r) => new URL(r.url).pathname.startsWith('/v1/'));
  assert.ok(apiCalls.length > 5);
  for (const r of apiCalls) assert.equal(r.headers.authorization, `Bearer ${DEMO_KEY}`);
  await context.close();
});

test('a refused key is not echoed back in the refusal, the log or storage', async () => {
  const { context, page } = await openPage(browser);
  await page.goto(sim.url + '/');
  const wrong = 'wrong-key-0123456789';
  await connect(page, wrong);
  await page.getByRole('alert').filter({ hasText: 'The API rejected this key (401)' }).waitFor();
  const text = await page.evaluate(() => document.body.innerText + JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  assert.ok(!text.includes(wrong), 'the refused key is shown or kept');
  assert.ok(!page.consoleLines.some((l) => l.includes(wrong)));
  assert.ok(!page.requestsMade.some((r) => r.url.includes(wrong)));
  await context.close();
});

test('"Remember on this device" is the only way into localStorage, and logging out forgets the key everywhere', async () => {
  const { context, page } = await openPage(browser);
  await page.goto(sim.url + '/');
  await page.getByLabel('API key').fill(DEMO_KEY);
  await page.getByLabel('Remember on this device').check();
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  await assertKeyNowhere(page, { remembered: true });

  // A new tab of the same browser profile opens connected: that is what remembering means.
  const second = await context.newPage();
  await second.goto(sim.url + '/');
  await second.getByRole('table', { name: 'Clusters' }).waitFor();
  await second.close();

  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('heading', { name: 'Connect to Nirvana NKS' }).waitFor();
  const stored = await page.evaluate(() => [localStorage.getItem('nks-console.api-key'), sessionStorage.getItem('nks-console.api-key')]);
  assert.deepEqual(stored, [null, null]);
  // Forgotten in memory too: nothing is sent with it any more, and a reload asks again.
  const before = page.requestsMade.length;
  await new Promise((r) => setTimeout(r, 1500));
  const after = page.requestsMade.slice(before).filter((r) => r.headers.authorization);
  assert.deepEqual(after.map((r) => r.url), [], 'a request carried the key after logging out');
  assert.equal(await page.getByLabel('API key').inputValue(), '', 'the key is not left in the field');
  await page.reload();
  await assert.doesNotReject(page.getByRole('heading', { name: 'Connect to Nirvana NKS' }).waitFor());
  await context.close();
});

test('logging out from Settings forgets the key in this tab', async () => {
  const { context, page } = await openPage(browser);
  await page.goto(sim.url + '/settings');
  await connect(page);
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
  await page.getByRole('main').getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('heading', { name: 'Connect to Nirvana NKS' }).waitFor();
  assert.deepEqual(await page.evaluate(() => [sessionStorage.length, localStorage.getItem('nks-console.api-key')]), [0, null]);
  await context.close();
});

// ---------------------------------------------------------------------------
// Content-Security-Policy

/** The policy of the built page's <meta>, as directive → sources. */
async function metaPolicy() {
  const html = await readFile(path.join(dist, 'index.html'), 'utf8');
  const m = html.match(/<meta http-equiv="Content-Security-Policy"\s+content="([^"]+)"/);
  assert.ok(m, 'index.html carries a CSP <meta>');
  return Object.fromEntries(
    m[1].split(';').map((d) => d.trim()).filter(Boolean).map((d) => {
      const [name, ...sources] = d.split(/\s+/);
      return [name, sources];
    }),
  );
}

test('the built page carries a CSP that allows its own origin only, and its loader by hash', async () => {
  const policy = await metaPolicy();
  for (const [directive, sources] of Object.entries(policy)) {
    for (const s of sources) {
      assert.match(s, /^'(self|none|wasm-unsafe-eval|sha256-[A-Za-z0-9+/=]+)'$|^data:$/, `${directive} allows ${s}`);
    }
  }
  assert.deepEqual(policy['default-src'], ["'self'"]);
  assert.deepEqual(policy['connect-src'], ["'self'"]);
  assert.deepEqual(policy['object-src'], ["'none'"]);
  assert.ok(
    policy['script-src'].some((s) => s.startsWith("'sha256-")),
    "script-src has no loader hash: trunk's post_build hook must run `deploy/csp-hash.sh --write` (docs/self-hosting.md)",
  );
  assert.ok(!policy['script-src'].includes("'unsafe-inline'") && !policy['script-src'].includes("'unsafe-eval'"));
});

test('every page loads without a CSP violation, and an injected inline script is refused', async () => {
  const { context, page } = await openPage(browser);
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  const violations = () => page.evaluate(() => window.__cspViolations);
  await page.goto(sim.url + '/');
  await page.getByRole('heading', { name: 'Connect to Nirvana NKS' }).waitFor();
  await connect(page);
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  const cluster = `/projects/${ids.project}/clusters/${ids.cluster}`;
  const pages = [
    [`/projects/${ids.project}/clusters`, page.getByRole('table', { name: 'Clusters' })],
    [cluster, page.getByRole('table', { name: 'Pools' })],
    [`${cluster}/edit`, page.getByRole('button', { name: 'Save' })],
    [`${cluster}/pools/new`, page.getByRole('heading', { name: 'Create pool' })],
    [`${cluster}/pools/${ids.pool}`, page.getByRole('table', { name: 'Nodes' })],
    [`${cluster}/pools/${ids.pool}/edit`, page.getByRole('button', { name: 'Save' })],
    [`/projects/${ids.project}/clusters/new`, page.getByRole('button', { name: 'Create cluster' })],
    [`/projects/${ids.project}/operations`, page.getByRole('table', { name: 'Operations' })],
    ['/settings', page.getByRole('heading', { name: 'Settings' })],
    ['/no/such/page', page.getByRole('heading', { name: 'Page not found' })],
  ];
  for (const [where, ready] of pages) {
    await page.goto(sim.url + where);
    await ready.waitFor();
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(await violations(), [], `CSP violation on ${where}`);
  }
  // An inline script slipped into the page does not run.
  const ran = await page.evaluate(async () => {
    const s = document.createElement('script');
    s.textContent = 'window.__injected = true;';
    document.body.appendChild(s);
    await new Promise((r) => setTimeout(r, 100));
    return window.__injected === true;
  });
  assert.equal(ran, false, 'an injected inline script ran');
  assert.ok((await violations()).some((v) => v.startsWith('script-src')), 'the refusal was reported');
  // Nor does a script from another host.
  const loaded = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const s = document.createElement('script');
        s.src = 'http://127.0.0.2:9/x.js';
        s.onload = () => resolve(true);
        s.onerror = () => resolve(false);
        document.body.appendChild(s);
      }),
  );
  assert.equal(loaded, false);
  await shot(page, 'csp-not-found');
  await context.close();
});
