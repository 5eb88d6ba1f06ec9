// An operation's own page (/projects/…/operations/{id}): a submitted create or
// update lands there, so a reload or a shared link keeps its progress; it shows
// the statuses it was seen in, its changes, its time against the usual time of
// its kind, and its end: the resource, or the way back to the form holding what
// was asked. Each test starts from a fresh demo world, at the API's own pace:
// the test ends an operation once the page has shown it in flight.
import { test, expect, shot } from './fixtures.mjs';

/** Both widths of the page as it is now. */
async function shots(page, name) {
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 860 });
  await shot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 860 });
}

const opUrl = (demo) => new RegExp(`/projects/${demo.project}/operations/([0-9a-f-]{36})(\\?.*)?$`);
const clusterPath = (demo) => `/projects/${demo.project}/clusters/${demo.cluster}`;
const poolPath = (demo) => `${clusterPath(demo)}/pools/${demo.baseline}`;
const timeline = (page) => page.getByRole('list', { name: 'Statuses seen' });
/** The page's progress line while the operation is in flight. */
const inFlight = (page, title) => page.getByRole('status').filter({ hasText: new RegExp(`${title} — operation .* is (pending|running|unknown)`) });

test('Create cluster lands on its operation page; a reload keeps the progress, the end opens the cluster, and a shared link shows it', async ({ api, control, demo, open }) => {
  const page = await open(`/projects/${demo.project}/clusters/new`);
  // This test is about the cluster alone: its first pool (on by default) is removed.
  await page.getByRole('button', { name: 'Remove first pool' }).click();
  await page.getByLabel('Name', { exact: true }).fill('edge-staging');
  await page.getByLabel('Kubernetes version').selectOption('v1.34.4');
  await page.getByLabel('VPC').selectOption({ label: 'prod-spare-vpc (10.21.0.0/24)' });
  await page.getByRole('radio', { name: 'On' }).check();
  const create = page.getByRole('button', { name: 'Create cluster' });
  await expect(create).toBeEnabled();
  await create.click();

  await expect(page).toHaveURL(opUrl(demo));
  const opId = page.url().match(opUrl(demo))[1];
  const op = await api('GET', `/v1/operations/${opId}`);
  expect([op.kind, op.type], "the page is the cluster create's").toEqual(['nks_cluster', 'create']);
  const progress = page.getByRole('status').filter({ hasText: `Create cluster — operation ${opId} is` });
  await expect(progress).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Create cluster edge-staging', exact: true })).toBeVisible();

  // A reload keeps the progress: the page reads the operation and follows it
  // (the create takes the API's 20 minutes, so it is still in flight).
  await page.reload();
  await expect(progress).toHaveText(/is (pending|running) · \d+ s/);
  const main = page.getByRole('main');
  await expect(main.getByRole('link', { name: 'edge-staging', exact: true })).toBeVisible();
  await expect(timeline(page).getByText('pending')).toBeVisible();
  await shots(page, 'operation-running');
  await expect(page, 'still on the operation page').toHaveURL(new RegExp(`/operations/${opId}(\\?.*)?$`));

  // Its end, watched: the cluster opens, as the form did.
  await control.finish({ id: opId });
  await expect(page.getByRole('heading', { name: 'edge-staging', exact: true })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/clusters/${op.resource_id}$`));

  // The same address in a fresh browser (a shared link): the ended operation,
  // and its resource linked, not opened.
  const shared = await open(`/projects/${demo.project}/operations/${opId}`);
  const done = shared.getByRole('status').filter({ hasText: `Create cluster — operation ${opId} is done` });
  await expect(done).toBeVisible();
  await expect(shared.getByRole('heading', { name: 'Create cluster edge-staging', exact: true })).toBeVisible();
  const link = shared.getByRole('link', { name: 'Open the cluster edge-staging' });
  await expect(link).toBeVisible();
  // The page has read the ended operation and drawn all it shows of it: had it
  // been going to open the cluster, it would have done so on that read.
  await expect(timeline(shared).getByRole('listitem')).toHaveText([
    /^pending \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/,
    /^running not seen here; the API keeps no time for this step$/,
    /^done \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/,
  ]);
  await expect(shared.getByText(/^Took \d+ s\./)).toBeVisible();
  await expect(shared, 'an operation that had ended is linked, not opened').toHaveURL(new RegExp(`/operations/${opId}$`));
  await shots(shared, 'operation-done');
  await link.click();
  await expect(shared.getByRole('heading', { name: 'edge-staging', exact: true })).toBeVisible();
  await expect(shared).toHaveURL(new RegExp(`/clusters/${op.resource_id}$`));
});

test('an operation the API no longer knows shows as such on its page, followed or read after a reload', async ({ control, demo, open }) => {
  // At the API's pace the update (2 minutes) is still running when the world restarts.
  const page = await open(`${poolPath(demo)}/edit`);
  await page.getByLabel('Node count').fill('4');
  await expect(page.getByText(/Scaling up from 3 to 4: safe/)).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(opUrl(demo));
  const progress = page.getByRole('status').filter({ hasText: 'Update pool — operation' });
  await expect(progress).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Update pool baseline', exact: true })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Changes' }).getByText('node_count: 3 → 4')).toBeVisible();

  await control.reset({ seed: 'demo' });
  await expect(progress.getByText('no longer known', { exact: true })).toBeVisible();
  await expect(progress.getByText(/no longer known to the API \(it answered 404\)/)).toBeVisible();
  await expect(timeline(page).getByText('no longer known')).toBeVisible();
  await expect(page.getByText(/^Elapsed \d/), 'no time is claimed for a lost operation').toHaveCount(0);
  await shots(page, 'operation-lost');

  // Read again after a reload: the API answers 404, and the page says so.
  await page.reload();
  const unknown = page.getByRole('status').filter({ hasText: 'no longer known' });
  await expect(unknown).toBeVisible();
  await expect(unknown.getByText(/no longer known to the API \(it answered 404\)/)).toBeVisible();
  await expect(page.getByText('Loading the operation…')).toHaveCount(0);
  await shot(page, 'operation-lost-reloaded');
});

test('the usual time: none without history, then the median of past ones of the kind, a bar, and past it without calling it failed', async ({ api, control, demo, open }) => {
  // An ended cluster update, opened later: nothing of its kind ended before it.
  const first = await api('PATCH', `/v1/nks/clusters/${demo.cluster}`, { tags: ['one'] });
  await control.finish({ id: first.id });
  // A context of its own: its clock is set below.
  const page = await open(`/projects/${demo.project}/operations/${first.id}`, { fresh: true });
  await expect(page.getByText('No usual time: no past cluster updates in this project ended yet.')).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveCount(0);

  // Two more, of 3 s each (a cluster update at time scale 0.05, its 3 s passed
  // on the simulator's clock); then one through the form, at the API's pace.
  await control.timeScale(0.05);
  for (const tags of [['two'], ['three']]) {
    const op = await api('PATCH', `/v1/nks/clusters/${demo.cluster}`, { tags });
    await control.advance(3_000);
    expect((await api('GET', `/v1/operations/${op.id}`)).status).toBe('done');
  }
  await control.timeScale(1);
  // The simulator's clock is now ahead of the wall by those 6 s: the page's
  // clock is set to the simulator's, so the next operation's elapsed time
  // starts at 0 and runs on from there.
  const { now_ms: simNow } = await control('GET', '/_sim/clock');
  await page.clock.install({ time: simNow });
  await page.goto(new URL(`${clusterPath(demo)}/edit`, page.url()).href);
  await page.getByLabel('Tags').fill('four');
  await page.getByRole('button', { name: 'Save', disabled: false }).click();
  await expect(page).toHaveURL(opUrl(demo));
  const usual = page.getByText(/Usually about (\d+) s, from 3 past cluster updates\./);
  await expect(usual).toBeVisible();
  const about = Number((await usual.textContent()).match(/Usually about (\d+) s/)[1]);
  expect(about, 'the median of three 3 s updates').toBeGreaterThanOrEqual(1);
  expect(about, 'the median of three 3 s updates').toBeLessThanOrEqual(4);
  const bar = page.getByRole('progressbar', { name: 'Time so far against the usual time' });
  await expect(bar).toHaveAttribute('max', String(about));
  // Past the usual time (a few seconds on): said, without calling it failed; it is still followed.
  const past = page.getByText(/^Running past the usual time \(about \d+ s\) by \d+ s\./);
  await expect(past).toContainText('does not mean it failed: it is still followed');
  await expect(bar, 'the bar is full').toHaveAttribute('value', String(about));
  await expect(page.getByRole('status').filter({ hasText: 'Update cluster — operation' })).toHaveText(/is (pending|running)/);
  await shots(page, 'operation-past-usual');
});

test('a failed update shows the failure, and "Back to the form" returns to the form as it was filled', async ({ control, demo, open }) => {
  await control.nextOutcome({ outcome: 'failed', kind: 'nks_node_pool' });
  const page = await open(`${poolPath(demo)}/edit`);
  await page.getByLabel('Node count').fill('6');
  await page.getByLabel('Tags').fill('asked, twice');
  await expect(page.getByText(/Scaling up from 3 to 6: safe/)).toBeVisible();
  await page.getByRole('button', { name: 'Save', disabled: false }).click();
  await expect(page).toHaveURL(opUrl(demo));
  await expect(inFlight(page, 'Update pool')).toBeVisible();
  await control.finish({ kind: 'nks_node_pool' });
  const failed = page.getByRole('alert').filter({ hasText: 'The platform ran the operation and it failed.' });
  await expect(failed).toBeVisible();
  await expect(page.getByText(/The API gives no reason for a failed operation/)).toBeVisible();
  await expect(timeline(page).getByText('failed')).toBeVisible();
  await shots(page, 'operation-failed');
  await page.getByRole('link', { name: 'Back to the form, with what was asked' }).click();
  await expect(page.getByRole('heading', { name: 'Edit pool baseline' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${poolPath(demo)}/edit$`));
  await expect(page.getByLabel('Node count')).toHaveValue('6');
  await expect(page.getByLabel('Tags')).toHaveValue('asked, twice');
});

