// Names Kubernetes accepts: cluster and pool names are DNS labels (node names
// derive from pool names). A name that is not one is refused beside the field as
// it is typed, Create says why nothing is sent and sends nothing, and what was
// typed stays; the API's own 422 lands beside the same field. Names the API
// already holds may be anything (old data, planted here with the simulator's
// test control POST /_sim/rename): the shell commands printed for their nodes
// quote them so a paste runs nothing but kubectl on that one node.
import { test, expect, shot } from './fixtures.mjs';

const RULE = "Use lowercase letters, digits and '-' (at most 63), starting and ending with a letter or digit.";
const API_REASON = "name: must be a DNS label: lowercase letters, digits and '-' (at most 63), starting and ending with a letter or digit";

const clusterPath = (demo) => `/projects/${demo.project}/clusters/${demo.cluster}`;
const escaped = (text) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

/** Records every request the page makes from now on, with its body. */
function recordSent(page) {
  const sent = [];
  page.on('request', (r) => sent.push({ method: r.method(), path: new URL(r.url()).pathname, body: r.postData() }));
  return sent;
}

async function fillPoolShape(page) {
  await page.getByLabel('Instance type').selectOption('n1-standard-4');
  await page.getByLabel('Boot volume size (GB)').fill('64');
  await page.getByLabel('Boot volume type').selectOption('abs');
  await page.getByLabel('Node count').fill('1');
}

