// The operations page's timeline (issue 22, "a timeline picture"): an SVG with
// one bar per operation of the page that ran in the last 6 hours, coloured by
// status, operations that ran at once in lanes of their own, each bar a link
// to its operation's page. Each test starts from a fresh demo world.
import { test, expect, shot } from './fixtures.mjs';

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

test('the operations page draws its recent operations as bars coloured by status, at once in lanes, each linking to its operation', async ({ api, control, demo, open }) => {
  const poolPath = (pool) => `/v1/nks/clusters/${demo.cluster}/pools/${pool}`;
  /** Ends the operation now, as planned; answers how it ended. */
  const ended = async (op) => {
    await control.finish({ id: op.id });
    return api('GET', `/v1/operations/${op.id}`);
  };
  // One update that fails, one that is done, then two that run at once (and
  // still run: they sit in unknown, then take the API's 2 minutes).
  await control.nextOutcome({ outcome: 'failed', kind: 'nks_node_pool' });
  const failed = await ended(await api('PATCH', poolPath(demo.baseline), { node_count: 4 }));
  expect(failed.status).toBe('failed');
  const done = await ended(await api('PATCH', poolPath(demo.baseline), { node_count: 4 }));
  expect(done.status).toBe('done');
  await control.nextOutcome({ outcome: 'unknown', unknown_ms: 120_000 });
  const first = await api('PATCH', poolPath(demo.baseline), { node_count: 5 });
  await control.nextOutcome({ outcome: 'unknown', unknown_ms: 120_000 });
  const second = await api('PATCH', poolPath(demo.zero), { node_count: 3 });

  const page = await open(`/projects/${demo.project}/operations`);
  await expect(picture(page)).toBeVisible();

  // The bars are this page's operations that ran in the last 6 hours: every one, no other.
  const listed = await api('GET', `/v1/operations?project_id=${demo.project}&sort=created_at:desc&limit=50`);
  const sixHoursAgo = Date.now() - 6 * 3600_000;
  const recent = listed.items
    .filter((op) => !['done', 'failed'].includes(op.status) || Date.parse(op.updated_at) >= sixHoursAgo)
    .map((op) => op.id)
    .sort();
  await expect(picture(page).locator('a')).toHaveCount(recent.length);
  const drawn = await bars(page);
  expect(drawn.map((b) => b.id).sort()).toEqual(recent);
  const bar = (id) => drawn.find((b) => b.id === id);

  // Coloured by status, and labelled for a screen reader.
  expect(bar(failed.id).cls).toMatch(/\bbar-failed\b/);
  expect(bar(done.id).cls).toMatch(/\bbar-done\b/);
  expect(bar(failed.id).label).toMatch(/^Update pool · failed · \d+ s · edge-prod \/ baseline · started /);
  // Two operations running at once: each reaches now, in a lane of its own.
  for (const op of [first, second]) {
    expect(bar(op.id).cls).not.toMatch(/\bbar-(done|failed)\b/);
    expect(bar(op.id).x + bar(op.id).width, `a running bar reaches now: ${JSON.stringify(bar(op.id))}`).toBeGreaterThanOrEqual(995);
  }
  expect(bar(first.id).y, 'operations that ran at once share no lane').not.toBe(bar(second.id).y);
  // An ended one stops where it ended, before the later ones began.
  expect(bar(done.id).x + bar(done.id).width).toBeLessThanOrEqual(Math.max(bar(first.id).x, bar(second.id).x) + 4);
  await shot(page, 'operations-timeline-1280');
  await page.setViewportSize({ width: 390, height: 860 });
  await shot(page, 'operations-timeline-390');
  await page.setViewportSize({ width: 1280, height: 860 });

  // A bar leads to its operation's page.
  await picture(page).locator(`a[aria-label^="Update pool · failed"]`).click();
  await expect(page).toHaveURL(new RegExp(`/operations/${failed.id}`));
  await expect(page.getByRole('heading', { level: 1 }).filter({ hasText: 'Update pool' })).toBeVisible();
});
