// Syntax check with TypeScript's own parser: node tools/ts-syntax.mjs FILE...
// Each file is parsed as a TypeScript ES module (so top-level await is allowed),
// whatever its extension; only syntax errors count (no type checking: the SDK the
// snippets import is not installed). Prints each as file:line:col: message and
// exits 1 if there is any, 0 (silently) if there is none, 2 on a usage or read error.
// typescript comes from tools/node_modules (scripts/install-tools.sh), found from
// this script's location, so it works from any directory.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const ts = createRequire(import.meta.url)("typescript");

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node tools/ts-syntax.mjs FILE...");
  process.exit(2);
}

let failed = false;
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    console.error(`${file}: cannot read: ${err.message}`);
    process.exit(2);
  }
  // The name given to the compiler decides the language: .tsx keeps JSX, anything
  // else (.js, .txt, no extension) is read as .ts.
  const fileName = /\.(m|c)?tsx?$/.test(file) ? file : `${file}.ts`;
  const { diagnostics = [] } = ts.transpileModule(text, {
    reportDiagnostics: true,
    fileName,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      // Every file is a module, even one without import/export (a snippet
      // often has neither), parsed with top-level await.
      moduleDetection: ts.ModuleDetectionKind.Force,
    },
  });
  for (const d of diagnostics) {
    failed = true;
    const message = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    if (d.file && d.start !== undefined) {
      const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
      console.log(`${file}:${line + 1}:${character + 1}: ${message}`);
    } else {
      console.log(`${file}: ${message}`);
    }
  }
}
process.exit(failed ? 1 : 0);
