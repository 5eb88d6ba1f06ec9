// A portal page of another origin (where no real server stands in: the shipped
// servers are run for real by support/servers.mjs), and axe-core's checks.
import http from 'node:http';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { ROOT as root } from './sim.mjs';

async function listen(server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(resolve);
      }),
  };
}

/**
 * A page of its own origin that answers `html` at every path: a portal that
 * embeds the console. `html` may be a function, called per request, for a page
 * that needs addresses known only after this server started.
 */
export async function startPortal(html) {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(typeof html === 'function' ? html() : html);
  });
  return listen(server);
}

/** Runs axe-core (tools/node_modules) on the page; returns the serious and critical violations. */
export async function seriousViolations(page) {
  // Evaluated through the DevTools protocol, not added as a <script>: the page's
  // Content-Security-Policy rightly refuses scripts it does not know.
  await page.evaluate(await readFile(path.join(root, 'tools', 'node_modules', 'axe-core', 'axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
