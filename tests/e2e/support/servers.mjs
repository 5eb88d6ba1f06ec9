// The shipped server configurations, run for real: Debian's Caddy with
// deploy/Caddyfile as shipped (what a deployment changes is an environment
// variable there), and Debian's nginx with deploy/nginx.conf and its header
// snippet, changed only where the files say CHANGE (ports, paths, the
// upstream, the loader's hash), each change required to match. Both serve the
// release build at a root site and under /tools/nks/, with /v1 proxied to the
// API given (nks-sim, or anything that speaks its protocol).
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync, chmodSync, existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { DIST, ROOT } from './sim.mjs';

export const PREFIX = '/tools/nks/';
const WORK = path.join(ROOT, 'target', 'servers');

/** A loopback port nothing listens on now. */
export async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The loader's CSP source of the build, as deploy/csp-hash.sh prints it. */
export function loaderHash(dist = DIST) {
  return execFileSync(path.join(ROOT, 'deploy', 'csp-hash.sh'), [path.join(dist, 'index.html')], { encoding: 'utf8' }).trim();
}

/**
 * A folder that serves as `dist` but with files of the test's own in place of
 * the build's (a config.json), or without the build's .br and .gz
 * (`precompressed: false`): every other file is a link to the build's.
 */
function siteWith(files, dir, { precompressed = true } = {}) {
  if (!Object.keys(files).length && precompressed) return DIST;
  const site = path.join(dir, 'site');
  mkdirSync(site, { recursive: true });
  const kept = (name) => !(name in files) && (precompressed || !/\.(br|gz)$/.test(name));
  for (const name of readdirSync(DIST)) if (kept(name)) symlinkSync(path.join(DIST, name), path.join(site, name));
  for (const [name, body] of Object.entries(files)) writeFileSync(path.join(site, name), body);
  return site;
}

/** `text` with each [from, to, count] replaced; a change that matches other than `count` times throws. */
function change(text, changes, what) {
  for (const [from, to, count = 1] of changes) {
    const found = text.split(from).length - 1;
    if (found !== count) throw new Error(`${what}: expected ${count} of ${JSON.stringify(from)}, found ${found}`);
    text = text.split(from).join(to);
  }
  return text;
}

/** Resolves once `child` printed a line matching `ready`, or rejects when it exits or 20 s pass. */
function started(child, ready, name, output) {
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`${name} did not start within 20 s:\n${output.join('')}`)), 20_000);
    const seen = (chunk) => {
      output.push(chunk.toString());
      if (ready.test(output.join(''))) {
        clearTimeout(deadline);
        resolve();
      }
    };
    child.stdout?.on('data', seen);
    child.stderr?.on('data', seen);
    child.once('exit', (code) => {
      clearTimeout(deadline);
      reject(new Error(`${name} exited with ${code}:\n${output.join('')}`));
    });
  });
}

function stopper(child, dir) {
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    }
    rmSync(dir, { recursive: true, force: true });
  };
}

/** The two sites of a server: `root` at `/`, `prefix` under /tools/nks/. */
function sites(rootPort, prefixPort) {
  const root = `http://127.0.0.1:${rootPort}`;
  const prefix = `http://127.0.0.1:${prefixPort}`;
  return {
    root: { origin: root, url: `${root}/`, base: '/' },
    prefix: { origin: prefix, url: `${prefix}${PREFIX}`, base: PREFIX },
  };
}

/**
 * Debian's Caddy with deploy/Caddyfile as shipped. `api`: the upstream of /v1;
 * `files`: files of the test's own in place of the build's; `frameAncestors`:
 * the CSP's frame-ancestors; `env`: more of Caddy's environment (SSL_CERT_FILE
 * for an upstream whose certificate the test made); `precompressed: false` serves
 * the build without its .br and .gz.
 * Answers { root, prefix, output(), close() }.
 */
export async function startCaddy({ api, files = {}, frameAncestors, env = {}, precompressed = true }) {
  const [rootPort, prefixPort] = [await freePort(), await freePort()];
  const dir = path.join(WORK, `caddy-${rootPort}`);
  mkdirSync(dir, { recursive: true });
  const child = spawn('caddy', ['run', '--config', path.join(ROOT, 'deploy', 'Caddyfile'), '--adapter', 'caddyfile'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      // Caddy's own state (an autosaved configuration) stays in the test's folder.
      HOME: dir,
      XDG_CONFIG_HOME: path.join(dir, 'config'),
      XDG_DATA_HOME: path.join(dir, 'data'),
      CADDY_ADMIN: 'off',
      NKS_BIND: '127.0.0.1',
      NKS_CONSOLE_SITE: `http://127.0.0.1:${rootPort}`,
      NKS_PORTAL_SITE: `http://127.0.0.1:${prefixPort}`,
      NKS_CONSOLE_ROOT: siteWith(files, dir, { precompressed }),
      NKS_API_UPSTREAM: api,
      NKS_CSP_LOADER: loaderHash(),
      ...(frameAncestors ? { NKS_FRAME_ANCESTORS: frameAncestors } : {}),
      ...env,
    },
  });
  const output = [];
  await started(child, /"serving initial configuration"/, 'caddy', output);
  return { name: 'caddy', ...sites(rootPort, prefixPort), output: () => output.join(''), close: stopper(child, dir) };
}

