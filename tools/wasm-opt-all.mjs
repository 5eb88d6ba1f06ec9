// Optimises many wasm modules in place with binaryen (npm `binaryen`, the
// library behind its `wasm-opt`), as `wasm-opt -Os --low-memory-unused [-g]`
// does, byte for byte (scripts/split-build.sh checks one module against the
// command on every run).
//
// The split build makes some 270 modules. `wasm-opt` from npm is binaryen
// compiled to wasm behind a node script, so each run starts node and compiles
// binaryen again before it reads a module: about 0.6 s for a 1 KB chunk, most
// of the step. Here each core's worker loads binaryen once and takes modules
// from one queue, the largest first.
//
//   node tools/wasm-opt-all.mjs [--names] FILE...
import { availableParallelism } from 'node:os';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

if (isMainThread) {
  const args = process.argv.slice(2);
  const names = args.includes('--names');
  const files = args.filter((a) => a !== '--names');
  files.sort((a, b) => statSync(b).size - statSync(a).size);
  const workers = Math.min(availableParallelism(), files.length);
  let next = 0;
  let failed = false;
  await Promise.all(
    Array.from({ length: workers }, () => new Promise((resolve, reject) => {
      const worker = new Worker(new URL(import.meta.url), { workerData: { names } });
      const give = () => worker.postMessage(next < files.length ? files[next++] : null);
      worker.on('message', (msg) => {
        if (msg.error) {
          console.error(`wasm-opt-all: ${msg.file}: ${msg.error}`);
          failed = true;
        }
        give();
      });
      worker.on('error', reject);
      worker.on('exit', resolve);
      give();
    })),
  );
  if (failed) process.exit(1);
} else {
  const { default: binaryen } = await import('binaryen');
  // -Os: optimise level 2, shrink level 1, as the command line sets them.
  binaryen.setOptimizeLevel(2);
  binaryen.setShrinkLevel(1);
  binaryen.setLowMemoryUnused(true);
  // The command line writes an optimised module through Stack IR.
  binaryen.setGenerateStackIR(true);
  binaryen.setOptimizeStackIR(true);
  binaryen.setDebugInfo(workerData.names);
  parentPort.on('message', (file) => {
    if (file === null) {
      parentPort.close();
      return;
    }
    try {
      // The features come from the module's target_features section, as the
      // command line takes them.
      const module = binaryen.readBinary(readFileSync(file));
      module.optimize();
      writeFileSync(file, module.emitBinary());
      module.dispose();
      parentPort.postMessage({ file });
    } catch (error) {
      parentPort.postMessage({ file, error: String(error?.message ?? error) });
    }
  });
}

