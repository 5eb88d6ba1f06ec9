// One build, served under a prefix: the release build behind a host that does
// what docs/self-hosting.md configures nginx and Caddy to do (files under
// /tools/nks/, the SPA fallback, <base href> rewritten, /v1 proxied to the API).
// Asset URLs, config.json, links, navigation and deep links all stay under it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, shot, startHost } from './harness.mjs';

const PREFIX = '/tools/nks/';
let sim;
let host;
let browser;

before(async () => {
  sim = await startSim();
  host = await startHost({ prefix: PREFIX, api: sim.url });
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
  await host?.close();
  await sim?.stop();
});

/** Every request the page made stayed under the prefix, or went to the API. */
function assertStayedUnderPrefix(page) {
  for (const r of page.requestsMade) {
    const url = new URL(r.url);
    if (url.protocol === 'blob:' || url.protocol === 'data:') continue;
    assert.equal(url.origin, host.origin, `left the host: ${r.url}`);
    assert.ok(url.pathname.startsWith(PREFIX) || url.pathname.startsWith('/v1/'), `outside ${PREFIX}: ${r.url}`);
  }
}

test('under a prefix the console loads, connects and keeps every URL under the prefix', async () => {
  const { context, page } = await openPage(browser);
  await page.goto(host.url);
  await page.getByRole('heading', { name: 'Connect to Nirvana NKS' }).waitFor();
  await connect(page);
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  assert.match(new URL(page.url()).pathname, /^\/tools\/nks\/projects\/[^/]+\/clusters$/);

  await page.getByRole('link', { name: 'edge-prod' }).click();
  await page.getByRole('heading', { name: 'edge-prod' }).waitFor();
  assert.match(new URL(page.url()).pathname, /^\/tools\/nks\/projects\/[^/]+\/clusters\/[^/]+$/);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
  assert.equal(new URL(page.url()).pathname, `${PREFIX}settings`);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Clusters' }).click();
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  // The project switcher reads the project from the URL, prefix and all.
  assert.equal(await page.getByLabel('Project').locator('option:checked').textContent(), 'Production');

  await page.getByRole('link', { name: 'NKS Console' }).click();
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  assert.ok(new URL(page.url()).pathname.startsWith(`${PREFIX}projects/`), page.url());

  assert.ok(host.requested.includes(`${PREFIX}config.json`), 'config.json read beside index.html');
  // index.html preloads it, and the console's own read is answered by that preload:
  // one request, made by the <link>, not a second by the console's fetch.
  assert.equal(host.requested.filter((p) => p === `${PREFIX}config.json`).length, 1, 'config.json asked for once');
  const configReads = await page.evaluate(() =>
    performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/config.json')).map((e) => e.initiatorType),
  );
  assert.deepEqual(configReads, ['link'], 'config.json comes from the preload');
  // The icon is inline: no request for /favicon.ico, at the prefix or the host's root.
  assert.deepEqual(host.requested.filter((p) => p.endsWith('favicon.ico')), [], 'no icon asked for');
  assertStayedUnderPrefix(page);
  await shot(page, 'subpath-clusters');
  await context.close();
});

test('a deep link under the prefix, opened fresh, asks for the key and then shows that page', async () => {
  const clusters = await sim.api('/v1/projects').then((p) => sim.api(`/v1/nks/clusters?project_id=${p.items[0].id}`));
  const cluster = clusters.items[0];
  const pools = await sim.api(`/v1/nks/clusters/${cluster.id}/pools`);
  const pool = pools.items.find((p) => p.name === 'baseline');
  const deep = `${host.url}projects/${cluster.project_id}/clusters/${cluster.id}/pools/${pool.id}`;

  const { context, page } = await openPage(browser);
  await page.goto(deep);
  await connect(page);
  await assert.doesNotReject(page.getByRole('heading', { name: 'baseline' }).waitFor());
  assert.equal(page.url(), deep);
  await page.getByRole('table', { name: 'Nodes' }).waitFor();

  // A reload of the deep link is served by the fallback and lands on the same page.
  await page.reload();
  await assert.doesNotReject(page.getByRole('heading', { name: 'baseline' }).waitFor());
  assert.equal(page.url(), deep);
  assertStayedUnderPrefix(page);
  await context.close();
});

test('an unknown address under the prefix shows the not-found page, whose link stays under the prefix', async () => {
  const { context, page } = await openPage(browser);
  await page.goto(`${host.url}no/such/page`);
  await connect(page);
  await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  const home = page.getByRole('link', { name: 'Go to your clusters' });
  assert.equal(await home.getAttribute('href'), PREFIX);
  await home.click();
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  assert.ok(new URL(page.url()).pathname.startsWith(`${PREFIX}projects/`), page.url());
  await context.close();
});