for (const width of [1280, 390]) {
  test(`"Web Pool" is refused beside the field, Create says why and sends nothing, and the text stays (${width} px)`, async ({ demo, open }) => {
    const page = await open(`${clusterPath(demo)}/pools/new`, { width });
    const sent = recordSent(page);
    const creates = () => sent.filter((r) => r.method === 'POST' && r.path === `/v1/nks/clusters/${demo.cluster}/pools`);
    await expect(page.getByRole('heading', { name: /Create pool/ })).toBeVisible();
    await fillPoolShape(page);
    const name = page.getByLabel('Name', { exact: true });
    await name.fill('Web Pool');
    const message = `Name has capital letters (W, P) and has spaces. ${RULE}`;
    const field = page.locator('.field').filter({ has: name });
    await expect(field.getByText(message, { exact: true })).toBeVisible();
    await expect(name, 'the message describes the Name input').toHaveAccessibleDescription(escaped(message));

    const create = page.getByRole('button', { name: 'Create pool' });
    await create.click();
    await expect(create).toHaveAccessibleDescription('Nothing is sent until Name is fixed.');
    await expect(page.getByText('Nothing is sent until Name is fixed.', { exact: true })).toBeVisible();
    // Nothing now, and nothing later: the only create this page ever sends is the
    // one below, with the fixed name.
    expect(creates(), 'no create was sent').toEqual([]);
    await expect(name, 'nothing typed is lost, nothing lowercased').toHaveValue('Web Pool');
    await shot(page, `dns-name-refused-${width}`);

    // A valid name clears the message and the reason, and is sent as typed.
    await name.fill('web-pool');
    await expect(field.getByText(message)).toHaveCount(0);
    await expect(create).toHaveAccessibleDescription('');
    await expect(create).toBeEnabled();
    await create.click();
    await page.waitForURL(/\/operations\//);
    expect(creates()).toHaveLength(1);
    expect(JSON.parse(creates()[0].body).name).toBe('web-pool');
  });
}

test("the API's 422 for a name shows beside the Name field", async ({ api, control, demo, open }) => {
  // The simulator refuses the name itself, in the API's error shape...
  const direct = await api.send('POST', `/v1/nks/clusters/${demo.cluster}/pools`, {
    name: 'Web Pool',
    node_count: 1,
    node_config: { instance_type: 'n1-standard-4', boot_volume: { size: 64, type: 'abs' } },
  });
  expect({ status: direct.status, body: direct.body }).toEqual({ status: 422, body: { message: API_REASON } });
  // ...and when it refuses a name the console let through (its rule may be
  // stricter than ours), the form shows that answer beside Name.
  const page = await open(`${clusterPath(demo)}/pools/new`);
  await fillPoolShape(page);
  const name = page.getByLabel('Name', { exact: true });
  await name.fill('web-3');
  const create = page.getByRole('button', { name: 'Create pool' });
  // The plan's checks are answered before the fault is set, so only the create meets it.
  await expect(page.getByRole('complementary', { name: 'Plan' }).getByText('Availability: can be done.')).toBeVisible();
  await expect(create).toBeEnabled();
  await control.fault({
    match: { method: 'POST', path_prefix: `/v1/nks/clusters/${demo.cluster}/pools` },
    count: 1,
    action: { type: 'status', status: 422, message: API_REASON },
  });
  await create.click();
  const field = page.locator('.field').filter({ has: name });
  // Told as a sentence naming the field as the form labels it, never with the API's path.
  const said = "Name must be a DNS label: lowercase letters, digits and '-' (at most 63), starting and ending with a letter or digit.";
  await expect(field.getByText(said, { exact: true })).toBeVisible();
  await expect(page.getByText(API_REASON), 'the raw "name: …" is shown nowhere').toHaveCount(0);
  await expect(name).toHaveValue('web-3');
  await shot(page, 'dns-name-api-422');
});

test('renaming a cluster or a pool checks the new name beside the field; an old name is kept as it is', async ({ control, demo, open }) => {
  await control('POST', '/_sim/rename', { kind: 'pool', id: demo.zero, name: 'Batch Zero (old)' });
  const page = await open(`${clusterPath(demo)}/pools/${demo.zero}/edit`);
  const name = page.getByLabel('Name', { exact: true });
  await expect(name).toHaveValue('Batch Zero (old)');
  const field = page.locator('.field').filter({ has: name });
  await expect(field.locator('.field-error'), 'the name the API holds is not blamed').toHaveCount(0);
  await name.fill('Batch Zero');
  await expect(field.getByText(`Name has capital letters (B, Z) and has spaces. ${RULE}`, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await page.close();

  const edit = await open(`${clusterPath(demo)}/edit`);
  const clusterName = edit.getByLabel('Name', { exact: true });
  await expect(clusterName).toBeVisible();
  await clusterName.fill('edge_prod');
  const clusterField = edit.locator('.field').filter({ has: clusterName });
  await expect(clusterField.getByText(`Name has "_". ${RULE}`, { exact: true })).toBeVisible();
  await shot(edit, 'dns-name-rename-cluster');
});

test('a node of a pool with a hostile name gets drain commands that quote it', async ({ api, control, demo, open }) => {
  await control('POST', '/_sim/rename', { kind: 'pool', id: demo.baseline, name: 'Bad Pool!' });
  const nodes = (await api('GET', `/v1/nks/clusters/${demo.cluster}/pools/${demo.baseline}/nodes`)).items;
  const hostile = "Bad Pool!-x1; rm -rf ~ $(id) 'q'";
  await control('POST', '/_sim/rename', { kind: 'node', id: nodes[0].id, name: hostile });
  const page = await open(`${clusterPath(demo)}/pools/${demo.baseline}`);
  await expect(page.getByRole('heading', { name: 'Bad Pool!', exact: true })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Nodes' }).getByRole('cell', { name: hostile, exact: true })).toBeVisible();
  await page.getByRole('button', { name: `Delete node ${hostile}` }).click();
  const dialog = page.getByRole('dialog', { name: `Delete node ${hostile}` });
  const commands = dialog.getByLabel('Drain commands', { exact: true });
  const quoted = `'Bad Pool!-x1; rm -rf ~ $(id) '\\''q'\\'''`;
  // Exactly, line break included (toHaveText would fold it into a space).
  await expect
    .poll(async () => (await commands.textContent()).trim())
    .toBe(`kubectl cordon ${quoted}\nkubectl drain ${quoted} --ignore-daemonsets --delete-emptydir-data`);
  await shot(page, 'dns-name-quoted-drain');
});

test('Create cluster refuses "Edge Prod" beside the field, says why beside the button, and sends nothing', async ({ demo, open }) => {
  const page = await open(`/projects/${demo.project}/clusters/new`);
  const sent = recordSent(page);
  const creates = () => sent.filter((r) => r.method === 'POST' && r.path === '/v1/nks/clusters');
  await expect(page.getByRole('heading', { name: 'Create cluster' })).toBeVisible();
  const name = page.getByLabel('Name', { exact: true });
  await name.fill('Edge Prod');
  await page.getByLabel('Kubernetes version').selectOption('v1.34.4');
  await page.getByLabel('VPC').selectOption({ label: 'prod-spare-vpc (10.21.0.0/24)' });
  await page.getByRole('radio', { name: 'On' }).check();
  const field = page.locator('.field').filter({ has: name });
  await expect(field.getByText(`Name has capital letters (E, P) and has spaces. ${RULE}`, { exact: true })).toBeVisible();
  const create = page.getByRole('button', { name: 'Create cluster' });
  await create.click();
  await expect(create).toHaveAccessibleDescription('Nothing is sent until Name is fixed.');
  expect(creates(), 'no create was sent').toEqual([]);
  await expect(name).toHaveValue('Edge Prod');
  await shot(page, 'dns-name-refused-cluster');

  // Nothing later either: once the name is fixed, the one create this page
  // ever sends is that of the fixed name.
  await name.fill('edge-2');
  await expect(create).toHaveAccessibleDescription('');
  await expect(create).toBeEnabled();
  await create.click();
  await expect.poll(() => creates().length).toBe(1);
  expect(JSON.parse(creates()[0].body).name).toBe('edge-2');
});
