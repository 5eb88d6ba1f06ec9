// Networking end to end: the cluster page says in words whether its Kubernetes
// API and ingress can be reached, from the VPC's firewall rules; "Allow kubectl
// from…" adds the rule (0.0.0.0/0 only after a confirm, a bad range refused beside
// the field with the text kept); the Networking page lists the project's VPCs, and
// a VPC's page adds, edits and deletes rules, each followed by the tracker, and
// shows the API's refusal to delete a VPC a cluster uses. A failed rules read shows
// an error with Retry, never an empty table. Fresh demo world per test.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startSim, startBrowser, openPage, connect, shot, SHOTS, seriousViolations } from './harness.mjs';

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
  await sim.control('DELETE', '/_sim/faults');
  const projects = await sim.api('/v1/projects');
  const production = projects.items.find((p) => p.name === 'Production');
  const clusters = await sim.api(`/v1/nks/clusters?project_id=${production.id}`);
  const cluster = clusters.items.find((c) => c.name === 'edge-prod');
  ids = { project: production.id, cluster: cluster.id, vpc: cluster.vpc_id };
});

const clusterPath = () => `/projects/${ids.project}/clusters/${ids.cluster}`;
const vpcPath = () => `/projects/${ids.project}/networking/vpcs/${ids.vpc}`;
const rulesPath = () => `/v1/networking/vpcs/${ids.vpc}/firewall_rules`;

/** Opens `path` connected with the demo key, at `width` px. */
async function open(path, width = 1280) {
  const { context, page } = await openPage(browser, { width });
  await page.goto(sim.url + path);
  await connect(page);
  return { context, page };
}

/** The bodies of the firewall-rule writes the page sends, as they go out. */
function ruleWrites(page) {
  const sent = [];
  page.on('request', (r) => {
    if (r.method() !== 'GET' && r.url().includes('/firewall_rules')) {
      sent.push({ method: r.method(), body: r.postData() ? JSON.parse(r.postData()) : null });
    }
  });
  return sent;
}

/** The texts of a table's body rows, cell by cell. */
async function rows(table) {
  return table.locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())),
  );
}

/** Fails on any serious or critical axe violation of what the page shows now. */
async function accessible(page, what) {
  const violations = await seriousViolations(page);
  assert.equal(violations.length, 0, `${what}: ${JSON.stringify(violations, null, 1)}`);
}

/** A screenshot of the viewport with `locator` at its top. */
async function shotAt(page, locator, name) {
  await locator.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

const api = (page) => page.getByRole('group', { name: 'Kubernetes API' });
const ingress = (page) => page.getByRole('group', { name: 'Ingress' });

test('reachability goes from "not reachable" to "allowed from 203.0.113.0/24" after Allow kubectl', async () => {
  for (const width of [1280, 390]) {
    await sim.control('POST', '/_sim/reset', { seed: 'demo', time_scale: 0.01 });
    const { context, page } = await open(clusterPath(), width);
    const sent = ruleWrites(page);
    await assert.doesNotReject(
      api(page).getByText('Not reachable: no firewall rule allows TCP 443 to 10.20.0.253.').waitFor(),
    );
    await assert.doesNotReject(
      ingress(page).getByText('Not reachable: no firewall rule allows TCP 80 or 443 to 10.20.0.243.').waitFor(),
    );
    await shotAt(page, page.getByRole('heading', { name: 'Reachability' }), `reachability-closed-${width}`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));

    await page.getByRole('button', { name: 'Allow kubectl from…' }).click();
    const source = page.getByLabel('Allow kubectl from (source range)');
    assert.equal(await source.inputValue(), '', 'nothing is guessed');
    assert.equal(await source.getAttribute('placeholder'), 'e.g. 203.0.113.0/24');
    await source.fill('203.0.113.0/24');
    await shotAt(page, page.getByRole('heading', { name: 'Reachability' }), `reachability-form-${width}`);
    if (width === 1280) await accessible(page, 'cluster page with the Allow kubectl form');
    await page.getByRole('button', { name: 'Allow kubectl', exact: true }).click();

    await assert.doesNotReject(api(page).getByText('Allowed from 203.0.113.0/24.').waitFor({ timeout: 20_000 }));
    await assert.doesNotReject(page.getByText(/Allow kubectl — operation .* is done/).waitFor());
    // Ingress is another address and other ports: still closed.
    assert.match(await ingress(page).textContent(), /Not reachable/);
    assert.equal(sent.length, 1);
    assert.deepEqual(sent[0], {
      method: 'POST',
      body: {
        name: 'allow-kubectl-203-0-113-0-24',
        protocol: 'tcp',
        source_address: '203.0.113.0/24',
        destination_address: '10.20.0.253/32',
        destination_ports: ['443'],
      },
    });
    await shotAt(page, page.getByRole('heading', { name: 'Reachability' }), `reachability-allowed-${width}`);
    await context.close();
  }
});