/**
 * Debian's nginx with deploy/nginx.conf and deploy/nginx-headers.conf, changed
 * where they say CHANGE, inside Debian's own /etc/nginx/nginx.conf (its logs,
 * pid and included sites moved to the test's folder). Same options as
 * startCaddy. `requested()` reads the paths asked for from its access log.
 */
export async function startNginx({ api, files = {}, frameAncestors }) {
  const [rootPort, prefixPort] = [await freePort(), await freePort()];
  const dir = path.join(WORK, `nginx-${rootPort}`);
  mkdirSync(dir, { recursive: true });
  // Debian's workers run as www-data: they read the build and write nothing here.
  chmodSync(dir, 0o755);
  const site = siteWith(files, dir);
  // The prefix site's root mirrors the URL (docs/self-hosting.md): <root>/tools/nks/ is dist.
  mkdirSync(path.join(dir, 'www', 'tools'), { recursive: true });
  symlinkSync(site, path.join(dir, 'www', 'tools', 'nks'));
  const upstream = new URL(api);
  const deploy = (name) => readFileSync(path.join(ROOT, 'deploy', name), 'utf8');

  const headers = path.join(dir, 'nks-console-headers.conf');
  const headerChanges = [["'sha256-REPLACE_WITH_LOADER_HASH'", loaderHash()]];
  if (frameAncestors) headerChanges.push(["frame-ancestors 'self' https://portal.example.com;", `frame-ancestors ${frameAncestors};`]);
  writeFileSync(headers, change(deploy('nginx-headers.conf'), headerChanges, 'deploy/nginx-headers.conf'));

  let listens = 0;
  const conf = change(
    deploy('nginx.conf'),
    [
      ['root /srv/nks-console;', `root ${site};`],
      ['root /srv/www;', `root ${path.join(dir, 'www')};`],
      ['include /etc/nginx/snippets/nks-console-headers.conf;', `include ${headers};`, 4],
      ['proxy_pass https://api.nirvanalabs.io;', `proxy_pass ${upstream.origin};`, 2],
      ['proxy_set_header Host api.nirvanalabs.io;', `proxy_set_header Host ${upstream.host};`, 2],
    ],
    'deploy/nginx.conf',
  ).replace(/listen 80;/g, () => `listen 127.0.0.1:${[rootPort, prefixPort][listens++]};`);
  if (listens !== 2) throw new Error(`deploy/nginx.conf: expected 2 of "listen 80;", found ${listens}`);
  writeFileSync(path.join(dir, 'nks-console.conf'), conf);

  const main = change(
    readFileSync('/etc/nginx/nginx.conf', 'utf8'),
    [
      ['pid /run/nginx.pid;', `pid ${path.join(dir, 'nginx.pid')};`],
      ['error_log /var/log/nginx/error.log;', `error_log ${path.join(dir, 'error.log')};`],
      ['access_log /var/log/nginx/access.log;', `access_log ${path.join(dir, 'access.log')};`],
      ['include /etc/nginx/conf.d/*.conf;', `include ${path.join(dir, 'nks-console.conf')};`],
      ['include /etc/nginx/sites-enabled/*;', ''],
    ],
    '/etc/nginx/nginx.conf',
  );
  writeFileSync(path.join(dir, 'nginx.conf'), main);

  const nginx = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
  const child = spawn(nginx, ['-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = [];
  // nginx prints nothing once it listens: ready when the root site answers.
  child.stdout.on('data', (c) => output.push(c.toString()));
  child.stderr.on('data', (c) => output.push(c.toString()));
  const exited = new Promise((_, reject) => child.once('exit', (code) => reject(new Error(`nginx exited with ${code}:\n${output.join('')}${readLog(dir, 'error.log')}`))));
  exited.catch(() => {});
  const deadline = Date.now() + 20_000;
  for (;;) {
    const up = await Promise.race([
      fetch(`http://127.0.0.1:${rootPort}/config.json`).then((r) => r.ok, () => false),
      exited,
    ]);
    if (up) break;
    if (Date.now() > deadline) throw new Error(`nginx did not answer within 20 s:\n${readLog(dir, 'error.log')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    name: 'nginx',
    ...sites(rootPort, prefixPort),
    output: () => output.join('') + readLog(dir, 'error.log'),
    /** The paths asked for so far, in order (a request is logged once answered). */
    requested: () =>
      readLog(dir, 'access.log')
        .split('\n')
        .filter(Boolean)
        .map((line) => new URL(line.match(/"[A-Z]+ (\S+) HTTP/)[1], 'http://host').pathname),
    close: stopper(child, dir),
  };
}

function readLog(dir, name) {
  try {
    return readFileSync(path.join(dir, name), 'utf8');
  } catch {
    return '';
  }
}

export const SERVERS = { caddy: startCaddy, nginx: startNginx };
