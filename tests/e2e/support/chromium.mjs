// Debian's Chromium, the flags this closed network needs (it refuses Chromium's
// own background connections), and a plain launch for the benchmark.
import { chromium } from '../../../tools/node_modules/playwright-core/index.mjs';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
/**
 * The end-to-end suite's browser: Chromium's headless shell, Debian's build of
 * the same Chromium (same Blink, V8 and network stack, the same version), as
 * Playwright itself runs headless Chromium. It leaves out the full browser's
 * window machinery, which a headless test never shows: the suite takes about
 * 40 % less CPU, measured. The benchmark keeps the full browser (what a person
 * runs), and so do the wasm-bindgen browser tests (chromedriver's).
 */
export const E2E_CHROMIUM = process.env.NKS_E2E_CHROMIUM || '/usr/bin/chromium-headless-shell';
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
