// Forms that help (issue 23, item 10): a refused submit puts focus on the first
// field in error with the message beside it; label and taint errors name their
// line; "Remove taint" is a button per row; the quota line says what a
// scale-down frees; "Fixed at creation" is said once per section; and no
// message shows the API's raw field path. Each test starts from a fresh demo world.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, shot, demoIds } from './harness.mjs';

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
  await sim.control('POST', '/_sim/reset', { seed: 'demo', time_scale: 0.01 });
  ids = await demoIds(sim);
});

const clusterPath = () => `/projects/${ids.project}/clusters/${ids.cluster}`;
const plan = (page) => page.getByRole('complementary', { name: 'Plan' });

async function open(path, size) {
  const { context, page } = await openPage(browser, size);
  await page.goto(sim.url + path);
  await connect(page);
  return { context, page };
}

/** Whether the control has the keyboard focus. */
const focused = (control) => control.evaluate((el) => el === document.activeElement);

/** Waits until the control has the focus; fails after `timeout` ms. */
async function waitFocused(control, timeout = 5_000) {
  const until = Date.now() + timeout;
  while (!(await focused(control))) {
    if (Date.now() > until) {
      const where = await control.page().evaluate(() => {
        const el = document.activeElement;
        return el ? `${el.tagName}#${el.id} "${(el.textContent || '').trim().slice(0, 40)}"` : 'nothing';
      });
      throw new Error(`not focused; the focus is on ${where}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The alert a screen reader reads with the control (through aria-describedby). */
async function errorOf(control) {
  return control.evaluate((el) =>
    (el.getAttribute('aria-describedby') || '')
      .split(/\s+/)
      .map((id) => id && document.getElementById(id))
      .filter((d) => d && d.getAttribute('role') === 'alert')
      .map((d) => d.textContent.trim())
      .join(' '),
  );
}

async function waitError(control, pattern, timeout = 10_000) {
  const until = Date.now() + timeout;
  let text = '';
  while (!pattern.test((text = await errorOf(control)))) {
    if (Date.now() > until) throw new Error(`no error matching ${pattern} beside the field; it says "${text}"`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return text;
}

/** No text on the page shows an API field path such as "name: " or "node_config.labels[1]: ". */
async function noRawPaths(page) {
  const body = await page.locator('body').innerText();
  assert.doesNotMatch(body, /(^|\s)(name|node_count|tags|node_config\.[a-z_.]+(\[\d+\])?): /m, body);
}

test('a submit the console refuses moves focus to the first field in error, beside its message, and keeps what was typed', async () => {
  const { context, page } = await open(`${clusterPath()}/pools/new`);
  await page.getByLabel('Name', { exact: true }).fill('gpu-workers');
  await page.getByLabel('Labels').fill('team=ml');
  await page.getByLabel('Node count').fill('2');
  const create = page.getByRole('button', { name: 'Create pool' });
  await create.click();
  const type = page.getByLabel('Instance type');
  await waitFocused(type);
  assert.equal(await waitError(type, /instance type/i), 'Choose an instance type.');
  assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), 'gpu-workers');
  assert.equal(await page.getByLabel('Labels').inputValue(), 'team=ml');
  await shot(page, 'forms-refused-local');
  await context.close();
});

for (const width of [1280, 390]) {
  test(`a create the API refuses (422) at ${width} px: focus on the name, a person's sentence beside it, nothing lost`, async () => {
    // The plan's check could not be made (503), so Apply stays available and the
    // create itself meets the simulator's duplicate-name rule.
    await sim.control('POST', '/_sim/faults', {
      match: { method: 'POST', path_prefix: `/v1/nks/clusters/${ids.cluster}/pools/availability` },
      action: { type: 'status', status: 503, message: 'checks are down' },
    });
    const { context, page } = await open(`${clusterPath()}/pools/new`, { width });
    await page.getByLabel('Name', { exact: true }).fill('baseline');
    await page.getByLabel('Instance type').selectOption('n1-standard-4');
    await page.getByLabel('Labels').fill('tier=extra');
    const create = page.getByRole('button', { name: 'Create pool' });
    await plan(page).getByText(/Availability could not be checked/).waitFor();
    await create.click();
    const name = page.getByLabel('Name', { exact: true });
    const said = await waitError(name, /already exists/);
    assert.equal(said, 'A pool named baseline already exists in this cluster.');
    await waitFocused(name);
    await noRawPaths(page);
    assert.equal(await name.inputValue(), 'baseline');
    assert.equal(await page.getByLabel('Labels').inputValue(), 'tier=extra');
    assert.equal(await page.getByLabel('Instance type').inputValue(), 'n1-standard-4');
    await shot(page, `forms-refused-create-pool-${width}`);
    await context.close();
  });
}

test("the plan's own refusal of a taken name says it as a person would, beside the name and in the plan", async () => {
  const { context, page } = await open(`${clusterPath()}/pools/new`);
  await page.getByLabel('Name', { exact: true }).fill('baseline');
  await page.getByLabel('Instance type').selectOption('n1-standard-4');
  await plan(page).getByText(/Availability: cannot be done/).waitFor();
  assert.equal(await waitError(page.getByLabel('Name', { exact: true }), /already exists/), 'A pool named baseline already exists in this cluster.');
  await noRawPaths(page);
  await context.close();
});

test('label errors name their line, beside the labels; the API\'s label index is told as the line it came from', async () => {
  const { context, page } = await open(`${clusterPath()}/pools/new`);
  const labels = page.getByLabel('Labels');
  await labels.fill('tier=web\n\nkubernetes.io/role=x');
  assert.match(await waitError(labels, /reserved/), /^Line 3: /);
  // A label the API refuses though the console let it pass: the index counts
  // only the labels sent, the line counts the textarea's lines.
  await sim.control('POST', '/_sim/faults', {
    match: { method: 'POST', path_prefix: `/v1/nks/clusters/${ids.cluster}/pools/availability` },
    action: { type: 'status', status: 422, message: 'node_config.labels[1]: label keys under example.io are reserved' },
  });
  await page.getByLabel('Name', { exact: true }).fill('web');
  await page.getByLabel('Instance type').selectOption('n1-standard-4');
  await labels.fill('tier=web\n\nexample.io/role=x');
  assert.equal(await waitError(labels, /example\.io/), 'Line 3: label keys under example.io are reserved.');
  await noRawPaths(page);
  await context.close();
});

test('a taint error names its taint and sits in that taint\'s row, beside its key; each row has its own Remove button', async () => {
  const { context, page } = await open(`${clusterPath()}/pools/new`);
  const add = page.getByRole('button', { name: 'Add taint' });
  await add.click();
  await add.click();
  const first = page.getByRole('group', { name: 'Taint 1' });
  const second = page.getByRole('group', { name: 'Taint 2' });
  await first.getByLabel('Key').fill('dedicated');
  await second.getByLabel('Key').fill('bad key!');
  const key = second.getByLabel('Key');
  const said = await waitError(key, /bad key!/);
  assert.match(said, /^Taint 2: /);
  assert.equal(await second.getByRole('alert').count(), 1, 'the message is inside the second row');
  assert.equal(await first.getByRole('alert').count(), 0);
  await shot(page, 'forms-taint-error');

  // A refused submit focuses that key.
  await page.getByLabel('Name', { exact: true }).fill('tainted');
  await page.getByLabel('Instance type').selectOption('n1-standard-4');
  await page.getByRole('button', { name: 'Create pool' }).click();
  await waitFocused(key);

  // Remove is a button named for its row.
  const remove = page.getByRole('button', { name: 'Remove taint 2' });
  assert.equal(await remove.evaluate((el) => el.tagName), 'BUTTON');
  await remove.click();
  await second.waitFor({ state: 'detached' });
  assert.equal(await first.getByLabel('Key').inputValue(), 'dedicated');
  await assert.doesNotReject(page.getByRole('button', { name: 'Remove taint 1' }).waitFor());
  await context.close();
});

test('a scale-down says what it frees in the quota, never a negative need', async () => {
  const { context, page } = await open(`${clusterPath()}/pools/${ids.baseline}/edit`);
  await page.getByLabel('Node count').fill('1');
  const quota = plan(page).getByRole('list', { name: 'Quota' });
  await quota.waitFor();
  await quota.getByText(/frees/).first().waitFor();
  const text = await quota.textContent();
  assert.doesNotMatch(text, /needs -/);
  assert.match(text, /vCPU: frees 16, \d+ remaining of 256/);
  assert.match(text, /Memory \(GB\): frees \d+/);
  await context.close();
});

test('"Fixed at creation" is said once per section, and each locked field still points at it', async () => {
  for (const [path, heading, locked] of [
    [`${clusterPath()}/pools/${ids.baseline}/edit`, 'Edit pool baseline', ['Instance type', 'Boot volume size (GB)', 'Boot volume type', 'Labels']],
    [`${clusterPath()}/edit`, 'Edit cluster edge-prod', ['Project', 'Region', 'VPC', 'Kubernetes version']],
  ]) {
    const { context, page } = await open(path);
    await page.getByRole('heading', { name: heading }).waitFor();
    const main = page.getByRole('main');
    const body = await main.innerText();
    assert.equal(body.match(/the API ignores changes/g)?.length, 1, `${heading}: ${body}`);
    for (const label of locked) {
      const described = await main.getByLabel(label, { exact: true }).evaluate((el) =>
        (el.getAttribute('aria-describedby') || '').split(/\s+/).map((id) => document.getElementById(id)?.textContent || '').join(' '),
      );
      assert.match(described, /Fixed at creation/, `${heading}: ${label}`);
    }
    await context.close();
  }
});
