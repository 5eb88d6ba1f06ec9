// Hostile and odd text, typed by a person or sent back by the API: markup and
// script, very long strings, right-to-left and combining marks, emoji, control
// characters. It is always shown as inert text (no element injected, no dialog,
// no console error) and the layout holds at 1280 and 800 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, shot, DEMO_KEY } from './harness.mjs';

let sim;
let browser;
let ids;

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

async function call(method, route, body) {
  const res = await fetch(sim.url + route, {
    method,
    headers: { authorization: `Bearer ${DEMO_KEY}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  assert.ok(res.ok, `${method} ${route} answered ${res.status}: ${await res.clone().text()}`);
  return res.json();
}

async function rename(kind, id, name) {
  const res = await fetch(sim.url + '/_sim/rename', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind, id, name }),
  });
  assert.equal(res.status, 200, `rename ${kind} ${id}: ${await res.text()}`);
}

before(async () => {
  sim = await startSim({ timeScale: '0.01' });
  browser = await startBrowser();
  const project = (await call('GET', '/v1/projects')).items.find((p) => p.name === 'Production');
  const cluster = (await call('GET', `/v1/nks/clusters?project_id=${project.id}`)).items[0];
  ids = { project: project.id, cluster: cluster.id };
  // Through the API directly, as another tool could; the names the API refuses
  // today are then planted as old data would hold them.
  for (const [i, name] of Object.values(NAMES).entries()) {
    const op = await call('POST', `/v1/nks/clusters/${cluster.id}/pools`, {
      name: `hostile-${i}`,
      node_count: 0,
      node_config: { instance_type: 'n1-standard-4', boot_volume: { size: 64, type: 'abs' }, labels: LABELS, taints: TAINTS },
      tags: TAGS,
    });
    await rename('pool', op.resource_id, name);
  }
  await call('PATCH', `/v1/nks/clusters/${cluster.id}`, { tags: TAGS });
  await rename('cluster', cluster.id, '<svg onload=window.__pwned=1>edge');
  // Let the operations finish so the lists are stable.
  await new Promise((r) => setTimeout(r, 6000));
});

after(async () => {
  await browser?.close();
  await sim?.stop();
});

/** A page that records dialogs and console errors as well. */
async function open(width, path) {
  const { context, page } = await openPage(browser, { width, height: 900 });
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
  await page.goto(sim.url + path);
  await connect(page);
  return { context, page };
}

async function assertInert(page, where, { overflow = true } = {}) {
  const found = await page.evaluate(() => ({
    pwned: window.__pwned,
    handlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length,
    injected: document.querySelectorAll('body script, main img, main svg[onload], main b, main i').length,
    overflow: document.documentElement.scrollWidth - window.innerWidth,
  }));
  assert.equal(found.pwned, undefined, `script ran on ${where}`);
  assert.equal(found.handlers, 0, `an element with an on* attribute was injected on ${where}`);
  assert.equal(found.injected, 0, `markup from data became elements on ${where}`);
  assert.deepEqual(page.dialogs, [], `a dialog opened on ${where}`);
  assert.deepEqual(page.errors, [], `console errors on ${where}`);
  if (overflow) assert.ok(found.overflow <= 0, `${where} scrolls sideways by ${found.overflow}px`);
}

for (const width of [1280, 800]) {
  test(`names, tags, labels and taints sent by the API render as inert text at ${width} px`, async () => {
    const { context, page } = await open(width, `/projects/${ids.project}/clusters`);
    const clusters = page.getByRole('table', { name: 'Clusters' });
    await clusters.getByRole('link', { name: '<svg onload=window.__pwned=1>edge' }).waitFor();
    await assertInert(page, 'the cluster list');

    await clusters.getByRole('link', { name: '<svg onload=window.__pwned=1>edge' }).click();
    const pools = page.getByRole('table', { name: 'Pools' });
    await pools.waitFor();
    for (const name of Object.values(NAMES)) {
      await assert.doesNotReject(pools.getByRole('link', { name, exact: true }).waitFor(), name);
    }
    await assert.doesNotReject(page.getByText('<b>bold</b>', { exact: true }).first().waitFor());
    await assert.doesNotReject(page.getByText('team=<i>x</i>', { exact: true }).first().waitFor());
    await shot(page, `hostile-cluster-${width}`);
    await assertInert(page, 'the cluster page');

    for (const name of [NAMES.img, NAMES.long]) {
      await pools.getByRole('link', { name, exact: true }).click();
      await page.getByRole('heading', { name, exact: true }).waitFor();
      await assertInert(page, `the pool page of ${name}`);
      await page.getByRole('link', { name: 'Edit or scale' }).click();
      await page.getByRole('button', { name: 'Save' }).waitFor();
      await assertInert(page, `the edit page of ${name}`);
      await page.goBack();
      await page.goBack();
      await pools.waitFor();
    }
    await shot(page, `hostile-pool-${width}`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operations' }).click();
    await page.getByRole('table', { name: 'Operations' }).waitFor();
    await assertInert(page, 'the operations page');
    await context.close();
  });
}

test('hostile text typed into a form is checked, echoed as text, and sent as typed', async () => {
  const { context, page } = await open(1280, `/projects/${ids.project}/clusters/${ids.cluster}/pools/new`);
  await page.getByRole('heading', { name: /^Create pool/ }).waitFor();
  const name = page.getByLabel('Name', { exact: true });
  await name.fill('bad\u0007name');
  await page.getByText(/^Name has control or invisible characters\. /).waitFor();
  await name.fill('y'.repeat(64));
  await page.getByText(/^Name is 64 characters long\. /).waitFor();
  await page.getByLabel('Labels').fill('<img src=x onerror=window.__pwned=1>=v');
  await page.getByText(/Key "<img src" must be/).waitFor();
  await assertInert(page, 'the form with a refused label');
  await shot(page, 'hostile-form');

  // A hostile name is refused (not a DNS label), its characters named as text,
  // and kept in the field as typed; the rest of the form goes as typed.
  const hostile = '<img src=x onerror=alert(1)> 🚀 \u202Eabc';
  await name.fill(hostile);
  await page.getByText(/^Name has spaces, has "<", "=", "\(", "\)", ">", … and has control or invisible characters\. /).waitFor();
  await assertInert(page, 'the form with a refused hostile name');
  assert.equal(await name.inputValue(), hostile);
  const typed = 'hostile-typed';
  await name.fill(typed);
  await page.getByLabel('Labels').fill('team=a-b');
  await page.getByLabel('Instance type').selectOption('n1-standard-4');
  await page.getByLabel('Boot volume size (GB)').fill('64');
  await page.getByLabel('Boot volume type').selectOption('abs');
  await page.getByLabel('Node count').fill('0');
  await page.getByLabel('Tags').fill('<script>alert(1)</script>, e\u0301\u0301, 🙂');
  const create = page.getByRole('button', { name: 'Create pool' });
  for (let i = 0; i < 100 && !(await create.isEnabled()); i++) await new Promise((r) => setTimeout(r, 100));
  const posted = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname.endsWith('/pools'));
  await create.click();
  const body = JSON.parse((await posted).postData());
  assert.equal(body.name, typed);
  assert.deepEqual(body.tags, ['<script>alert(1)</script>', 'e\u0301\u0301', '🙂']);
  await page.getByRole('heading', { name: typed, exact: true }).waitFor({ timeout: 30_000 });
  await assertInert(page, 'the new pool page');
  await context.close();
});

test(
  'a 63-character name without a break point does not widen the pool page at 800 px',
  {},
  async () => {
    const pool = (await call('GET', `/v1/nks/clusters/${ids.cluster}/pools`)).items.find((p) => p.name === NAMES.long);
    const { context, page } = await open(800, `/projects/${ids.project}/clusters/${ids.cluster}/pools/${pool.id}`);
    try {
      await page.getByRole('heading', { name: NAMES.long }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the pool page scrolls sideways by ${overflow}px`);
    } finally {
      await context.close();
    }
  },
);

test(
  'long unbroken names and tags do not widen the operations page at 800 px',
  {},
  async () => {
    const { context, page } = await open(800, `/projects/${ids.project}/operations`);
    try {
      await page.getByRole('table', { name: 'Operations' }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the operations page scrolls sideways by ${overflow}px`);
    } finally {
      await context.close();
    }
  },
);
