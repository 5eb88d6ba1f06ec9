// Type-checks TypeScript snippets in strict mode against Nirvana's own TypeScript
// SDK, from its source in shared/sdk/typescript (unmodified; NKS_SHARED names
// another shared/):
//
//   node tools/ts-check.mjs FILE...              type-check (no output)
//   node tools/ts-check.mjs --bundle OUT FILE    also bundle FILE with the SDK into
//                                                one ES module OUT, to run under node
//
// Each file is an ES module (top-level await allowed) that imports
// '@nirvana-labs/nirvana', resolved to the SDK's src/. Prints each problem as
// file:line:col: message and exits 1 if there is any, 0 silently if none, 2 on a
// usage error. typescript, @types/node and esbuild come from tools/node_modules
// (scripts/install-tools.sh), found from this script's location.
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const ts = require('typescript');

const shared = process.env.NKS_SHARED ? path.resolve(process.env.NKS_SHARED) : path.resolve(here, '..', '..', 'shared');
const sdk = path.join(shared, 'sdk', 'typescript', 'nirvana-typescript@1.98.1');

let args = process.argv.slice(2);
let bundle = null;
if (args[0] === '--bundle') {
  bundle = args[1];
  args = args.slice(2);
}
if (args.length === 0 || (bundle && args.length !== 1)) {
  console.error('usage: node tools/ts-check.mjs [--bundle OUT] FILE...');
  process.exit(2);
}
if (!existsSync(path.join(sdk, 'src', 'index.ts'))) {
  console.error(`the TypeScript SDK is not at ${sdk} (set NKS_SHARED to the shared/ folder)`);
  process.exit(2);
}

// As the SDK's README verifies: strict, ES2022 modules, the DOM's Headers
// iterable, Node's types, and the package name mapped to the source.
const paths = {
  '@nirvana-labs/nirvana': [path.join(sdk, 'src', 'index.ts')],
  '@nirvana-labs/nirvana/*': [path.join(sdk, 'src', '*')],
};
const options = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ES2022,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: ['node'],
  typeRoots: [path.join(here, 'node_modules', '@types')],
  paths,
  skipLibCheck: true,
};
const files = args.map((f) => path.resolve(f));
const program = ts.createProgram(files, options);
const problems = ts.getPreEmitDiagnostics(program);
for (const d of problems) {
  const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
  if (d.file) {
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
    console.log(`${d.file.fileName}:${line + 1}:${character + 1}: ${message}`);
  } else {
    console.log(message);
  }
}
if (problems.length) process.exit(1);

if (bundle) {
  const esbuild = require('esbuild');
  const tsconfig = path.join(path.dirname(path.resolve(bundle)), 'tsconfig.bundle.json');
  writeFileSync(tsconfig, JSON.stringify({ compilerOptions: { paths } }));
  await esbuild.build({
    entryPoints: [files[0]],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    tsconfig,
    outfile: path.resolve(bundle),
    logLevel: 'error',
  });
}
