// Hostile and odd text, typed by a person or sent back by the API: markup and
// script, very long strings, right-to-left and combining marks, emoji, control
// characters. It is always shown as inert text (no element injected, no dialog,
// no console error) and the layout holds at 1280 and 800 px. Each test plants
// the hostile data in a fresh demo world.
import { test, expect, shot } from './fixtures.mjs';

// Names the API may hold: cluster and pool names it accepts now are DNS labels,
// but older data (or another tool) may hold anything, so these are planted with
// the simulator's test control POST /_sim/rename after a valid create.
const NAMES = {
  img: '<img src=x onerror="window.__pwned=1">',
  script: '<script>window.__pwned=1</script>',
  rtl: '\u202Eloop-evil\u202C מאגר-עבודה',
  emoji: '🚀pool-e\u0301\u0301\u0301-👩‍👩‍👧‍👦-Z\u0336a\u0336',
  long: 'w'.repeat(63),
};
// Tags may carry control characters (the API only bounds their length).
const TAGS = ['<b>bold</b>', 'x'.repeat(63), 'bell\u0007tab\tesc\u001b', '\u202Eright-to-left', '"quoted" & \'apos\''];
const LABELS = ['team=<i>x</i>', '<svg onload=window.__pwned=1>=v'];
const TAINTS = ['evil<script>=v:NoSchedule'];

/**
 * Plants the hostile data in the demo world: through the API directly, as
 * another tool could, then the names the API refuses today as old data would
 * hold them. Every operation this starts ends at once, so the lists are stable.
 */
async function plant(api, control, demo) {
  for (const [i, name] of Object.values(NAMES).entries()) {
    const op = await api('POST', `/v1/nks/clusters/${demo.cluster}/pools`, {
      name: `hostile-${i}`,
      node_count: 0,
      node_config: { instance_type: 'n1-standard-4', boot_volume: { size: 64, type: 'abs' }, labels: LABELS, taints: TAINTS },
      tags: TAGS,
    });
    await control('POST', '/_sim/rename', { kind: 'pool', id: op.resource_id, name });
  }
  await api('PATCH', `/v1/nks/clusters/${demo.cluster}`, { tags: TAGS });
  await control('POST', '/_sim/rename', { kind: 'cluster', id: demo.cluster, name: '<svg onload=window.__pwned=1>edge' });
  await control.finish();
}

/** A page at `path` that records dialogs and console errors, from its first moment. */
const watched = (open, width, path) =>
  open(path, {
    width,
    height: 900,
    beforeLoad: (page) => {
      page.dialogs = [];
      page.errors = [];
      page.on('dialog', (d) => {
        page.dialogs.push(d.message());
        d.dismiss().catch(() => {});
      });
      // A failed load is logged by the browser without its address: keep the address instead.
      page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && page.errors.push(m.text()));
      page.on('response', (r) => r.status() >= 400 && page.errors.push(`${r.status()} ${r.url()}`));
      page.on('pageerror', (e) => page.errors.push(e.message));
    },
  });

async function assertInert(page, where, { overflow = true } = {}) {
  const found = await page.evaluate(() => ({
    pwned: window.__pwned,
    handlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length,
    injected: document.querySelectorAll('body script, main img, main svg[onload], main b, main i').length,
    overflow: document.documentElement.scrollWidth - window.innerWidth,
  }));
  expect(found.pwned, `script ran on ${where}`).toBeUndefined();
  expect(found.handlers, `an element with an on* attribute was injected on ${where}`).toBe(0);
  expect(found.injected, `markup from data became elements on ${where}`).toBe(0);
  expect(page.dialogs, `a dialog opened on ${where}`).toEqual([]);
  expect(page.errors, `console errors on ${where}`).toEqual([]);
  if (overflow) expect(found.overflow, `${where} scrolls sideways`).toBeLessThanOrEqual(0);
}