test("a replacement pool's page ends on what to do with the old pool, and the operations list links each operation", async ({ control, demo, open }) => {
  const page = await open(`${clusterPath(demo)}/pools/new?replace=${demo.baseline}`);
  await expect(page.getByRole('heading', { name: 'Replace pool' })).toBeVisible();
  await expect(page.locator('#pool-name')).toHaveValue('baseline-v2');
  await page.getByRole('button', { name: 'Create pool', disabled: false }).click();
  await expect(page).toHaveURL(opUrl(demo));
  const url = new URL(page.url());
  expect(url.searchParams.get('cluster')).toBe(demo.cluster);
  expect(url.searchParams.get('replace')).toBe(demo.baseline);
  // Seen in flight, then ended: the page follows it to its end.
  await expect(inFlight(page, 'Create pool')).toBeVisible();
  await control.finish({ kind: 'nks_node_pool' });
  const ready = page.getByRole('heading', { name: 'The replacement pool is ready' });
  await expect(ready).toBeVisible();
  await expect(page.getByLabel('Drain commands', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Then delete the old pool' })).toBeVisible();
  expect(page.url(), 'a replacement stays on its page').toContain('/operations/');
  const opId = url.pathname.split('/').pop();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operations' }).click();
  const row = page.getByRole('table', { name: 'Operations' }).getByRole('row').filter({ hasText: 'edge-prod / baseline-v2' });
  await row.getByRole('link', { name: 'Create pool' }).click();
  await expect(page).toHaveURL(opUrl(demo));
  expect(new URL(page.url()).pathname).toBe(`/projects/${demo.project}/operations/${opId}`);
  expect(new URL(page.url()).searchParams.get('cluster'), "a pool's operation carries its cluster").toBe(demo.cluster);
  await expect(page.getByRole('link', { name: 'Open the pool baseline-v2' })).toBeVisible();
});

test('opened from the Operations list while running, an operation stays on its page when it ends, with its timeline, its time and the link; reopened, its timeline is the same', async ({ api, control, demo, open }) => {
  const op = await api('PATCH', `/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}`, { node_count: 4 });
  const list = await open(`/projects/${demo.project}/operations`);
  await list.getByRole('table', { name: 'Operations' }).locator(`a[href*="${op.id}"]`).first().click();
  await expect(list).toHaveURL(new RegExp(`/operations/${op.id}`));
  const page = list;
  const progress = page.getByRole('status').filter({ hasText: `Update pool — operation ${op.id}` });
  await expect(progress).toContainText(/is pending/);
  // Past its pending share on the simulator's clock: seen running here.
  await control.advance(10_000);
  await expect(progress).toContainText(/is running/);
  await control.finish({ id: op.id });
  await expect(progress).toContainText(/is done/);
  await expect(page.getByRole('link', { name: 'Open the pool baseline' })).toBeVisible();
  await expect(page.getByText(/^Took \d+ s\./)).toBeVisible();
  await expect(page, 'still on the operation page').toHaveURL(new RegExp(`/operations/${op.id}`));
  const statuses = (p) => timeline(p).getByRole('listitem').locator('.badge');
  await expect(statuses(page)).toHaveText(['pending', 'running', 'done']);
  await shot(page, 'operation-ended-in-place');

  const reopened = await open(`/projects/${demo.project}/operations/${op.id}`);
  await expect(reopened.getByRole('status').filter({ hasText: 'is done' })).toBeVisible();
  await expect(statuses(reopened), 'the same steps as watched live').toHaveText(['pending', 'running', 'done']);
  await expect(timeline(reopened).getByRole('listitem').nth(1)).toContainText('not seen here; the API keeps no time for this step');
  // Still on the page: nothing moved it.
  await expect(page).toHaveURL(new RegExp(`/operations/${op.id}`));
});