test('0.0.0.0/0 asks for a confirm naming the exposure, and nothing is sent before it', async () => {
  const { context, page } = await open(clusterPath());
  const sent = ruleWrites(page);
  await page.getByRole('button', { name: 'Allow kubectl from…' }).click();
  await page.getByLabel('Allow kubectl from (source range)').fill('0.0.0.0/0');
  await page.getByRole('button', { name: 'Allow kubectl', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Expose the Kubernetes API of edge-prod to the whole internet?' });
  await dialog.waitFor();
  const text = await dialog.textContent();
  assert.match(text, /Kubernetes API of cluster edge-prod \(10\.20\.0\.253 on TCP 443\) becomes reachable from any address on the internet/);
  await shot(page, 'reachability-confirm-everywhere');
  // Back: the form still holds what was typed, and nothing went out.
  await dialog.getByRole('button', { name: 'Back' }).click();
  assert.equal(await page.getByLabel('Allow kubectl from (source range)').inputValue(), '0.0.0.0/0');
  await page.waitForTimeout(300);
  assert.equal(sent.length, 0, 'nothing is sent before the confirm');

  await page.getByRole('button', { name: 'Allow kubectl', exact: true }).click();
  await dialog.getByRole('button', { name: 'Allow from the whole internet' }).click();
  await assert.doesNotReject(
    api(page).getByText('Allowed from anywhere (0.0.0.0/0, the whole internet).').waitFor({ timeout: 20_000 }),
  );
  assert.equal(sent.length, 1);
  assert.equal(sent[0].body.source_address, '0.0.0.0/0');
  await context.close();
});

test('a bad range gets a message beside the field and keeps the text; nothing is sent', async () => {
  const { context, page } = await open(clusterPath(), 390);
  const sent = ruleWrites(page);
  await page.getByRole('button', { name: 'Allow kubectl from…' }).click();
  const source = page.getByLabel('Allow kubectl from (source range)');
  await source.fill('203.0.113.7/24');
  await page.getByRole('button', { name: 'Allow kubectl', exact: true }).click();
  const error = page.locator('#kubectl-source-error');
  await error.waitFor();
  assert.match(await error.textContent(), /Not network-aligned: the range containing 203\.0\.113\.7 is 203\.0\.113\.0\/24/);
  assert.equal(await source.inputValue(), '203.0.113.7/24');
  // The message is read with the field.
  assert.match(await source.getAttribute('aria-describedby'), /kubectl-source-error/);
  // Fixing it clears the message as it is typed.
  await source.fill('not a range');
  assert.match(await error.textContent(), /Not an IPv4 range/);
  await shotAt(page, page.getByRole('heading', { name: 'Reachability' }), 'reachability-bad-cidr-390');
  await source.fill('203.0.113.0/24');
  await assert.doesNotReject(error.waitFor({ state: 'detached' }));
  assert.equal(sent.length, 0);
  await context.close();
});

test('the Networking page lists the VPCs, and a VPC page adds, edits and deletes a rule', async () => {
  const { context, page } = await open(clusterPath());
  // The cluster's VPC field leads to its VPC; the header leads to the list.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Networking' }).click();
  const vpcs = page.getByRole('table', { name: 'VPCs' });
  await vpcs.waitFor();
  const list = await rows(vpcs);
  assert.deepEqual(
    list.map((r) => r.slice(0, 5)).sort(),
    [
      ['prod-spare-vpc', 'us-sva-2', '10.21.0.0/24', 'ready', 'no cluster'],
      ['prod-vpc', 'us-sva-2', '10.20.0.0/24', 'ready', 'edge-prod'],
    ],
  );
  await shot(page, 'networking-list-1280');
  await accessible(page, 'networking list');
  await page.goBack();
  // Named, its id copyable beside it (issue 23): the cluster's VPC field (the
  // Reachability section, once read, links the same VPC).
  await page.locator('dl').getByRole('link', { name: 'prod-vpc', exact: true }).click();
  await page.getByRole('heading', { name: 'prod-vpc' }).waitFor();
  assert.equal(new URL(page.url()).pathname, vpcPath());
  await assert.doesNotReject(page.getByText('This VPC has no firewall rules').waitFor());
  const sent = ruleWrites(page);

  // Add.
  await page.getByRole('button', { name: 'Add rule' }).click();
  const form = page.getByRole('form', { name: 'Add firewall rule' });
  await form.getByLabel('Name').fill('web');
  await form.getByLabel('Source (CIDR)').fill('198.51.100.0/24');
  await form.getByLabel('Destination (CIDR)').fill('10.20.0.243/32');
  await form.getByLabel('Destination ports').fill('80, 443');
  await form.getByRole('button', { name: 'Add rule' }).click();
  const table = page.getByRole('table', { name: 'Firewall rules' });
  const web = table.locator('tbody tr').filter({ hasText: 'web' });
  await assert.doesNotReject(web.getByText('ready').waitFor({ timeout: 20_000 }));
  assert.deepEqual((await rows(table))[0].slice(0, 6), ['web', 'TCP', '198.51.100.0/24', '10.20.0.243/32', '80, 443', 'ready']);
  assert.equal(await form.count(), 0, 'the form closes once its operation is done');
  // The feed names the resource as a person does.
  await assert.doesNotReject(page.getByText('Create firewall rule: done.').waitFor());

  // Edit: only the changed field is sent.
  await page.getByRole('button', { name: 'Edit rule web' }).click();
  const edit = page.getByRole('form', { name: 'Edit firewall rule' });
  assert.equal(await edit.getByLabel('Destination ports').inputValue(), '80, 443');
  await accessible(page, 'VPC page with the rule form');
  await edit.getByLabel('Destination ports').fill('443');
  await edit.getByRole('button', { name: 'Save rule' }).click();
  await assert.doesNotReject(
    table.locator('tbody tr').filter({ hasText: 'web' }).locator('td').nth(4).getByText('443', { exact: true }).waitFor({ timeout: 20_000 }),
  );
  await assert.doesNotReject(table.locator('tbody tr').filter({ hasText: 'web' }).getByText('ready').waitFor({ timeout: 20_000 }));
  for (const width of [1280, 390]) {
    const other = await open(vpcPath(), width);
    await other.page.getByRole('table', { name: 'Firewall rules' }).getByText('ready').waitFor();
    await shot(other.page, `vpc-page-${width}`);
    assert.ok(await other.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
    await other.context.close();
  }

  // Delete, through a confirm that says what stops.
  await page.getByRole('button', { name: 'Delete rule web' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete rule web' });
  assert.match(await confirm.textContent(), /TCP 443 from 198\.51\.100\.0\/24 to 10\.20\.0\.243\/32/);
  await confirm.getByRole('button', { name: 'Delete rule' }).click();
  await assert.doesNotReject(page.getByText('This VPC has no firewall rules').waitFor({ timeout: 20_000 }));
  assert.equal(await page.getByRole('table', { name: 'Firewall rules' }).count(), 0);

  assert.deepEqual(
    sent.map((s) => [s.method, s.body]),
    [
      ['POST', { name: 'web', protocol: 'tcp', source_address: '198.51.100.0/24', destination_address: '10.20.0.243/32', destination_ports: ['80', '443'] }],
      ['PATCH', { destination_ports: ['443'] }],
      ['DELETE', null],
    ],
  );
  const left = await sim.api(rulesPath());
  assert.equal(left.items.length, 0);
  await context.close();
});

test('a VPC delete that a cluster blocks shows the refusal beside the action', async () => {
  const { context, page } = await open(vpcPath());
  const section = page.getByRole('region', { name: 'Delete VPC' });
  await section.waitFor();
  await section.getByLabel('Type prod-vpc to confirm').fill('prod-vpc');
  await section.getByRole('button', { name: 'Delete VPC' }).click();
  const refusal = section.getByRole('alert');
  await assert.doesNotReject(refusal.waitFor());
  const text = await refusal.textContent();
  assert.match(text, /The API rejected the request; fix it, retrying will not help\./);
  assert.match(text, /Delete VPC answered 422: VPC prod-vpc is used by cluster edge-prod/);
  await refusal.scrollIntoViewIfNeeded();
  await shot(page, 'vpc-delete-refused-1280');
  // Nothing was deleted, and the page still shows the VPC.
  const vpc = await sim.api(`/v1/networking/vpcs/${ids.vpc}`);
  assert.equal(vpc.status, 'ready');
  assert.equal(await page.getByRole('heading', { name: 'prod-vpc' }).count(), 1);
  await context.close();
});

test('a failed rules read shows an error with Retry, never an empty table', async () => {
  await sim.control('POST', '/_sim/faults', {
    match: { method: 'GET', path_prefix: rulesPath() },
    action: { type: 'status', status: 403, message: 'rules are down' },
  });
  // The VPC page: the VPC itself still shows; the rules say they failed.
  const { context, page } = await open(vpcPath());
  await page.getByRole('heading', { name: 'prod-vpc' }).waitFor();
  const alert = page.getByRole('alert').filter({ hasText: 'rules are down' });
  await assert.doesNotReject(alert.waitFor({ timeout: 20_000 }));
  assert.equal(await page.getByRole('table', { name: 'Firewall rules' }).count(), 0);
  assert.equal(await page.getByText('This VPC has no firewall rules').count(), 0);
  await shot(page, 'vpc-rules-error-1280');

  // The cluster page draws no verdict from rules it could not read.
  const cluster = await context.newPage();
  await cluster.goto(sim.url + clusterPath());
  await connect(cluster);
  const clusterAlert = cluster.getByRole('alert').filter({ hasText: 'rules are down' });
  await assert.doesNotReject(clusterAlert.waitFor({ timeout: 20_000 }));
  assert.equal(await cluster.getByText(/Not reachable|Allowed from/).count(), 0);
  await cluster.close();

  await sim.control('DELETE', '/_sim/faults');
  await alert.getByRole('button', { name: 'Retry' }).click();
  await assert.doesNotReject(page.getByText('This VPC has no firewall rules').waitFor({ timeout: 20_000 }));
  assert.equal(await alert.count(), 0);
  await context.close();
});
