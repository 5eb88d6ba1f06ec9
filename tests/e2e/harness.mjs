// End-to-end harness: starts nks-sim serving the release build, drives Debian's
// Chromium through playwright-core, and writes a screenshot of each tested page
// to target/screenshots/. Tests find elements by role and label, as a person would.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '../../tools/node_modules/playwright-core/index.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DEMO_KEY = 'nks-demo-key';
export const SHOTS = path.join(root, 'target', 'screenshots');
mkdirSync(SHOTS, { recursive: true });

const simBinary = process.env.NKS_SIM_BIN || path.join(root, 'target', 'debug', 'nks-sim');
const dist = process.env.NKS_DIST || path.join(root, 'dist');

/** Starts nks-sim on a free loopback port; resolves once it is listening. */
export async function startSim({ seed = 'demo', timeScale = '0.01', port = 0, extra = [] } = {}) {
  const args = ['--listen', `127.0.0.1:${port}`, '--seed', seed, '--time-scale', String(timeScale), '--dist', dist, ...extra];
  const child = spawn(simBinary, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('nks-sim did not start within 20 s')), 20_000);
    child.once('exit', (code) => reject(new Error(`nks-sim exited early with ${code}`)));
    lines.on('line', (line) => {
      const m = line.match(/^nks-sim listening on (http:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  return {
    url,
    child,
    async control(method, route, body) {
      const res = await fetch(url + route, {
        method,
        headers: body ? { 'content-type': 'application/json' } : {},
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      return text ? JSON.parse(text) : null;
    },
    async api(route) {
      const res = await fetch(url + route, { headers: { authorization: `Bearer ${DEMO_KEY}` } });
      return res.json();
    },
    async stop() {
      if (child.exitCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    },
  };
}

/** Launches headless Chromium with the flags this closed network needs. */
export async function startBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A fresh page that records console messages and every request it makes. */
export async function openPage(browser, { width = 1280, height = 860 } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  page.consoleLines = [];
  page.requestsMade = [];
  page.on('console', (msg) => page.consoleLines.push(msg.text()));
  page.on('pageerror', (err) => page.consoleLines.push(`pageerror: ${err.message}`));
  page.on('request', (req) => page.requestsMade.push({ url: req.url(), headers: req.headers() }));
  return { context, page };
}

/** Types the key on the connect screen and waits for the console to open. */
export async function connect(page, key = DEMO_KEY) {
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Connect' }).click();
}

export async function shot(page, name) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}
