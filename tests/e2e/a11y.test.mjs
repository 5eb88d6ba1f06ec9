// Accessibility: axe-core finds no serious or critical violation on any page,
// and the main flow works from the keyboard alone with a visible focus.
import { test, expect, shot, seriousViolations, vpcTaken, newVpcClusterForm, DEMO_KEY } from './fixtures.mjs';

function report(violations) {
  return violations
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n    ${v.nodes.join('\n    ')}`)
    .join('\n');
}

/** Waits until the page named by its heading has finished loading. */
async function settled(page, heading) {
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
  await expect(page.getByText(/^Loading/)).toHaveCount(0);
}

test('the connect screen has no serious or critical accessibility violation', async ({ open }) => {
  const page = await open('/', { connected: false });
  await settled(page, 'Connect to Nirvana NKS');
  const violations = await seriousViolations(page);
  expect(violations.length, report(violations)).toBe(0);
});

test('every page of the console has no serious or critical accessibility violation', async ({ sim, demo, open }) => {
  const { project, cluster, baseline: pool } = demo;
  const clusterPath = `/projects/${project}/clusters/${cluster}`;
  const pages = [
    ['clusters list without its figures', `/projects/${project}/clusters?figures=off`, 'Clusters'],
    ['clusters list with capacity and cost', `/projects/${project}/clusters`, 'Clusters'],
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
  const page = await open('/');
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  const failures = [];
  for (const [name, route, heading] of pages) {
    await page.goto(sim.url + route);
    await settled(page, heading);
    const violations = await seriousViolations(page);
    if (violations.length) failures.push(`${name} (${route}):\n  ${report(violations)}`);
  }
  expect(failures.length, failures.join('\n\n')).toBe(0);
});

test('the dark theme keeps the same contrast: no serious or critical violation', async ({ sim, demo, open }) => {
  const { project, cluster } = demo;
  // The connect screen is checked too: the console opens without a key.
  const page = await open('/', { connected: false, contextOptions: { colorScheme: 'dark' } });
  await settled(page, 'Connect to Nirvana NKS');
  const failures = [];
  const check = async (name) => {
    const violations = await seriousViolations(page);
    if (violations.length) failures.push(`${name} (dark):\n  ${report(violations)}`);
  };
  await check('connect');
  await page.getByLabel('API key').fill(DEMO_KEY);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('table', { name: 'Clusters' })).toBeVisible();
  for (const [name, route, heading] of [
    ['clusters list without its figures', `/projects/${project}/clusters?figures=off`, 'Clusters'],
    ['cluster page', `/projects/${project}/clusters/${cluster}`, 'edge-prod'],
    ['edit cluster', `/projects/${project}/clusters/${cluster}/edit`, 'Edit cluster edge-prod'],
  ]) {
    await page.goto(sim.url + route);
    await settled(page, heading);
    await check(name);
  }
  expect(failures.length, failures.join('\n\n')).toBe(0);
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
    expect(now.ring, `no visible focus on "${now.text}"`).toBe(true);
    if (now.text === name) return;
  }
  throw new Error(`"${name}" was not reached with Tab`);
}

test('from the keyboard alone: connect, open a cluster, a pool, and its edit form', async ({ open }) => {
  const page = await open('/', { connected: false });
  await expect(page.getByRole('heading', { name: 'Connect to Nirvana NKS' })).toBeVisible();
  await tabTo(page, 'api-key');
  await page.keyboard.type(DEMO_KEY);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('table', { name: 'Clusters' }).getByRole('link', { name: 'edge-prod' })).toBeVisible();
  await tabTo(page, 'edge-prod');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('table', { name: 'Pools' }).getByRole('link', { name: 'baseline' })).toBeVisible();
  await tabTo(page, 'baseline');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'baseline', level: 1 })).toBeVisible();
  await tabTo(page, 'Edit or scale');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Edit pool baseline' })).toBeVisible();
});

test('the first Tab stop skips the header and navigation: "Skip to content" takes the focus to the page', async ({ demo, open }) => {
  const page = await open(`/projects/${demo.project}/clusters/${demo.cluster}`);
  await expect(page.getByRole('heading', { name: 'edge-prod', level: 1 })).toBeVisible();
  await page.locator('body').focus();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await shot(page, 'skip-link-focused');
  await page.keyboard.press('Enter');
  await expect(page.locator('main#main')).toBeFocused();
  // The page stayed where it was: the link is handled, not followed to the root.
  await expect(page).toHaveURL((url) => url.pathname === `/projects/${demo.project}/clusters/${demo.cluster}`);
  // The next Tab lands inside the page, past the header.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement.closest('main'))).toBe(true);
});

test.describe('a new VPC and its cluster', () => {
  test.use({ seed: 'empty' });

  test('after Enter on Create cluster, the focus moves to the progress that replaced the form, not to the page body', async ({ api, control, projects, open }) => {
    await vpcTaken(api, control, projects.Production);
    const page = await newVpcClusterForm(open, projects.Production);
    const create = page.getByRole('button', { name: /^Create VPC, cluster/ });
    await expect(page.getByRole('complementary', { name: 'Plan' }).getByText(/^Availability: /).first()).toBeVisible();
    await create.focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('.flow-line')).toBeVisible();
    expect(await page.evaluate(() => document.activeElement !== document.body && !!document.activeElement.closest('main')), 'the focus is in the page, not on its body').toBe(true);
    await expect(page.getByRole('region', { name: 'Create cluster: progress' })).toBeFocused();
    await shot(page, 'create-cluster-focus-after-enter');
  });
});
