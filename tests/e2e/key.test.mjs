// The key and the page: the API key goes only to the configured API, in the
// Authorization header, and nowhere else (URL, log, localStorage without the
// opt-in, error messages), also when calls fail; logging out forgets it; the
// page's Content-Security-Policy allows only its own files and API, and blocks
// an injected inline script.
// These tests follow the key from where a person gives it: they open the console
// without a key (`connected: false`) and type it on the connect screen.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test, expect, shot, DEMO_KEY, DIST, connect } from './fixtures.mjs';

// These tests read the requests the page made.
test.use({ recordRequests: true });

/** Everything the page could leak the key through, besides the Authorization header. */
async function expectKeyNowhere(page, sim, { remembered = false } = {}) {
  for (const r of page.requestsMade) {
    expect(r.url, `key in URL ${r.url}`).not.toContain(DEMO_KEY);
    expect(new URL(r.url).origin, `request left the configured origin: ${r.url}`).toBe(sim.url);
    const apiCall = new URL(r.url).pathname.startsWith('/v1/');
    if (r.headers.authorization !== undefined) {
      expect(apiCall, `Authorization sent with a non-API request: ${r.url}`).toBe(true);
    }
  }
  expect(page.consoleLines.filter((l) => l.includes(DEMO_KEY)), 'key in the console log').toEqual([]);
  const seen = await page.evaluate(() => ({
    text: document.body.innerText,
    html: document.documentElement.outerHTML,
    url: location.href + document.cookie,
    local: Object.keys(localStorage).map((k) => [k, localStorage.getItem(k)]),
  }));
  expect(seen.text.includes(DEMO_KEY) || seen.html.includes(DEMO_KEY), 'key shown in the page').toBe(false);
  expect(seen.url, 'key in the address or a cookie').not.toContain(DEMO_KEY);
  const inLocal = seen.local.filter(([, v]) => (v || '').includes(DEMO_KEY)).map(([k]) => k);
  expect(inLocal, 'key in localStorage').toEqual(remembered ? ['nks-console.api-key'] : []);
}

test('the key stays out of URLs, logs, storage and error messages while calls fail (500, 429, dropped)', async ({ sim, control, demo, open }) => {
  const page = await open('/', { connected: false });
  await connect(page);
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  for (const action of [
    { type: 'status', status: 500, message: 'boom' },
    { type: 'status', status: 429, retry_after_ms: '100' },
    { type: 'drop' },
    { type: 'malformed' },
  ]) {
    await control.fault({ match: { method: 'GET', path: '/v1/nks/clusters' }, action });
    try {
      await page.reload();
      await expect(page.getByRole('alert').first()).toBeVisible();
    } finally {
      await control.clearFaults();
    }
    await expectKeyNowhere(page, sim);
  }
  // A failed mutation too: its error names the call and the answer, never the key.
  await page.goto(`${sim.url}/projects/${demo.project}/clusters/${demo.cluster}/pools/${demo.baseline}/edit`);
  await page.getByLabel('Tags').fill('leak-check');
  const save = page.getByRole('button', { name: 'Save' });
  await expect(save).toBeEnabled();
  await control.fault({
    match: { method: 'PATCH', path_prefix: `/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}` },
    count: 1,
    action: { type: 'status', status: 500, message: 'boom' },
  });
  await save.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Update pool' }).first()).toBeVisible();
  await control.clearFaults();
  await expectKeyNowhere(page, sim);
  const apiCalls = page.requestsMade.filter((r) => new URL(r.url).pathname.startsWith('/v1/'));
  expect(apiCalls.length).toBeGreaterThan(5);
  for (const r of apiCalls) expect(r.headers.authorization).toBe(`Bearer ${DEMO_KEY}`);
});

test('a refused key is not echoed back in the refusal, the log or storage', async ({ open }) => {
  const page = await open('/', { connected: false });
  const wrong = 'wrong-key-0123456789';
  await connect(page, wrong);
  await expect(page.getByRole('alert').filter({ hasText: 'The API rejected this key (401)' })).toBeVisible();
  const text = await page.evaluate(() => document.body.innerText + JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  expect(text, 'the refused key is shown or kept').not.toContain(wrong);
  expect(page.consoleLines.filter((l) => l.includes(wrong))).toEqual([]);
  expect(page.requestsMade.filter((r) => r.url.includes(wrong)).map((r) => r.url)).toEqual([]);
});

test('"Remember on this device" is the only way into localStorage, and logging out forgets the key everywhere', async ({ sim, open }) => {
  const page = await open('/', { connected: false });
  await page.getByLabel('API key').fill(DEMO_KEY);
  await page.getByLabel('Remember on this device').check();
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  await expectKeyNowhere(page, sim, { remembered: true });

  // A new tab of the same browser profile opens connected: that is what remembering means.
  const second = await page.context().newPage();
  await second.goto(sim.url + '/');
  await expect(second.getByRole('table', { name: 'Clusters' })).toBeVisible();
  await second.close();

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('heading', { name: 'Connect to Nirvana NKS' })).toBeVisible();
  const stored = await page.evaluate(() => [localStorage.getItem('nks-console.api-key'), sessionStorage.getItem('nks-console.api-key')]);
  expect(stored).toEqual([null, null]);
  // Forgotten in memory too: nothing is sent with it any more, and a reload asks again.
  const before = page.requestsMade.length;
  await page.waitForTimeout(1500); // real-time window: silence (no request carrying the key) is only seen by waiting
  const after = page.requestsMade.slice(before).filter((r) => r.headers.authorization);
  expect(after.map((r) => r.url), 'a request carried the key after logging out').toEqual([]);
  await expect(page.getByLabel('API key'), 'the key is not left in the field').toHaveValue('');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Connect to Nirvana NKS' })).toBeVisible();
});

