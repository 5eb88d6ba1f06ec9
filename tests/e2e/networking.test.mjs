// Networking end to end: the cluster page says in words whether its Kubernetes
// API and ingress can be reached, from the VPC's firewall rules; "Allow kubectl
// from…" adds the rule (0.0.0.0/0 only after a confirm, a bad range refused beside
// the field with the text kept); the Networking page lists the project's VPCs, and
// a VPC's page adds, edits and deletes rules, each followed by the tracker (the
// test ends each operation once the page shows it in flight), and shows the API's
// refusal to delete a VPC a cluster uses. A failed rules read shows an error with
// Retry, never an empty table. Fresh demo world per test.
import { test, expect, shot, hold, seriousViolations } from './fixtures.mjs';

/** The demo's edge-prod and its VPC. */
async function place(api, demo) {
  const cluster = await api('GET', `/v1/nks/clusters/${demo.cluster}`);
  const vpc = cluster.vpc_id;
  return {
    clusterPath: `/projects/${demo.project}/clusters/${demo.cluster}`,
    vpcPath: `/projects/${demo.project}/networking/vpcs/${vpc}`,
    rulesPath: `/v1/networking/vpcs/${vpc}/firewall_rules`,
    vpc,
  };
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
function rows(table) {
  return table.locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())),
  );
}

/** Fails on any serious or critical axe violation of what the page shows now. */
async function accessible(page, what) {
  expect(await seriousViolations(page), what).toEqual([]);
}

/** A screenshot of the viewport with `locator` at its top. */
async function shotAt(page, locator, name) {
  await locator.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot(page, name, { fullPage: false });
}

/** Whether the page fits its width (a wide table may scroll inside itself). */
const fitsWidth = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** A change's progress line while the console sees its operation in flight. */
const inFlight = (scope, title) => scope.getByRole('status').filter({ hasText: new RegExp(`${title} — operation .* is (pending|running)`) });

const kubeApi = (page) => page.getByRole('group', { name: 'Kubernetes API' });
const ingress = (page) => page.getByRole('group', { name: 'Ingress' });

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test('reachability goes from "not reachable" to "allowed from 203.0.113.0/24" after Allow kubectl', async ({ api, control, demo, open }) => {
      const { clusterPath } = await place(api, demo);
      const page = await open(clusterPath, { width });
      const sent = ruleWrites(page);
      await expect(kubeApi(page).getByText('Not reachable: no firewall rule allows TCP 443 to 10.20.0.253.')).toBeVisible();
      await expect(ingress(page).getByText('Not reachable: no firewall rule allows TCP 80 or 443 to 10.20.0.243.')).toBeVisible();
      await shotAt(page, page.getByRole('heading', { name: 'Reachability' }), `reachability-closed-${width}`);
      expect(await fitsWidth(page), 'no sideways scroll').toBe(true);

      await page.getByRole('button', { name: 'Allow kubectl from…' }).click();
      const source = page.getByLabel('Allow kubectl from (source range)');
      await expect(source, 'nothing is guessed').toHaveValue('');
      await expect(source).toHaveAttribute('placeholder', 'e.g. 203.0.113.0/24');
      await source.fill('203.0.113.0/24');
      await shotAt(page, page.getByRole('heading', { name: 'Reachability' }), `reachability-form-${width}`);
      if (width === 1280) await accessible(page, 'cluster page with the Allow kubectl form');
      await page.getByRole('button', { name: 'Allow kubectl', exact: true }).click();

      await expect(inFlight(page, 'Allow kubectl')).toBeVisible();
      await control.finish({ kind: 'firewall_rule' });
      await expect(kubeApi(page).getByText('Allowed from 203.0.113.0/24.')).toBeVisible();
      await expect(page.getByText(/Allow kubectl — operation .* is done/)).toBeVisible();
      // Ingress is another address and other ports: still closed.
      await expect(ingress(page)).toContainText('Not reachable');
      expect(sent).toEqual([
        {
          method: 'POST',
          body: {
            name: 'allow-kubectl-203-0-113-0-24',
            protocol: 'tcp',
            source_address: '203.0.113.0/24',
            destination_address: '10.20.0.253/32',
            destination_ports: ['443'],
          },
        },
      ]);
      await shotAt(page, page.getByRole('heading', { name: 'Reachability' }), `reachability-allowed-${width}`);
    });
  });
}

