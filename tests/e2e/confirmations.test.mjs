// Confirmations open where the person is looking (issue 34, items 1-4): each one
// is a modal dialog over the page, takes the focus, closes on Escape and gives
// the focus back to the button that opened it. A node's delete says why before
// the drain commands it introduces; once sent, the node's row says "deleting"
// with its Delete disabled, and the pool's size history attributes the delete to
// the pool it was started from, after a reload too.
import { test, expect, shot, hold } from './fixtures.mjs';

const clusterPath = (demo) => `/projects/${demo.project}/clusters/${demo.cluster}`;
const poolPath = (demo, pool = demo.baseline) => `${clusterPath(demo)}/pools/${pool}`;

/** The first node row's name, once the table is drawn. */
async function firstNodeName(page) {
  const cell = page.getByRole('table', { name: 'Nodes' }).getByRole('row').nth(1).getByRole('cell').first();
  await expect(cell).toBeVisible();
  return (await cell.textContent()).trim();
}

/** Opens a confirmation with `opener` and checks the rule every confirmation
 *  follows: it is on screen, it has the focus (on `focused`, when named), Escape
 *  closes it, and the focus is back on the opener. */
async function followsTheRule(page, opener, dialogName, focused) {
  await opener.click();
  const dialog = page.getByRole('dialog', { name: dialogName });
  await expect(dialog).toBeInViewport({ ratio: 1 });
  // Centred, where the eyes are, not at the top of the page.
  const box = await dialog.boundingBox();
  const height = page.viewportSize().height;
  expect(Math.abs(box.y + box.height / 2 - height / 2), 'the dialog sits in the middle of the window').toBeLessThan(height / 4);
  if (focused) {
    await expect(dialog.getByRole(focused.role, { name: focused.name })).toBeFocused();
  } else {
    await expect(dialog.locator(':focus')).toHaveCount(1);
  }
  return {
    dialog,
    closes: async () => {
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      await expect(opener, 'the focus is back on the button that opened it').toBeFocused();
    },
  };
}

for (const width of [1280, 390]) {
  test(`a node's Delete at ${width} px opens its confirmation on screen with the focus, says why before the drain commands, and Escape gives the focus back`, async ({ demo, open }) => {
    const page = await open(poolPath(demo), { width, height: width === 390 ? 844 : 860 });
    const node = await firstNodeName(page);
    const opener = page.getByRole('button', { name: `Delete node ${node}` });
    const { dialog, closes } = await followsTheRule(page, opener, `Delete node ${node}`, {
      role: 'textbox',
      name: `Type ${node} to confirm`,
    });
    const text = await dialog.textContent();
    const why = text.indexOf('Drain it first');
    expect(why, 'the sentence that introduces the commands').toBeGreaterThanOrEqual(0);
    expect(why, 'comes before them').toBeLessThan(text.indexOf(`kubectl cordon ${node}`));
    await shot(page, `node-delete-confirm-${width}`);
    await closes();
  });
}

test('every confirmation follows the same rule: the public IP of a load balancer, the whole-internet kubectl rule, a firewall rule delete and edit', async ({ api, control, demo, open }) => {
  const cluster = await api('GET', `/v1/nks/clusters/${demo.cluster}`);
  const rule = 'web';
  const created = await api('POST', `/v1/networking/vpcs/${cluster.vpc_id}/firewall_rules`, {
    name: rule,
    protocol: 'tcp',
    source_address: '198.51.100.0/24',
    destination_address: '10.20.0.243/32',
    destination_ports: ['443'],
  });
  await control.finish({ id: created.id });

  const page = await open(clusterPath(demo), { width: 390, height: 844 });
  const lb = 'ingress-nginx/ingress-nginx-controller';
  const off = page.getByRole('button', { name: `Turn off public IP of ${lb}` });
  let confirm = await followsTheRule(page, off, `Turn off public IP: ${lb}`, { role: 'button', name: 'Cancel' });
  await shot(page, 'lb-confirm-390');
  await confirm.closes();

  await page.getByRole('button', { name: 'Allow kubectl from…' }).click();
  await page.getByLabel('Allow kubectl from (source range)').fill('0.0.0.0/0');
  const allow = page.getByRole('button', { name: 'Allow kubectl', exact: true });
  confirm = await followsTheRule(page, allow, 'Expose the Kubernetes API of edge-prod to the whole internet?', {
    role: 'button',
    name: 'Back',
  });
  await confirm.closes();

  await page.goto(page.url().replace(/\/clusters\/.*$/, `/networking/vpcs/${cluster.vpc_id}`));
  const del = page.getByRole('button', { name: `Delete rule ${rule}` });
  confirm = await followsTheRule(page, del, `Delete rule ${rule}`, { role: 'button', name: 'Cancel' });
  await confirm.closes();
  const edit = page.getByRole('button', { name: `Edit rule ${rule}` });
  confirm = await followsTheRule(page, edit, `Edit rule ${rule}`);
  await expect(confirm.dialog.getByLabel('Name')).toBeFocused();
  await confirm.closes();
});

test("a node delete once sent: Escape waits for its answer, then its row says deleting with its actions disabled, and the size history names it this pool's, after a reload too", async ({ control, demo, open }) => {
  const page = await open(poolPath(demo));
  const node = await firstNodeName(page);
  await page.getByRole('button', { name: `Delete node ${node}` }).click();
  const dialog = page.getByRole('dialog', { name: `Delete node ${node}` });
  await dialog.getByLabel(`Type ${node} to confirm`).fill(node);
  // The answer is held: Escape while it is on its way leaves the dialog open,
  // so the operation it answers with is followed.
  const sending = await hold(page, `**/v1/nks/clusters/${demo.cluster}/pools/**`, { method: 'DELETE', times: 1 });
  await dialog.getByRole('button', { name: 'Delete node' }).click();
  await expect(dialog.getByRole('button', { name: 'Working…' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog.getByRole('button', { name: 'Close' }), 'no way out while the send is on its way').toBeDisabled();
  await expect(dialog).toBeVisible();
  sending.release();
  await expect(dialog.getByRole('status').filter({ hasText: /Delete node — operation .* is (pending|running)/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  // Its opener is disabled now: the focus goes to the page's main region, not lost.
  await expect(page.locator('#main')).toBeFocused();

  const row = page.getByRole('table', { name: 'Nodes' }).getByRole('row').filter({ hasText: node });
  await expect(row.getByText('deleting')).toBeVisible();
  await expect(row.getByText('ready')).toHaveCount(0);
  await expect(row.getByRole('button', { name: `Delete node ${node}` })).toBeDisabled();
  await expect(row).toContainText('A change to it is in flight');
  await shot(page, 'node-row-deleting');

  await control.finish({ kind: 'nks_node' });
  await expect(row).toHaveCount(0);
  const history = page.getByRole('list', { name: 'Size changes' });
  await expect(history).toContainText(/node deleted: no drain/i);
  await expect(history).not.toContainText(/unattributed/i);

  await page.reload();
  await expect(page.getByRole('list', { name: 'Size changes' })).toContainText(/node deleted: no drain/i);
  await expect(page.getByRole('list', { name: 'Size changes' })).not.toContainText(/unattributed/i);
  await shot(page, 'node-delete-attributed');
});
