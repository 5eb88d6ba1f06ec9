// The operations page's timeline (issue 22, "a timeline picture"): an SVG with
// one bar per operation of the page that ran in the last 6 hours, coloured by
// status, operations that ran at once in lanes of their own, each bar a link
// to its operation's page. Each test starts from a fresh demo world.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, shot, demoIds, apiCall, operationEnded } from './harness.mjs';

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
  await sim.control('DELETE', '/_sim/faults');
  await sim.control('POST', '/_sim/reset', { seed: 'demo', time_scale: 0.01 });
  ids = await demoIds(sim);
});

const call = (method, route, body) => apiCall(sim, method, route, body);
const ended = (opId) => operationEnded(sim, opId);
const poolPath = (pool) => `/v1/nks/clusters/${ids.cluster}/pools/${pool}`;
const picture = (page) => page.getByRole('group', { name: 'Operations over time' });
/** Each bar drawn: its operation's id (from its link), its class and its place. */
const bars = (page) =>
  picture(page).locator('a').evaluateAll((links) =>
    links.map((a) => {
      const rect = a.querySelector('rect');
      const n = (name) => Number(rect.getAttribute(name));
      return {
        id: (a.getAttribute('href') || a.getAttribute('xlink:href')).split('/').pop().split('?')[0],
        label: a.getAttribute('aria-label'),
        cls: rect.getAttribute('class'),
        x: n('x'), y: n('y'), width: n('width'),
      };
    }),
  );

test('the operations page draws its recent operations as bars coloured by status, at once in lanes, each linking to its operation', async () => {
  // One update that fails, one that is done, then two that run at once.
  await sim.control('POST', '/_sim/operations/next', { outcome: 'failed', kind: 'nks_node_pool' });
  const failed = await ended((await call('PATCH', poolPath(ids.baseline), { node_count: 4 })).id);
  assert.equal(failed.status, 'failed');
  const done = await ended((await call('PATCH', poolPath(ids.baseline), { node_count: 4 })).id);
  assert.equal(done.status, 'done');
  await sim.control('POST', '/_sim/operations/next', { outcome: 'unknown', unknown_ms: 120_000 });
  const first = await call('PATCH', poolPath(ids.baseline), { node_count: 5 });
  await sim.control('POST', '/_sim/operations/next', { outcome: 'unknown', unknown_ms: 120_000 });
  const second = await call('PATCH', poolPath(ids.zero), { node_count: 3 });

  const { context, page } = await openPage(browser);
  await page.goto(sim.url + `/projects/${ids.project}/operations`);
  await connect(page);
  await picture(page).waitFor({ timeout: 15_000 });

  // The bars are this page's operations that ran in the last 6 hours: every one, no other.
  const listed = await call('GET', `/v1/operations?project_id=${ids.project}&sort=created_at:desc&limit=50`);
  const sixHoursAgo = Date.now() - 6 * 3600_000;
  const recent = listed.items
    .filter((op) => !['done', 'failed'].includes(op.status) || Date.parse(op.updated_at) >= sixHoursAgo)
    .map((op) => op.id)
    .sort();
  await page.waitForFunction(
    (n) => document.querySelectorAll('[aria-label="Operations over time"] a').length === n,
    recent.length,
    { timeout: 10_000 },
  );
  const drawn = await bars(page);
  assert.deepEqual(drawn.map((b) => b.id).sort(), recent);
  const bar = (id) => drawn.find((b) => b.id === id);

  // Coloured by status, and labelled for a screen reader.
  assert.match(bar(failed.id).cls, /\bbar-failed\b/);
  assert.match(bar(done.id).cls, /\bbar-done\b/);
  assert.match(bar(failed.id).label, /^Update pool · failed · \d+ s · edge-prod \/ baseline · started /);
  // Two operations running at once: each reaches now, in a lane of its own.
  for (const op of [first, second]) {
    assert.doesNotMatch(bar(op.id).cls, /\bbar-(done|failed)\b/);
    assert.ok(bar(op.id).x + bar(op.id).width >= 995, `a running bar reaches now: ${JSON.stringify(bar(op.id))}`);
  }
  assert.notEqual(bar(first.id).y, bar(second.id).y, 'operations that ran at once share no lane');
  // An ended one stops where it ended, before the later ones began.
  assert.ok(bar(done.id).x + bar(done.id).width <= Math.max(bar(first.id).x, bar(second.id).x) + 4);
  await shot(page, 'operations-timeline-1280');
  await page.setViewportSize({ width: 390, height: 860 });
  await shot(page, 'operations-timeline-390');
  await page.setViewportSize({ width: 1280, height: 860 });

  // A bar leads to its operation's page.
  await picture(page).locator(`a[aria-label^="Update pool · failed"]`).click();
  await page.waitForURL(new RegExp(`/operations/${failed.id}`));
  await page.getByRole('heading', { level: 1 }).filter({ hasText: 'Update pool' }).waitFor();
  await context.close();
});
