// Accessibility: axe-core finds no serious or critical violation on any page,
// and the main flow works from the keyboard alone with a visible focus.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, seriousViolations } from './harness.mjs';

let sim;
let browser;
let ids;

before(async () => {
  sim = await startSim();
  browser = await startBrowser();
  const projects = await sim.api('/v1/projects');
  const production = projects.items.find((p) => p.name === 'Production');
  const clusters = await sim.api(`/v1/nks/clusters?project_id=${production.id}`);
  const cluster = clusters.items.find((c) => c.name === 'edge-prod');
  const pools = await sim.api(`/v1/nks/clusters/${cluster.id}/pools`);
  const pool = pools.items.find((p) => p.name === 'baseline');
  ids = { project: production.id, cluster: cluster.id, pool: pool.id };
});

after(async () => {
  await browser?.close();
  await sim?.stop();
});

function report(violations) {
  return violations
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n    ${v.nodes.join('\n    ')}`)
    .join('\n');
}

/** Waits until the page named by its heading has finished loading. */
async function settled(page, heading) {
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  await page.getByText(/^Loading/).first().waitFor({ state: 'detached' });
}

test('the connect screen has no serious or critical accessibility violation', async () => {
  const { context, page } = await openPage(browser);
  await page.goto(sim.url + '/');
  await settled(page, 'Connect to Nirvana NKS');
  const violations = await seriousViolations(page);
  assert.equal(violations.length, 0, report(violations));
  await context.close();
});

test('every page of the console has no serious or critical accessibility violation', async () => {
  const { project, cluster, pool } = ids;
  const clusterPath = `/projects/${project}/clusters/${cluster}`;
  const pages = [
    ['clusters list', `/projects/${project}/clusters`, 'Clusters'],
    ['clusters list with capacity and cost', `/projects/${project}/clusters?figures=on`, 'Clusters'],
    ['cluster page', clusterPath, 'edge-prod'],
    ['pool page', `${clusterPath}/pools/${pool}`, 'baseline'],
    ['edit pool', `${clusterPath}/pools/${pool}/edit`, 'Edit pool baseline'],
    ['create pool', `${clusterPath}/pools/new`, 'Create pool'],
    ['create cluster', `/projects/${project}/clusters/new`, 'Create cluster'],
    ['edit cluster', `${clusterPath}/edit`, 'Edit cluster edge-prod'],
    ['operations', `/projects/${project}/operations`, 'Operations'],
    ['networking', `/projects/${project}/networking`, 'Networking'],
    ['settings', '/settings', 'Settings'],
    ['not found', '/no/such/page', 'Page not found'],
  ];
  const { context, page } = await openPage(browser);
  await page.goto(sim.url + '/');
  await connect(page);
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  const failures = [];
  for (const [name, route, heading] of pages) {
    await page.goto(sim.url + route);
    await settled(page, heading);
    const violations = await seriousViolations(page);
    if (violations.length) failures.push(`${name} (${route}):\n  ${report(violations)}`);
  }
  assert.equal(failures.length, 0, failures.join('\n\n'));
  await context.close();
});

test('the dark theme keeps the same contrast: no serious or critical violation', async () => {
  const { project, cluster } = ids;
  const { context, page } = await openPage(browser);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(sim.url + '/');
  await settled(page, 'Connect to Nirvana NKS');
  const failures = [];
  const check = async (name) => {
    const violations = await seriousViolations(page);
    if (violations.length) failures.push(`${name} (dark):\n  ${report(violations)}`);
  };
  await check('connect');
  await connect(page);
  await page.getByRole('table', { name: 'Clusters' }).waitFor();
  for (const [name, route, heading] of [
    ['clusters list', `/projects/${project}/clusters`, 'Clusters'],
    ['cluster page', `/projects/${project}/clusters/${cluster}`, 'edge-prod'],
    ['edit cluster', `/projects/${project}/clusters/${cluster}/edit`, 'Edit cluster edge-prod'],
  ]) {
    await page.goto(sim.url + route);
    await settled(page, heading);
    await check(name);
  }
  assert.equal(failures.length, 0, failures.join('\n\n'));
  await context.close();
});

/** What has the focus, and whether a focus ring is drawn around it. */
function focused(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    const style = el ? getComputedStyle(el) : null;
    return {
      text: (el?.innerText || el?.getAttribute('aria-label') || el?.id || '').trim(),
      ring: !!style && style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0,
    };
  });
}

/** Presses Tab until the element whose text is `name` has the focus; every stop shows a focus ring. */
async function tabTo(page, name, limit = 60) {
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    assert.ok(now.ring, `no visible focus on "${now.text}"`);
    if (now.text === name) return;
  }
  assert.fail(`"${name}" was not reached with Tab`);
}

test('from the keyboard alone: connect, open a cluster, a pool, and its edit form', async () => {
  const { context, page } = await openPage(browser);
  await page.goto(sim.url + '/');
  await page.getByRole('heading', { name: 'Connect to Nirvana NKS' }).waitFor();
  await tabTo(page, 'api-key');
  await page.keyboard.type('nks-demo-key');
  await page.keyboard.press('Enter');
  await page.getByRole('table', { name: 'Clusters' }).getByRole('link', { name: 'edge-prod' }).waitFor();
  await tabTo(page, 'edge-prod');
  await page.keyboard.press('Enter');
  await page.getByRole('table', { name: 'Pools' }).getByRole('link', { name: 'baseline' }).waitFor();
  await tabTo(page, 'baseline');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'baseline', level: 1 }).waitFor();
  await tabTo(page, 'Edit or scale');
  await page.keyboard.press('Enter');
  await assert.doesNotReject(page.getByRole('heading', { name: 'Edit pool baseline' }).waitFor());
  await context.close();
});
