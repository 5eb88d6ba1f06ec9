// Embedded in a portal: the console runs in an iframe of another origin, takes
// its theme and an API key from the host page by postMessage, only from an
// origin listed in config.json `embed_origins`, and keeps a handed key in
// memory only. A page of any other origin is ignored without a word.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, shot, startHost, startPortal, DEMO_KEY } from './harness.mjs';

let sim;
let browser;
let portal; // listed in embed_origins
let stranger; // not listed
let host;

/**
 * A portal page: frames the console and, the way docs/self-hosting.md shows,
 * answers the console's "ready" with a theme and the key. `pushBlindly` sends
 * them every 100 ms to any origin ('*') without waiting, as a hostile page would.
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
  if (${pushBlindly}) setInterval(() => handOver(frame.contentWindow, '*'), 100);
</script>
</body></html>`;
}

before(async () => {
  sim = await startSim();
  browser = await startBrowser();
  // The portal pages name the console's address, and the console's config names
  // the listed portal's origin: the pages are written when asked for.
  portal = await startPortal(() => portalPage(host.url));
  stranger = await startPortal(() => portalPage(host.url, { pushBlindly: true }));
  host = await startHost({
    api: sim.url,
    files: {
      'config.json': JSON.stringify({ api_base_url: '', compact: true, embed_origins: [portal.origin] }),
    },
  });
});

after(async () => {
  await browser?.close();
  await portal?.close();
  await stranger?.close();
  await host?.close();
  await sim?.stop();
});

/** The console's frame inside the portal page. */
function consoleFrame(page) {
  return page.frameLocator('iframe[title="NKS console"]');
}

async function frameState(page) {
  const frame = page.frames().find((f) => f.url().startsWith(host.origin));
  return frame.evaluate(() => ({
    theme: document.documentElement.getAttribute('data-theme'),
    compact: document.documentElement.hasAttribute('data-compact'),
    // What storage holds, by key: only the last project's id (an id, not a secret).
    stored: [Object.keys(sessionStorage), Object.keys(localStorage)],
    values: [...Object.values(sessionStorage), ...Object.values(localStorage)],
  }));
}

test('a listed portal hands the console its key and theme, and the key is kept in memory only', async () => {
  const { context, page } = await openPage(browser);
  await page.goto(portal.origin + '/');
  const frame = consoleFrame(page);
  await assert.doesNotReject(frame.getByRole('table', { name: 'Clusters' }).waitFor());
  await assert.doesNotReject(frame.getByRole('link', { name: 'edge-prod' }).waitFor());
  const state = await frameState(page);
  assert.equal(state.theme, 'dark', 'theme from the host page');
  assert.equal(state.compact, true, 'compact from config.json');
  assert.deepEqual(state.stored, [[], ['nks-console.last-project']], 'a handed key is never written to storage');
  assert.ok(!state.values.some((v) => v.includes(DEMO_KEY)), 'no stored value holds the key');
  const received = await page.evaluate(() => window.received);
  assert.deepEqual(
    received.map((m) => [m.origin, m.data.type]),
    [[host.origin, 'nks-console:ready']],
  );
  for (const r of page.requestsMade) assert.ok(!r.url.includes(DEMO_KEY), `key in URL ${r.url}`);
  await shot(page, 'embedded-portal');
  await context.close();
});

test('a portal of an origin not listed is ignored: no key, no theme, not even a ready', async () => {
  const { context, page } = await openPage(browser);
  await page.goto(stranger.origin + '/');
  const frame = consoleFrame(page);
  await frame.getByRole('heading', { name: 'Connect to Nirvana NKS' }).waitFor();
  // The stranger pushes its key every 100 ms; give it two seconds.
  await page.waitForTimeout(2000);
  assert.equal(await frame.getByRole('heading', { name: 'Connect to Nirvana NKS' }).count(), 1);
  assert.equal(await frame.getByRole('table', { name: 'Clusters' }).count(), 0);
  const state = await frameState(page);
  assert.equal(state.theme, null, 'the theme message was ignored');
  const apiCalls = page.requestsMade.filter((r) => new URL(r.url).pathname.startsWith('/v1/'));
  assert.deepEqual(apiCalls.map((r) => r.url), [], 'no call was made with the handed key');
  assert.deepEqual(await page.evaluate(() => window.received), [], 'nothing is told to an unlisted origin');
  await context.close();
});

test('without a host setting the theme follows the system, and ?compact=1 asks for the compact layout', async () => {
  const { context, page } = await openPage(browser);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(sim.url + '/?compact=1');
  await page.getByRole('heading', { name: 'Connect to Nirvana NKS' }).waitFor();
  const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(dark, 'rgb(18, 22, 29)');
  assert.equal(light, 'rgb(246, 247, 249)');
  assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-compact')), true);
  await context.close();
});
