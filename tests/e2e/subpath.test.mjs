// One build, served under a prefix: the release build behind Debian's nginx with
// the shipped deploy/nginx.conf (support/servers.mjs), whose prefix site serves
// the files under /tools/nks/, falls back to index.html with <base href> rewritten,
// and proxies /v1 to the API. Asset URLs, config.json, links, navigation and deep
// links all stay under it.
import { test as base, expect, shot, connect } from './fixtures.mjs';
import { PREFIX, startNginx } from './support/servers.mjs';

/** Each test has a server of its own in front of its worker's simulator, so what
 *  it was asked for (`host.requested()`, from nginx's access log) is this test's alone. */
const test = base.extend({
  host: async ({ sim }, use) => {
    const server = await startNginx({ api: sim.url });
    await use({ ...server.prefix, requested: server.requested });
    await server.close();
  },
});

// These tests read the requests the page made.
test.use({ recordRequests: true });

/** Every request the page made stayed under the prefix, or went to the API. */
function expectStayedUnderPrefix(page, host) {
  for (const r of page.requestsMade) {
    const url = new URL(r.url);
    if (url.protocol === 'blob:' || url.protocol === 'data:') continue;
    expect(url.origin, `left the host: ${r.url}`).toBe(host.origin);
    expect(url.pathname.startsWith(PREFIX) || url.pathname.startsWith('/v1/'), `outside ${PREFIX}: ${r.url}`).toBe(true);
  }
}

test('under a prefix the console loads, connects and keeps every URL under the prefix', async ({ host, open }) => {
  // The page is opened as a person opens it: nothing written on the host's origin
  // first, so every request it makes is the console's own.
  const page = await open(host.url, { connected: false, pollMs: null });
  await expect(page.getByRole('heading', { name: 'Connect to Nirvana NKS' })).toBeVisible();
  await connect(page);
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  await expect(page).toHaveURL((url) => /^\/tools\/nks\/projects\/[^/]+\/clusters$/.test(url.pathname));

  await page.getByRole('link', { name: 'edge-prod' }).click();
  await expect(page.getByRole('heading', { name: 'edge-prod' })).toBeVisible();
  await expect(page).toHaveURL((url) => /^\/tools\/nks\/projects\/[^/]+\/clusters\/[^/]+$/.test(url.pathname));

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === `${PREFIX}settings`);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Clusters' }).click();
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  // The project switcher reads the project from the URL, prefix and all.
  await expect(page.getByLabel('Project').locator('option:checked')).toHaveText('Production');

  await page.getByRole('link', { name: 'NKS Console' }).click();
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname.startsWith(`${PREFIX}projects/`));

  expect(host.requested(), 'config.json read beside index.html').toContain(`${PREFIX}config.json`);
  // index.html preloads it, and the console's own read is answered by that preload:
  // one request, made by the <link>, not a second by the console's fetch.
  expect(host.requested().filter((p) => p === `${PREFIX}config.json`).length, 'config.json asked for once').toBe(1);
  const configReads = await page.evaluate(() =>
    performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/config.json')).map((e) => e.initiatorType),
  );
  expect(configReads, 'config.json comes from the preload').toEqual(['link']);
  // The icon is inline: no request for /favicon.ico, at the prefix or the host's root.
  expect(host.requested().filter((p) => p.endsWith('favicon.ico')), 'no icon asked for').toEqual([]);
  expectStayedUnderPrefix(page, host);
  await shot(page, 'subpath-clusters');
});

test('a deep link under the prefix, opened fresh, asks for the key and then shows that page', async ({ host, demo, open }) => {
  const deep = `${host.url}projects/${demo.project}/clusters/${demo.cluster}/pools/${demo.baseline}`;

  const page = await open(deep, { connected: false, pollMs: null });
  await connect(page);
  await expect(page.getByRole('heading', { name: 'baseline' })).toBeVisible();
  await expect(page).toHaveURL(deep);
  await expect(page.getByRole('table', { name: 'Nodes' })).toBeVisible();

  // A reload of the deep link is served by the fallback and lands on the same page.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'baseline' })).toBeVisible();
  await expect(page).toHaveURL(deep);
  expectStayedUnderPrefix(page, host);
});

test('an unknown address under the prefix shows the not-found page, whose link stays under the prefix', async ({ host, open }) => {
  const page = await open(`${host.url}no/such/page`);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  const home = page.getByRole('link', { name: 'Go to your clusters' });
  await expect(home).toHaveAttribute('href', PREFIX);
  await home.click();
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname.startsWith(`${PREFIX}projects/`));
});