for (const width of [1280, 800]) {
  test(`names, tags, labels and taints sent by the API render as inert text at ${width} px`, async ({ api, control, demo, open }) => {
    await plant(api, control, demo);
    const page = await watched(open, width, `/projects/${demo.project}/clusters`);
    const clusters = page.getByRole('table', { name: 'Clusters' });
    await expect(clusters.getByRole('link', { name: '<svg onload=window.__pwned=1>edge' })).toBeVisible();
    await assertInert(page, 'the cluster list');

    await clusters.getByRole('link', { name: '<svg onload=window.__pwned=1>edge' }).click();
    const pools = page.getByRole('table', { name: 'Pools' });
    for (const name of Object.values(NAMES)) {
      await expect(pools.getByRole('link', { name, exact: true }), name).toBeVisible();
    }
    await expect(page.getByText('<b>bold</b>', { exact: true }).first()).toBeVisible();
    await expect(page.getByText('team=<i>x</i>', { exact: true }).first()).toBeVisible();
    await shot(page, `hostile-cluster-${width}`);
    await assertInert(page, 'the cluster page');

    for (const name of [NAMES.img, NAMES.long]) {
      await pools.getByRole('link', { name, exact: true }).click();
      await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
      await assertInert(page, `the pool page of ${name}`);
      await page.getByRole('link', { name: 'Edit or scale' }).click();
      await expect(page.getByRole('button', { name: 'Save' })).toBeVisible();
      await assertInert(page, `the edit page of ${name}`);
      await page.goBack();
      await page.goBack();
      await expect(pools).toBeVisible();
    }
    await shot(page, `hostile-pool-${width}`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operations' }).click();
    await expect(page.getByRole('table', { name: 'Operations' })).toBeVisible();
    await assertInert(page, 'the operations page');
  });
}

test('hostile text typed into a form is checked, echoed as text, and sent as typed', async ({ api, control, demo, open }) => {
  await plant(api, control, demo);
  const page = await watched(open, 1280, `/projects/${demo.project}/clusters/${demo.cluster}/pools/new`);
  await expect(page.getByRole('heading', { name: /^Create pool/ })).toBeVisible();
  const name = page.getByLabel('Name', { exact: true });
  await name.fill('bad\u0007name');
  await expect(page.getByText(/^Name has control or invisible characters\. /)).toBeVisible();
  await name.fill('y'.repeat(64));
  await expect(page.getByText(/^Name is 64 characters long\. /)).toBeVisible();
  await page.getByLabel('Labels').fill('<img src=x onerror=window.__pwned=1>=v');
  await expect(page.getByText(/Key "<img src" must be/)).toBeVisible();
  await assertInert(page, 'the form with a refused label');
  await shot(page, 'hostile-form');

  // A hostile name is refused (not a DNS label), its characters named as text,
  // and kept in the field as typed; the rest of the form goes as typed.
  const hostile = '<img src=x onerror=alert(1)> 🚀 \u202Eabc';
  await name.fill(hostile);
  await expect(page.getByText(/^Name has spaces, has "<", "=", "\(", "\)", ">", … and has control or invisible characters\. /)).toBeVisible();
  await assertInert(page, 'the form with a refused hostile name');
  await expect(name).toHaveValue(hostile);
  const typed = 'hostile-typed';
  await name.fill(typed);
  await page.getByLabel('Labels').fill('team=a-b');
  await page.getByLabel('Instance type').selectOption('n1-standard-4');
  await page.getByLabel('Boot volume size (GB)').fill('64');
  await page.getByLabel('Boot volume type').selectOption('abs');
  await page.getByLabel('Node count').fill('0');
  await page.getByLabel('Tags').fill('<script>alert(1)</script>, e\u0301\u0301, 🙂');
  const create = page.getByRole('button', { name: 'Create pool' });
  await expect(create).toBeEnabled();
  const posted = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname.endsWith('/pools'));
  await create.click();
  const body = JSON.parse((await posted).postData());
  expect(body.name).toBe(typed);
  expect(body.tags).toEqual(['<script>alert(1)</script>', 'e\u0301\u0301', '🙂']);
  // Followed in flight, then ended: the form's operation opens the new pool.
  await expect(page.getByRole('status').filter({ hasText: /Create pool .* is (pending|running)/ })).toBeVisible();
  await control.finish({ kind: 'nks_node_pool' });
  await expect(page.getByRole('heading', { name: typed, exact: true })).toBeVisible();
  await assertInert(page, 'the new pool page');
});

test('a 63-character name without a break point does not widen the pool page at 800 px', async ({ api, control, demo, open }) => {
  await plant(api, control, demo);
  const pool = (await api('GET', `/v1/nks/clusters/${demo.cluster}/pools`)).items.find((p) => p.name === NAMES.long);
  const page = await watched(open, 800, `/projects/${demo.project}/clusters/${demo.cluster}/pools/${pool.id}`);
  await expect(page.getByRole('heading', { name: NAMES.long })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the pool page scrolls sideways').toBeLessThanOrEqual(0);
});

test('long unbroken names and tags do not widen the operations page at 800 px', async ({ api, control, demo, open }) => {
  await plant(api, control, demo);
  const page = await watched(open, 800, `/projects/${demo.project}/operations`);
  // Measured once the rows of the long-named pool are drawn.
  await expect(page.getByRole('table', { name: 'Operations' }).getByRole('row').filter({ hasText: NAMES.long }).first()).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the operations page scrolls sideways').toBeLessThanOrEqual(0);
});

test('a name holding direction controls is isolated wherever it is shown, and its typed delete asks for the controls written out', async ({ control, demo, open }) => {
  const name = 'web\u202Elave\u202C-zero';
  await control('POST', '/_sim/rename', { kind: 'pool', id: demo.zero, name });
  const page = await open(`/projects/${demo.project}/clusters/${demo.cluster}`);
  const link = page.getByRole('table', { name: 'Pools' }).getByRole('link', { name: /lave/ });
  await expect(link).toBeVisible();
  // Every inline element holding it is isolated: it reorders nothing around it.
  const bidi = () => page.evaluate(() => [...document.querySelectorAll('a, strong, label, .chip, .badge')]
    .filter((e) => e.textContent.includes('\u202E'))
    .map((e) => getComputedStyle(e).unicodeBidi));
  expect(await bidi()).toContain('isolate');
  expect((await bidi()).every((v) => v === 'isolate'), (await bidi()).join()).toBe(true);
  await link.click();
  // The confirmation writes the controls out; what is typed is compared with what is shown.
  const shown = 'web[U+202E]lave[U+202C]-zero';
  const field = page.getByLabel(`Type ${shown} to confirm`);
  await expect(field).toBeVisible();
  await expect(page.getByText(/holds invisible characters that reorder the text around them/)).toBeVisible();
  const confirm = page.getByRole('button', { name: 'Delete pool' });
  await field.fill(name);
  await expect(confirm, 'the raw name is not what is shown').toBeDisabled();
  await field.fill(shown);
  await expect(confirm, 'typed as shown').toBeEnabled();
  expect((await bidi()).every((v) => v === 'isolate'), (await bidi()).join()).toBe(true);
  await shot(page, 'bidi-name-confirm');
});
