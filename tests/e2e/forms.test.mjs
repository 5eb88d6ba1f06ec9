// Forms that help (issue 23, item 10): a refused submit puts focus on the first
// field in error with the message beside it; label and taint errors name their
// line; "Remove taint" is a button per row; the quota line says what a
// scale-down frees; "Fixed at creation" is said once per section; and no
// message shows the API's raw field path. Each test starts from a fresh demo world.
import { test, expect, shot } from './fixtures.mjs';

const clusterPath = (demo) => `/projects/${demo.project}/clusters/${demo.cluster}`;
const plan = (page) => page.getByRole('complementary', { name: 'Plan' });

/** The alert a screen reader reads with the control (through aria-describedby). */
function errorOf(control) {
  return control.evaluate((el) =>
    (el.getAttribute('aria-describedby') || '')
      .split(/\s+/)
      .map((id) => id && document.getElementById(id))
      .filter((d) => d && d.getAttribute('role') === 'alert')
      .map((d) => d.textContent.trim())
      .join(' '),
  );
}

/** Waits until the control's alert says `expected` (a string, exactly, or a pattern). */
async function expectError(control, expected, message) {
  const poll = expect.poll(() => errorOf(control), { message });
  await (expected instanceof RegExp ? poll.toMatch(expected) : poll.toBe(expected));
}

/** No text on the page shows an API field path such as "name: " or "node_config.labels[1]: ". */
async function noRawPaths(page) {
  const body = await page.locator('body').innerText();
  expect(body).not.toMatch(/(^|\s)(name|node_count|tags|node_config\.[a-z_.]+(\[\d+\])?): /m);
}

test('a submit the console refuses moves focus to the first field in error, beside its message, and keeps what was typed', async ({ demo, open }) => {
  const page = await open(`${clusterPath(demo)}/pools/new`);
  await page.getByLabel('Name', { exact: true }).fill('gpu-workers');
  await page.getByLabel('Labels').fill('team=ml');
  await page.getByLabel('Node count').fill('2');
  const create = page.getByRole('button', { name: 'Create pool' });
  await create.click();
  const type = page.getByLabel('Instance type');
  await expect(type).toBeFocused();
  await expectError(type, 'Choose an instance type.');
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('gpu-workers');
  await expect(page.getByLabel('Labels')).toHaveValue('team=ml');
  await shot(page, 'forms-refused-local');
});

for (const width of [1280, 390]) {
  test(`a create the API refuses (422) at ${width} px: focus on the name, a person's sentence beside it, nothing lost`, async ({ control, demo, open }) => {
    // The plan's check could not be made (503), so Apply stays available and the
    // create itself meets the simulator's duplicate-name rule.
    await control.fault({
      match: { method: 'POST', path_prefix: `/v1/nks/clusters/${demo.cluster}/pools/availability` },
      action: { type: 'status', status: 503, message: 'checks are down' },
    });
    const page = await open(`${clusterPath(demo)}/pools/new`, { width });
    await page.getByLabel('Name', { exact: true }).fill('baseline');
    await page.getByLabel('Instance type').selectOption('n1-standard-4');
    await page.getByLabel('Labels').fill('tier=extra');
    const create = page.getByRole('button', { name: 'Create pool' });
    await expect(plan(page).getByText(/Availability could not be checked/)).toBeVisible();
    await create.click();
    const name = page.getByLabel('Name', { exact: true });
    await expectError(name, 'A pool named baseline already exists in this cluster.');
    await expect(name).toBeFocused();
    await noRawPaths(page);
    await expect(name).toHaveValue('baseline');
    await expect(page.getByLabel('Labels')).toHaveValue('tier=extra');
    await expect(page.getByLabel('Instance type')).toHaveValue('n1-standard-4');
    await shot(page, `forms-refused-create-pool-${width}`);
  });
}

test("the plan's own refusal of a taken name says it as a person would, beside the name and in the plan", async ({ demo, open }) => {
  const page = await open(`${clusterPath(demo)}/pools/new`);
  await page.getByLabel('Name', { exact: true }).fill('baseline');
  await page.getByLabel('Instance type').selectOption('n1-standard-4');
  await expect(plan(page).getByText(/Availability: cannot be done/)).toBeVisible();
  await expectError(page.getByLabel('Name', { exact: true }), 'A pool named baseline already exists in this cluster.');
  await noRawPaths(page);
});

test('label errors name their line, beside the labels; the API\'s label index is told as the line it came from', async ({ control, demo, open }) => {
  const page = await open(`${clusterPath(demo)}/pools/new`);
  const labels = page.getByLabel('Labels');
  await labels.fill('tier=web\n\nkubernetes.io/role=x');
  await expectError(labels, /^Line 3: .*reserved/);
  // A label the API refuses though the console let it pass: the index counts
  // only the labels sent, the line counts the textarea's lines.
  await control.fault({
    match: { method: 'POST', path_prefix: `/v1/nks/clusters/${demo.cluster}/pools/availability` },
    action: { type: 'status', status: 422, message: 'node_config.labels[1]: label keys under example.io are reserved' },
  });
  await page.getByLabel('Name', { exact: true }).fill('web');
  await page.getByLabel('Instance type').selectOption('n1-standard-4');
  await labels.fill('tier=web\n\nexample.io/role=x');
  await expectError(labels, 'Line 3: label keys under example.io are reserved.');
  await noRawPaths(page);
});

