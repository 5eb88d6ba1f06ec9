// Debian's Chromium, the flags this closed network needs (it refuses Chromium's
// own background connections), and a plain launch for the benchmark.
import { chromium } from '../../../tools/node_modules/playwright-core/index.mjs';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Headless Chromium with those flags, outside Playwright Test (the benchmark). */
export function startBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
}
