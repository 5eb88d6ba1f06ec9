// Embedded in a portal: the console runs in an iframe of another origin, takes
// its theme and an API key from the host page by postMessage, only from an
// origin listed in config.json `embed_origins`, and keeps a handed key in
// memory only. A page of any other origin is ignored without a word.
import { test as base, expect, shot, startPortal, DEMO_KEY } from './fixtures.mjs';
import { startCaddy } from './support/servers.mjs';

/**
 * A portal page: frames the console and, the way docs/self-hosting.md shows,
 * answers the console's "ready" with a theme and the key. `pushBlindly` sends
 * them every 100 ms to any origin ('*') without waiting, as a hostile page would,
 * and counts its pushes in `window.pushes`.
 */
function portalPage(consoleUrl, { pushBlindly = false } = {}) {
  const consoleOrigin = new URL(consoleUrl).origin;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Team portal</title></head>
<body>
<h1>Team portal</h1>
<iframe title="NKS console" src="${consoleUrl}" width="1200" height="760"></iframe>
<script>
  window.received = [];
  window.pushes = 0;
  const frame = document.querySelector('iframe');
  const handOver = (target, origin) => {
    target.postMessage({ type: 'nks-console:theme', theme: 'dark' }, origin);
    target.postMessage({ type: 'nks-console:api-key', key: ${JSON.stringify(DEMO_KEY)} }, origin);
  };
  window.addEventListener('message', (ev) => {
    window.received.push({ origin: ev.origin, data: ev.data });
    if (ev.origin === ${JSON.stringify(consoleOrigin)} && ev.data && ev.data.type === 'nks-console:ready') {
      handOver(ev.source, ev.origin);
    }
  });
  if (${pushBlindly}) setInterval(() => { handOver(frame.contentWindow, '*'); window.pushes += 1; }, 100);
</script>
</body></html>`;
}

/**
 * The hosting of one test: the console served by Debian's Caddy with the shipped
 * Caddyfile (support/servers.mjs), its config.json listing the portal's origin and
 * its CSP letting both portals frame it; a listed portal and a stranger. The portal
 * pages name the console's address, and the console's config names the listed
 * portal's origin: the pages are written when asked for.
 */
const test = base.extend({
  hosting: async ({ sim }, use) => {
    let host;
    const portal = await startPortal(() => portalPage(host.url)); // listed in embed_origins
    const stranger = await startPortal(() => portalPage(host.url, { pushBlindly: true })); // not listed
    const server = await startCaddy({
      api: sim.url,
      files: {
        'config.json': JSON.stringify({ api_base_url: '', compact: true, embed_origins: [portal.origin] }),
      },
      frameAncestors: `'self' ${portal.origin} ${stranger.origin}`,
    });
    host = server.root;
    await use({ host, portal, stranger });
    await portal.close();
    await stranger.close();
    await server.close();
  },
});

// These tests read the requests the page made.
test.use({ recordRequests: true });

/** A portal's page, opened as a person opens it: nothing is written on any
 *  origin first (no key, no test items), the console gets only what the portal hands it. */
const openPortal = (open, origin) => open(origin + '/', { connected: false, pollMs: null });

/** The console's frame inside the portal page. */
function consoleFrame(page) {
  return page.frameLocator('iframe[title="NKS console"]');
}

async function frameState(page, host) {
  const frame = page.frames().find((f) => f.url().startsWith(host.origin));
  return frame.evaluate(() => ({
    theme: document.documentElement.getAttribute('data-theme'),
    compact: document.documentElement.hasAttribute('data-compact'),
    // What storage holds, by key: only the last project's id (an id, not a secret).
    stored: [Object.keys(sessionStorage), Object.keys(localStorage)],
    values: [...Object.values(sessionStorage), ...Object.values(localStorage)],
  }));
}

test('a listed portal hands the console its key and theme, and the key is kept in memory only', async ({ hosting, open }) => {
  const { host, portal } = hosting;
  const page = await openPortal(open, portal.origin);
  const frame = consoleFrame(page);
  await expect(frame.getByRole('table', { name: 'Clusters' })).toBeVisible();
  await expect(frame.getByRole('link', { name: 'edge-prod' })).toBeVisible();
  const state = await frameState(page, host);
  expect(state.theme, 'theme from the host page').toBe('dark');
  expect(state.compact, 'compact from config.json').toBe(true);
  expect(state.stored, 'a handed key is never written to storage').toEqual([[], ['nks-console.last-project']]);
  expect(state.values.filter((v) => v.includes(DEMO_KEY)), 'no stored value holds the key').toEqual([]);
  const received = await page.evaluate(() => window.received);
  expect(received.map((m) => [m.origin, m.data.type])).toEqual([[host.origin, 'nks-console:ready']]);
  for (const r of page.requestsMade) expect(r.url, `key in URL ${r.url}`).not.toContain(DEMO_KEY);
  await shot(page, 'embedded-portal');
});

test('a portal of an origin not listed is ignored: no key, no theme, not even a ready', async ({ hosting, open }) => {
  const { host, stranger } = hosting;
  const page = await openPortal(open, stranger.origin);
  const frame = consoleFrame(page);
  await expect(frame.getByRole('heading', { name: 'Connect to Nirvana NKS' })).toBeVisible();
  // The stranger pushes its key and theme every 100 ms: twenty pushes after the
  // console is up (about two seconds) have all reached it.
  const pushes = () => page.evaluate(() => window.pushes);
  const upAt = await pushes();
  await expect.poll(pushes, { message: 'the stranger kept pushing' }).toBeGreaterThanOrEqual(upAt + 20);
  await expect(frame.getByRole('heading', { name: 'Connect to Nirvana NKS' })).toHaveCount(1);
  await expect(frame.getByRole('table', { name: 'Clusters' })).toHaveCount(0);
  const state = await frameState(page, host);
  expect(state.theme, 'the theme message was ignored').toBeNull();
  const apiCalls = page.requestsMade.filter((r) => new URL(r.url).pathname.startsWith('/v1/'));
  expect(apiCalls.map((r) => r.url), 'no call was made with the handed key').toEqual([]);
  expect(await page.evaluate(() => window.received), 'nothing is told to an unlisted origin').toEqual([]);
});

test('without a host setting the theme follows the system, and ?compact=1 asks for the compact layout', async ({ open }) => {
  const page = await open('/?compact=1', { connected: false });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.getByRole('heading', { name: 'Connect to Nirvana NKS' })).toBeVisible();
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await expect.poll(background).toBe('rgb(18, 22, 29)');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(background).toBe('rgb(246, 247, 249)');
  await expect(page.locator('html')).toHaveAttribute('data-compact');
});
