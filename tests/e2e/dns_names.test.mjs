// Names Kubernetes accepts: cluster and pool names are DNS labels (node names
// derive from pool names). A name that is not one is refused beside the field as
// it is typed, Create says why nothing is sent and sends nothing, and what was
// typed stays; the API's own 422 lands beside the same field. Names the API
// already holds may be anything (old data, planted here with the simulator's
// test control POST /_sim/rename): the shell commands printed for their nodes
// quote them so a paste runs nothing but kubectl on that one node.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, startBrowser, openPage, connect, shot, demoIds, DEMO_KEY } from './harness.mjs';

let sim;
let browser;
let ids;

const RULE = "Use lowercase letters, digits and '-' (at most 63), starting and ending with a letter or digit.";
const API_REASON = "name: must be a DNS label: lowercase letters, digits and '-' (at most 63), starting and ending with a letter or digit";

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

async function call(method, route, body) {
  const res = await fetch(sim.url + route, {
    method,
    headers: { authorization: `Bearer ${DEMO_KEY}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Opens `path` connected, recording every request the page makes. */
async function open(path, width = 1280) {
  const { context, page } = await openPage(browser, { width });
  page.sent = [];
  page.on('request', (r) => page.sent.push({ method: r.method(), path: new URL(r.url()).pathname, body: r.postData() }));
  await page.goto(sim.url + path);
  await connect(page);
  return { context, page };
}

/** The text a control's aria-describedby points at (its accessible description). */
async function description(locator) {
  return locator.evaluate((el) =>
    (el.getAttribute('aria-describedby') || '')
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent.trim() || '')
      .filter(Boolean)
      .join(' '),
  );
}

async function waitEnabled(locator, timeout = 15_000) {
  const until = Date.now() + timeout;
  while (!(await locator.isEnabled())) {
    if (Date.now() > until) throw new Error('still disabled');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function fillPoolShape(page) {
  await page.getByLabel('Instance type').selectOption('n1-standard-4');
  await page.getByLabel('Boot volume size (GB)').fill('64');
  await page.getByLabel('Boot volume type').selectOption('abs');
  await page.getByLabel('Node count').fill('1');
}

const creates = (page) => page.sent.filter((r) => r.method === 'POST' && r.path === `/v1/nks/clusters/${ids.cluster}/pools`);

for (const width of [1280, 390]) {
  test(`"Web Pool" is refused beside the field, Create says why and sends nothing, and the text stays (${width} px)`, async () => {
    const { context, page } = await open(`${clusterPath()}/pools/new`, width);
    await page.getByRole('heading', { name: /Create pool/ }).waitFor();
    await fillPoolShape(page);
    const name = page.getByLabel('Name', { exact: true });
    await name.fill('Web Pool');
    const message = `Name has capital letters (W, P) and has spaces. ${RULE}`;
    const field = page.locator('.field').filter({ has: name });
    await assert.doesNotReject(field.getByText(message, { exact: true }).waitFor());
    assert.ok((await description(name)).includes(message), 'the message describes the Name input');

    const create = page.getByRole('button', { name: 'Create pool' });
    await create.click();
    assert.equal(await description(create), 'Nothing is sent until Name is fixed.');
    await assert.doesNotReject(page.getByText('Nothing is sent until Name is fixed.', { exact: true }).waitFor());
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepEqual(creates(page), [], 'no create was sent');
    assert.equal(await name.inputValue(), 'Web Pool', 'nothing typed is lost, nothing lowercased');
    await shot(page, `dns-name-refused-${width}`);

    // A valid name clears the message and the reason, and is sent as typed.
    await name.fill('web-pool');
    await assert.doesNotReject(field.getByText(message).waitFor({ state: 'detached' }));
    assert.equal(await description(create), '');
    await waitEnabled(create);
    await create.click();
    await assert.doesNotReject(page.waitForURL(/\/operations\//, { timeout: 15_000 }));
    assert.equal(creates(page).length, 1);
    assert.equal(JSON.parse(creates(page)[0].body).name, 'web-pool');
    await context.close();
  });
}

test("the API's 422 for a name shows beside the Name field", async () => {
  // The simulator refuses the name itself, in the API's error shape...
  const direct = await call('POST', `/v1/nks/clusters/${ids.cluster}/pools`, {
    name: 'Web Pool',
    node_count: 1,
    node_config: { instance_type: 'n1-standard-4', boot_volume: { size: 64, type: 'abs' } },
  });
  assert.deepEqual(direct, { status: 422, body: { message: API_REASON } });
  // ...and when it refuses a name the console let through (its rule may be
  // stricter than ours), the form shows that answer beside Name.
  const { context, page } = await open(`${clusterPath()}/pools/new`);
  await fillPoolShape(page);
  const name = page.getByLabel('Name', { exact: true });
  await name.fill('web-3');
  const create = page.getByRole('button', { name: 'Create pool' });
  // The plan's checks are answered before the fault is set, so only the create meets it.
  await page.getByRole('complementary', { name: 'Plan' }).getByText('Availability: can be done.').waitFor({ timeout: 15_000 });
  await waitEnabled(create);
  await sim.control('POST', '/_sim/faults', {
    match: { method: 'POST', path_prefix: `/v1/nks/clusters/${ids.cluster}/pools` },
    count: 1,
    action: { type: 'status', status: 422, message: API_REASON },
  });
  await create.click();
  const field = page.locator('.field').filter({ has: name });
  // Told as a sentence naming the field as the form labels it, never with the API's path.
  const said = "Name must be a DNS label: lowercase letters, digits and '-' (at most 63), starting and ending with a letter or digit.";
  await assert.doesNotReject(field.getByText(said, { exact: true }).waitFor());
  assert.equal(await page.getByText(API_REASON).count(), 0, 'the raw "name: …" is shown nowhere');
  assert.equal(await name.inputValue(), 'web-3');
  await shot(page, 'dns-name-api-422');
  await sim.control('DELETE', '/_sim/faults');
  await context.close();
});

test('renaming a cluster or a pool checks the new name beside the field; an old name is kept as it is', async () => {
  await sim.control('POST', '/_sim/rename', { kind: 'pool', id: ids.zero, name: 'Batch Zero (old)' });
  const { context, page } = await open(`${clusterPath()}/pools/${ids.zero}/edit`);
  const name = page.getByLabel('Name', { exact: true });
  await name.waitFor();
  assert.equal(await name.inputValue(), 'Batch Zero (old)');
  const field = page.locator('.field').filter({ has: name });
  assert.equal(await field.locator('.field-error').count(), 0, 'the name the API holds is not blamed');
  await name.fill('Batch Zero');
  await assert.doesNotReject(field.getByText(`Name has capital letters (B, Z) and has spaces. ${RULE}`, { exact: true }).waitFor());
  assert.equal(await page.getByRole('button', { name: 'Save' }).isDisabled(), true);
  await context.close();

  const edit = await open(`${clusterPath()}/edit`);
  const clusterName = edit.page.getByLabel('Name', { exact: true });
  await clusterName.waitFor();
  await clusterName.fill('edge_prod');
  const clusterField = edit.page.locator('.field').filter({ has: clusterName });
  await assert.doesNotReject(clusterField.getByText(`Name has "_". ${RULE}`, { exact: true }).waitFor());
  await shot(edit.page, 'dns-name-rename-cluster');
  await edit.context.close();
});

test('a node of a pool with a hostile name gets drain commands that quote it', async () => {
  await sim.control('POST', '/_sim/rename', { kind: 'pool', id: ids.baseline, name: "Bad Pool!" });
  const nodes = (await call('GET', `/v1/nks/clusters/${ids.cluster}/pools/${ids.baseline}/nodes`)).body.items;
  const hostile = "Bad Pool!-x1; rm -rf ~ $(id) 'q'";
  await sim.control('POST', '/_sim/rename', { kind: 'node', id: nodes[0].id, name: hostile });
  const { context, page } = await open(`${clusterPath()}/pools/${ids.baseline}`);
  await page.getByRole('heading', { name: 'Bad Pool!', exact: true }).waitFor();
  await page.getByRole('table', { name: 'Nodes' }).getByRole('cell', { name: hostile, exact: true }).waitFor();
  await page.getByRole('button', { name: `Delete node ${hostile}` }).click();
  const dialog = page.getByRole('dialog', { name: `Delete node ${hostile}` });
  const commands = (await dialog.getByLabel('Drain commands', { exact: true }).textContent()).trim();
  const quoted = `'Bad Pool!-x1; rm -rf ~ $(id) '\\''q'\\'''`;
  assert.equal(
    commands,
    `kubectl cordon ${quoted}\nkubectl drain ${quoted} --ignore-daemonsets --delete-emptydir-data`,
  );
  await shot(page, 'dns-name-quoted-drain');
  await context.close();
});

test('Create cluster refuses "Edge Prod" beside the field, says why beside the button, and sends nothing', async () => {
  const { context, page } = await open(`/projects/${ids.project}/clusters/new`);
  await page.getByRole('heading', { name: 'Create cluster' }).waitFor();
  const name = page.getByLabel('Name', { exact: true });
  await name.fill('Edge Prod');
  await page.getByLabel('Kubernetes version').selectOption('v1.34.4');
  await page.getByLabel('VPC').selectOption({ label: 'prod-spare-vpc (10.21.0.0/24)' });
  await page.getByRole('radio', { name: 'On' }).check();
  const field = page.locator('.field').filter({ has: name });
  await assert.doesNotReject(field.getByText(`Name has capital letters (E, P) and has spaces. ${RULE}`, { exact: true }).waitFor());
  const create = page.getByRole('button', { name: 'Create cluster' });
  await create.click();
  assert.equal(await description(create), 'Nothing is sent until Name is fixed.');
  await new Promise((r) => setTimeout(r, 1000));
  assert.deepEqual(page.sent.filter((r) => r.method === 'POST' && r.path === '/v1/nks/clusters'), []);
  assert.equal(await name.inputValue(), 'Edge Prod');
  await shot(page, 'dns-name-refused-cluster');
  await context.close();
});
