// A headless Chromium driven over a bare DevTools pipe, for timing a cold load as
// a person's browser would do it. Playwright instruments every page it drives:
// it adds its own script world, enables the network, runtime and page domains
// and reports each of their events back. On this 2-core machine that cost about
// 50 ms of each cold load, measured alternating with a Playwright page. Here the
// page gets one init script (the API key) and, while it loads, one tiny
// `Runtime.evaluate` every 25 ms.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM, CHROMIUM_FLAGS } from '../e2e/support/chromium.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * What a page timed of its own load, read in the page once it is done: its
 * marks by name, the document's arrival, each file fetched (code and API reads)
 * with when it was asked for and when it was in, and the first paint. Times are
 * milliseconds from the navigation's start.
 */
const PHASES = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  return {
    // Each mark's first time (a list marks each of its draws).
    marks: performance.getEntriesByType('mark').reduce((all, m) => ({ [m.name]: m.startTime, ...all }), {}),
    document: nav ? nav.responseEnd : null,
    fetched: performance.getEntriesByType('resource').map((r) => ({
      path: new URL(r.name).pathname,
      start: r.startTime,
      end: r.responseEnd,
    })),
    paint: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime ?? null,
  };
})()`;

/** Starts Chromium with `--remote-debugging-pipe`: commands go in on fd 3, answers come out on fd 4. */
export async function startBareChromium() {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'nks-bench-'));
  const child = spawn(
    CHROMIUM,
    ['--headless', ...CHROMIUM_FLAGS, '--remote-debugging-pipe', `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] },
  );
  const [toChrome, fromChrome] = [child.stdio[3], child.stdio[4]];
  const waiting = new Map();
  let next = 0;
  let pending = '';
  const gone = new Promise((resolve) => child.once('exit', resolve));
  gone.then(() => {
    for (const { reject } of waiting.values()) reject(new Error('Chromium exited'));
    waiting.clear();
  });
  fromChrome.on('data', (chunk) => {
    pending += chunk.toString();
    for (let end; (end = pending.indexOf('\0')) >= 0; ) {
      const message = JSON.parse(pending.slice(0, end));
      pending = pending.slice(end + 1);
      const call = waiting.get(message.id);
      if (!call) continue; // an event: nothing here listens for any
      waiting.delete(message.id);
      if (message.error) call.reject(new Error(`${call.method}: ${message.error.message}`));
      else call.resolve(message.result);
    }
  });
  const send = (method, params = {}, sessionId = undefined) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      waiting.set(id, { resolve, reject, method });
      toChrome.write(`${JSON.stringify({ id, method, params, sessionId })}\0`);
    });

  return {
    /**
     * Opens `url` in a fresh browser context (no HTTP cache, no compiled wasm), with
     * `initScript` run before the page's own scripts, and resolves once the page
     * has set every performance mark in `marks`, with what the page timed
     * (`PHASES`): each mark's `startTime`, the document, the code and API reads
     * fetched, the first paint. `network` emulates a link ({ latency, downloadThroughput,
     * uploadThroughput }); `then` ({ expression, marks }) runs `expression` in the loaded
     * page and resolves once `marks` are set too, with both reads: { loaded, then }.
     */
    async openUntil(url, { initScript, marks, width = 1280, height = 860, timeout = 30_000, network, then }) {
      const { browserContextId } = await send('Target.createBrowserContext', { disposeOnDetach: true });
      try {
        const { targetId } = await send('Target.createTarget', { url: 'about:blank', browserContextId });
        const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
        await send('Page.enable', {}, sessionId);
        await send('Page.addScriptToEvaluateOnNewDocument', { source: initScript }, sessionId);
        await send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false }, sessionId);
        if (network) {
          // Chromium's own network emulation: each request's latency and the
          // link's throughput, as a person some tens of milliseconds away sees them.
          await send('Network.enable', {}, sessionId);
          await send('Network.emulateNetworkConditions', { offline: false, ...network }, sessionId);
        }
        await send('Page.navigate', { url }, sessionId);
        const evaluate = async (expression) =>
          (await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true }, sessionId)).result.value;
        const until = async (wanted) => {
          const expression = `${JSON.stringify(wanted)}.every((m) => performance.getEntriesByName(m).length > 0)`;
          for (const end = Date.now() + timeout; Date.now() < end; await sleep(25)) {
            if ((await evaluate(expression)) === true) return evaluate(PHASES);
          }
          throw new Error(`not every one of ${wanted.join(', ')} within ${timeout} ms of opening ${url}`);
        };
        const loaded = await until(marks);
        // `then`: a next step in the same page (a click), and the marks it waits for.
        if (!then) return loaded;
        await evaluate(then.expression);
        return { loaded, then: await until(then.marks) };
      } finally {
        await send('Target.disposeBrowserContext', { browserContextId });
      }
    },
    async close() {
      await send('Browser.close').catch(() => {});
      await gone;
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