test('logging out from Settings forgets the key in this tab', async ({ open }) => {
  const page = await open('/settings', { connected: false });
  await connect(page);
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await page.getByRole('main').getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('heading', { name: 'Connect to Nirvana NKS' })).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => [sessionStorage.length, localStorage.getItem('nks-console.api-key')]))
    .toEqual([0, null]);
});

// ---------------------------------------------------------------------------
// Content-Security-Policy

/** The policy of the built page's <meta>, as directive → sources. */
async function metaPolicy() {
  const html = await readFile(path.join(DIST, 'index.html'), 'utf8');
  const m = html.match(/<meta http-equiv="Content-Security-Policy"\s+content="([^"]+)"/);
  expect(m, 'index.html carries a CSP <meta>').toBeTruthy();
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
      expect(s, `${directive} allows ${s}`).toMatch(/^'(self|none|wasm-unsafe-eval|sha256-[A-Za-z0-9+/=]+)'$|^data:$/);
    }
  }
  expect(policy['default-src']).toEqual(["'self'"]);
  expect(policy['connect-src']).toEqual(["'self'"]);
  expect(policy['object-src']).toEqual(["'none'"]);
  expect(
    policy['script-src'].some((s) => s.startsWith("'sha256-")),
    "script-src has no loader hash: trunk's post_build hook must run `deploy/csp-hash.sh --write` (docs/self-hosting.md)",
  ).toBe(true);
  expect(policy['script-src']).not.toContain("'unsafe-inline'");
  expect(policy['script-src']).not.toContain("'unsafe-eval'");
});

test('every page loads without a CSP violation, and an injected inline script is refused', async ({ sim, demo, open }) => {
  // Every document records the policy's refusals, from the first.
  const page = await open('/', {
    connected: false,
    beforeLoad: (p) =>
      p.addInitScript(() => {
        window.__cspViolations = [];
        document.addEventListener('securitypolicyviolation', (e) =>
          window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
        );
      }),
  });
  const violations = () => page.evaluate(() => window.__cspViolations);
  await expect(page.getByRole('heading', { name: 'Connect to Nirvana NKS' })).toBeVisible();
  await connect(page);
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  const cluster = `/projects/${demo.project}/clusters/${demo.cluster}`;
  const pages = [
    [`/projects/${demo.project}/clusters`, page.getByRole('table', { name: 'Clusters' })],
    [cluster, page.getByRole('table', { name: 'Pools' })],
    [`${cluster}/edit`, page.getByRole('button', { name: 'Save' })],
    [`${cluster}/pools/new`, page.getByRole('heading', { name: 'Create pool' })],
    [`${cluster}/pools/${demo.baseline}`, page.getByRole('table', { name: 'Nodes' })],
    [`${cluster}/pools/${demo.baseline}/edit`, page.getByRole('button', { name: 'Save' })],
    [`/projects/${demo.project}/clusters/new`, page.getByRole('button', { name: 'Create cluster' })],
    [`/projects/${demo.project}/operations`, page.getByRole('table', { name: 'Operations' })],
    ['/settings', page.getByRole('heading', { name: 'Settings' })],
    ['/no/such/page', page.getByRole('heading', { name: 'Page not found' })],
  ];
  for (const [where, ready] of pages) {
    await page.goto(sim.url + where);
    await expect(ready).toBeVisible();
    // Every file and module the page asks for has been asked for (a refused one
    // is reported as it is refused), and what it shows has finished loading.
    await page.waitForLoadState('networkidle');
    await expect(page.getByText(/^Loading/)).toHaveCount(0);
    expect(await violations(), `CSP violation on ${where}`).toEqual([]);
  }
  // An inline script slipped into the page does not run: one that may run runs as
  // it is inserted.
  const ran = await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__injected = true;';
    document.body.appendChild(s);
    return window.__injected === true;
  });
  expect(ran, 'an injected inline script ran').toBe(false);
  await expect
    .poll(async () => (await violations()).filter((v) => v.startsWith('script-src')), { message: 'the refusal was reported' })
    .not.toEqual([]);
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
  expect(loaded).toBe(false);
  await shot(page, 'csp-not-found');
});