test('every bad label line and every bad port is told at once, each drawn on a line of its own, and what was typed stays', async ({ api, demo, open }) => {
  const drawnLines = (control) =>
    control.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby').split(/\s+/).find((id) => document.getElementById(id)?.getAttribute('role') === 'alert')).innerText.split('\n'));
  const page = await open(`${clusterPath(demo)}/pools/new`);
  const labels = page.getByLabel('Labels');
  const typed = 'tier=web\nnot a label\ntier=api\nteam=ml';
  await labels.fill(typed);
  await expectError(labels, 'Line 2: Label "not a label" must look like key=value.\nLine 3: label key "tier" is already on line 1.');
  expect(await drawnLines(labels)).toEqual(['Line 2: Label "not a label" must look like key=value.', 'Line 3: label key "tier" is already on line 1.']);
  await expect(labels).toHaveValue(typed);
  await shot(page, 'forms-every-bad-label');

  const cluster = await api('GET', `/v1/nks/clusters/${demo.cluster}`);
  await page.goto(page.url().replace(/\/clusters\/.*$/, `/networking/vpcs/${cluster.vpc_id}`));
  await page.getByRole('button', { name: 'Add rule' }).click();
  const form = page.getByRole('form', { name: 'Add firewall rule' });
  const ports = form.getByLabel('Destination ports');
  await ports.fill('http, 443, 90-80');
  await form.getByRole('button', { name: 'Add rule' }).click();
  await expectError(ports, '"http" is not a port: use a number 1–65535 or a range such as 8000-8080.\n"90-80" runs backwards: write 80-90.');
  expect(await drawnLines(ports)).toHaveLength(2);
  await expect(ports).toHaveValue('http, 443, 90-80');
});

test('a taint error names its taint and sits in that taint\'s row, beside its key; each row has its own Remove button', async ({ demo, open }) => {
  const page = await open(`${clusterPath(demo)}/pools/new`);
  const add = page.getByRole('button', { name: 'Add taint' });
  await add.click();
  await add.click();
  const first = page.getByRole('group', { name: 'Taint 1' });
  const second = page.getByRole('group', { name: 'Taint 2' });
  await first.getByLabel('Key').fill('dedicated');
  await second.getByLabel('Key').fill('bad key!');
  const key = second.getByLabel('Key');
  await expectError(key, /^Taint 2: .*bad key!/);
  await expect(second.getByRole('alert'), 'the message is inside the second row').toHaveCount(1);
  await expect(first.getByRole('alert')).toHaveCount(0);
  await shot(page, 'forms-taint-error');

  // A refused submit focuses that key.
  await page.getByLabel('Name', { exact: true }).fill('tainted');
  await page.getByLabel('Instance type').selectOption('n1-standard-4');
  await page.getByRole('button', { name: 'Create pool' }).click();
  await expect(key).toBeFocused();

  // Remove is a button named for its row.
  const remove = page.getByRole('button', { name: 'Remove taint 2' });
  expect(await remove.evaluate((el) => el.tagName)).toBe('BUTTON');
  await remove.click();
  await expect(second).toHaveCount(0);
  await expect(first.getByLabel('Key')).toHaveValue('dedicated');
  await expect(page.getByRole('button', { name: 'Remove taint 1' })).toBeVisible();
});

test('a scale-down says what it frees in the quota, never a negative need', async ({ demo, open }) => {
  const page = await open(`${clusterPath(demo)}/pools/${demo.baseline}/edit`);
  await page.getByLabel('Node count').fill('1');
  const quota = plan(page).getByRole('list', { name: 'Quota' });
  await expect(quota).toContainText(/vCPU: frees 16, \d+ remaining of 256/);
  await expect(quota).toContainText(/Memory \(GB\): frees \d+/);
  await expect(quota).not.toContainText('needs -');
});

test('"Fixed at creation" is said once per section, and each locked field still points at it', async ({ demo, open }) => {
  for (const [path, heading, locked] of [
    [`${clusterPath(demo)}/pools/${demo.baseline}/edit`, 'Edit pool baseline', ['Instance type', 'Boot volume size (GB)', 'Boot volume type', 'Labels']],
    [`${clusterPath(demo)}/edit`, 'Edit cluster edge-prod', ['Project', 'Region', 'VPC', 'Kubernetes version']],
  ]) {
    const page = await open(path);
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    const main = page.getByRole('main');
    for (const label of locked) {
      await expect(main.getByLabel(label, { exact: true }), `${heading}: ${label}`).toHaveAccessibleDescription(/Fixed at creation/);
    }
    // Every locked field is on screen: the sentence is said once, not per field.
    const said = async () => (await main.innerText()).match(/the API ignores changes/g)?.length ?? 0;
    await expect.poll(said, { message: heading }).toBe(1);
  }
});

test('"Add taint" puts the focus in the new row\'s first field, on Create pool and on Create cluster\'s first pool', async ({ demo, open }) => {
  for (const path of [`${clusterPath(demo)}/pools/new`, `/projects/${demo.project}/clusters/new`]) {
    const page = await open(path);
    const add = page.getByRole('button', { name: 'Add taint' });
    await add.click();
    await expect(page.getByRole('group', { name: 'Taint 1' }).getByLabel('Key')).toBeFocused();
    await page.keyboard.type('dedicated');
    await add.click();
    await expect(page.getByRole('group', { name: 'Taint 2' }).getByLabel('Key')).toBeFocused();
    await expect(page.getByRole('group', { name: 'Taint 1' }).getByLabel('Key'), 'typed where the focus went').toHaveValue('dedicated');
    await page.close();
  }
});