test('0.0.0.0/0 asks for a confirm naming the exposure, and nothing is sent before it', async ({ api, control, demo, open }) => {
  const { clusterPath } = await place(api, demo);
  const page = await open(clusterPath);
  const sent = ruleWrites(page);
  await page.getByRole('button', { name: 'Allow kubectl from…' }).click();
  await page.getByLabel('Allow kubectl from (source range)').fill('0.0.0.0/0');
  await page.getByRole('button', { name: 'Allow kubectl', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Expose the Kubernetes API of edge-prod to the whole internet?' });
  await expect(dialog).toContainText(
    /Kubernetes API of cluster edge-prod \(10\.20\.0\.253 on TCP 443\) becomes reachable from any address on the internet/,
  );
  await shot(page, 'reachability-confirm-everywhere');
  // Back: the form still holds what was typed, and nothing went out (the count
  // after the confirm, one write, says the same of the whole time before it).
  await dialog.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByLabel('Allow kubectl from (source range)')).toHaveValue('0.0.0.0/0');
  expect(sent, 'nothing is sent before the confirm').toEqual([]);

  await page.getByRole('button', { name: 'Allow kubectl', exact: true }).click();
  await dialog.getByRole('button', { name: 'Allow from the whole internet' }).click();
  await expect(inFlight(page, 'Allow kubectl')).toBeVisible();
  await control.finish({ kind: 'firewall_rule' });
  await expect(kubeApi(page).getByText('Allowed from anywhere (0.0.0.0/0, the whole internet).')).toBeVisible();
  expect(sent, 'one write, after the confirm').toHaveLength(1);
  expect(sent[0].body.source_address).toBe('0.0.0.0/0');
});

/** "Allow kubectl from…" at 390 px, `typed` submitted: the page, the field, its message and the writes sent. */
async function submitSource({ api, demo, open }, typed) {
  const { clusterPath } = await place(api, demo);
  const page = await open(clusterPath, { width: 390 });
  const sent = ruleWrites(page);
  await page.getByRole('button', { name: 'Allow kubectl from…' }).click();
  const source = page.getByLabel('Allow kubectl from (source range)');
  await source.fill(typed);
  await page.getByRole('button', { name: 'Allow kubectl', exact: true }).click();
  return { page, source, error: page.locator('#kubectl-source-error'), sent };
}

test('a bad range gets a message beside the field and keeps the text; nothing is sent', async ({ api, demo, open }) => {
  const { page, source, error, sent } = await submitSource({ api, demo, open }, '203.0.113.7/24');
  await expect(error).toContainText(/Not network-aligned: the range containing 203\.0\.113\.7 is 203\.0\.113\.0\/24/);
  await expect(source).toHaveValue('203.0.113.7/24');
  // The message is read with the field.
  await expect(source).toHaveAttribute('aria-describedby', /kubectl-source-error/);
  // Fixing it clears the message as it is typed.
  await source.fill('not a range');
  await expect(error).toContainText(/Not an IPv4 range/);
  await shotAt(page, page.getByRole('heading', { name: 'Reachability' }), 'reachability-bad-cidr-390');
  await source.fill('203.0.113.0/24');
  await expect(error).toHaveCount(0);
  expect(sent).toEqual([]);
});

test('the Networking page lists the VPCs, and a VPC page adds, edits and deletes a rule', async ({ api, control, demo, open }) => {
  const { clusterPath, vpcPath, rulesPath } = await place(api, demo);
  const page = await open(clusterPath);
  // The cluster's VPC field leads to its VPC; the header leads to the list.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Networking' }).click();
  const vpcs = page.getByRole('table', { name: 'VPCs' });
  await expect
    .poll(async () => (await rows(vpcs)).map((r) => r.slice(0, 5)).sort())
    .toEqual([
      ['prod-spare-vpc', 'us-sva-2', '10.21.0.0/24', 'ready', 'no cluster'],
      ['prod-vpc', 'us-sva-2', '10.20.0.0/24', 'ready', 'edge-prod'],
    ]);
  await shot(page, 'networking-list-1280');
  await accessible(page, 'networking list');
  await page.goBack();
  // Named, its id copyable beside it (issue 23): the cluster's VPC field (the
  // Reachability section, once read, links the same VPC).
  await page.locator('dl').getByRole('link', { name: 'prod-vpc', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'prod-vpc' })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === vpcPath);
  await expect(page.getByText('This VPC has no firewall rules')).toBeVisible();
  const sent = ruleWrites(page);

  // Add.
  await page.getByRole('button', { name: 'Add rule' }).click();
  const form = page.getByRole('form', { name: 'Add firewall rule' });
  await form.getByLabel('Name').fill('web');
  await form.getByLabel('Source (CIDR)').fill('198.51.100.0/24');
  await form.getByLabel('Destination (CIDR)').fill('10.20.0.243/32');
  await form.getByLabel('Destination ports').fill('80, 443');
  await form.getByRole('button', { name: 'Add rule' }).click();
  await expect(inFlight(page, 'Add firewall rule')).toBeVisible();
  await control.finish({ kind: 'firewall_rule' });
  const table = page.getByRole('table', { name: 'Firewall rules' });
  const web = table.locator('tbody tr').filter({ hasText: 'web' });
  await expect(web.getByText('ready')).toBeVisible();
  expect((await rows(table))[0].slice(0, 6)).toEqual(['web', 'TCP', '198.51.100.0/24', '10.20.0.243/32', '80, 443', 'ready']);
  await expect(form, 'the form closes once its operation is done').toHaveCount(0);
  // The feed names the resource as a person does.
  await expect(page.getByText('Create firewall rule: done.')).toBeVisible();

  // Edit: only the changed field is sent.
  await page.getByRole('button', { name: 'Edit rule web' }).click();
  const edit = page.getByRole('form', { name: 'Edit firewall rule' });
  await expect(edit.getByLabel('Destination ports')).toHaveValue('80, 443');
  await accessible(page, 'VPC page with the rule form');
  await edit.getByLabel('Destination ports').fill('443');
  await edit.getByRole('button', { name: 'Save rule' }).click();
  await expect(inFlight(page, 'Edit firewall rule')).toBeVisible();
  await control.finish({ kind: 'firewall_rule' });
  await expect(web.locator('td').nth(4).getByText('443', { exact: true })).toBeVisible();
  await expect(web.getByText('ready')).toBeVisible();
  for (const w of [1280, 390]) {
    const other = await open(vpcPath, { width: w });
    await expect(other.getByRole('table', { name: 'Firewall rules' }).getByText('ready')).toBeVisible();
    await shot(other, `vpc-page-${w}`);
    expect(await fitsWidth(other), `no sideways scroll at ${w} px`).toBe(true);
    await other.close();
  }

  // Delete, through a confirm that says what stops.
  await page.getByRole('button', { name: 'Delete rule web' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete rule web' });
  await expect(confirm).toContainText(/TCP 443 from 198\.51\.100\.0\/24 to 10\.20\.0\.243\/32/);
  await confirm.getByRole('button', { name: 'Delete rule' }).click();
  await expect(inFlight(confirm, 'Delete firewall rule')).toBeVisible();
  await control.finish({ kind: 'firewall_rule' });
  await expect(page.getByText('This VPC has no firewall rules')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Firewall rules' })).toHaveCount(0);

  expect(sent.map((s) => [s.method, s.body])).toEqual([
    ['POST', { name: 'web', protocol: 'tcp', source_address: '198.51.100.0/24', destination_address: '10.20.0.243/32', destination_ports: ['80', '443'] }],
    ['PATCH', { destination_ports: ['443'] }],
    ['DELETE', null],
  ]);
  const left = await api('GET', rulesPath);
  expect(left.items).toHaveLength(0);
});

test('a VPC a cluster uses is not offered for deletion: the section says why and leads to the cluster', async ({ api, demo, open }) => {
  const { vpcPath, vpc: vpcId } = await place(api, demo);
  const page = await open(vpcPath);
  const section = page.getByRole('region', { name: 'Delete VPC' });
  await expect(section).toContainText('VPC prod-vpc cannot be deleted while cluster edge-prod uses it. Delete cluster edge-prod first (its page has Delete cluster), then this VPC.');
  // No typed delete that cannot succeed.
  await expect(section.getByRole('textbox')).toHaveCount(0);
  await expect(section.getByRole('button', { name: 'Delete VPC' })).toHaveCount(0);
  await section.scrollIntoViewIfNeeded();
  await shot(page, 'vpc-delete-blocked-1280');
  await section.getByRole('link', { name: 'cluster edge-prod' }).click();
  await expect(page.getByRole('heading', { name: 'edge-prod', level: 1 })).toBeVisible();
  const vpc = await api('GET', `/v1/networking/vpcs/${vpcId}`);
  expect(vpc.status).toBe('ready');
});

test('a VPC delete refused all the same (a cluster made in it since the page read it) shows the refusal beside the action', async ({ api, demo, open }) => {
  const vpcs = await api('GET', `/v1/networking/vpcs?project_id=${demo.project}`);
  const spare = vpcs.items.find((v) => v.name === 'prod-spare-vpc');
  const page = await open(`/projects/${demo.project}/networking/vpcs/${spare.id}`);
  const section = page.getByRole('region', { name: 'Delete VPC' });
  await expect(section.getByLabel('Type prod-spare-vpc to confirm')).toBeVisible();
  // Another tool makes a cluster in it; this page's next reads wait until the delete is sent.
  const later = await hold(page, (url) => url.pathname === '/v1/nks/clusters', { method: 'GET' });
  await api('POST', '/v1/nks/clusters', {
    name: 'late-comer', project_id: demo.project, region: spare.region, vpc_id: spare.id,
    kubernetes_version: 'v1.34.4', autoscaling: false,
  });
  await section.getByLabel('Type prod-spare-vpc to confirm').fill('prod-spare-vpc');
  await section.getByRole('button', { name: 'Delete VPC' }).click();
  const refusal = section.getByRole('alert');
  await expect(refusal).toContainText(/The API rejected the request; fix it, retrying will not help\./);
  await expect(refusal).toContainText(/Delete VPC answered 422: VPC prod-spare-vpc is used by cluster late-comer/);
  await refusal.scrollIntoViewIfNeeded();
  await shot(page, 'vpc-delete-refused-1280');
  later.release();
  // Nothing was deleted, and the page still shows the VPC.
  const vpc = await api('GET', `/v1/networking/vpcs/${spare.id}`);
  expect(vpc.status).toBe('ready');
  await expect(page.getByRole('heading', { name: 'prod-spare-vpc' })).toHaveCount(1);
});

test('a failed rules read shows an error with Retry, never an empty table', async ({ api, control, demo, open }) => {
  const { clusterPath, vpcPath, rulesPath } = await place(api, demo);
  await control.fault({
    match: { method: 'GET', path_prefix: rulesPath },
    action: { type: 'status', status: 403, message: 'rules are down' },
  });
  // The VPC page: the VPC itself still shows; the rules say they failed.
  const page = await open(vpcPath);
  await expect(page.getByRole('heading', { name: 'prod-vpc' })).toBeVisible();
  const alert = page.getByRole('alert').filter({ hasText: 'rules are down' });
  await expect(alert).toBeVisible();
  await expect(page.getByRole('table', { name: 'Firewall rules' })).toHaveCount(0);
  await expect(page.getByText('This VPC has no firewall rules')).toHaveCount(0);
  await shot(page, 'vpc-rules-error-1280');

  // The cluster page draws no verdict from rules it could not read.
  const cluster = await open(clusterPath, { context: page.context() });
  const clusterAlert = cluster.getByRole('alert').filter({ hasText: 'rules are down' });
  await expect(clusterAlert).toBeVisible();
  await expect(cluster.getByText(/Not reachable|Allowed from/)).toHaveCount(0);
  await cluster.close();

  await control.clearFaults();
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByText('This VPC has no firewall rules')).toBeVisible();
  await expect(alert).toHaveCount(0);
});

test('"Allow kubectl from…" never suggests what it then refuses: 0.0.0.0 is pointed to 0.0.0.0/0, never 0.0.0.0/32', async ({ api, demo, open }) => {
  const { page, source: field, error: said, sent } = await submitSource({ api, demo, open }, '0.0.0.0');
  await expect(said).toContainText('0.0.0.0/0 means anywhere');
  await expect(said).not.toContainText('0.0.0.0/32');
  await expect(field, 'what was typed is kept').toHaveValue('0.0.0.0');
  await shot(page, 'kubectl-source-zero-390');
  expect(sent).toEqual([]);
});

test('reachability names the address each verdict is about: the API VIP and the shared ingress VIP, told apart from the load balancers below', async ({ api, demo, open }) => {
  const { clusterPath } = await place(api, demo);
  const page = await open(clusterPath);
  await expect(kubeApi(page)).toContainText(/The Kubernetes API VIP: 10\.20\.0\.\d+\./);
  await expect(ingress(page)).toContainText('The shared ingress VIP: 10.20.0.243.');
  await expect(ingress(page)).toContainText("not a load balancer's: each load balancer below has addresses of its own");
  // The address the verdict checks is the one it names.
  await expect(ingress(page).locator('.reach-verdict')).toContainText('10.20.0.243');
  await shotAt(page, page.getByRole('heading', { name: 'Reachability' }), 'reachability-named-1280');
});
