#!/usr/bin/env bash
# Builds the console's wasm split in pieces, so the first page downloads only what
# it needs and the other pages load their code when first opened.
#
# Trunk 0.21 cannot split (no step between cargo and wasm-bindgen), so index.html
# marks its Rust asset `data-trunk-skip` and trunk's post_build hook runs this
# script instead (Trunk.toml). Trunk still does the HTML, CSS, copies and serving.
#
#   cargo build  --cfg nks_split, relocations kept for the splitter
#   wasm-split-cli  main module + one module per lazy page (src/app/lazy.rs)
#                   + shared chunks + the loader __wasm_split.js
#   wasm-bindgen --keep-lld-exports  (the loader needs the function table)
#   release only:
#     shorten-imports.py  short names for the main module's JS imports
#     wasm-opt -Oz        every module
#     terser              the js glue and the loader
#
# Every file is named with one content hash (deploy/ caches `-<16 hex>` names for
# a year), and the skipped <link> becomes trunk's usual loader. The pieces only
# work as a set, so they share that hash.
set -euo pipefail
: "${TRUNK_STAGING_DIR:?run by trunk as a post_build hook (Trunk.toml)}"
bin=nks-console
profile=${TRUNK_PROFILE:-debug}
target_dir=target/split
work=$target_dir/out

build=(cargo build --target wasm32-unknown-unknown --bin "$bin" --target-dir "$target_dir"
  # Appended to .cargo/config.toml's rustflags (arrays from --config are joined).
  --config 'target.wasm32-unknown-unknown.rustflags=["--cfg","nks_split","-C","link-arg=--emit-relocs"]')
[ "$profile" = release ] && build+=(--release)
"${build[@]}"

raw=$target_dir/wasm32-unknown-unknown/$profile/$bin.wasm
hash=$(sha256sum "$raw" | cut -c1-16)
name=$bin-$hash
rm -rf "$work"
mkdir -p "$work"
wasm-split-cli --target web --out-name "$name" "$raw" "$work"
# NKS_WASM_NAMES=1 keeps the function names, so a browser profile of a release
# build reads in Rust (tests/bench/profile.mjs); the files are larger then.
names=()
[ "${NKS_WASM_NAMES:-}" = 1 ] && names=(--keep-debug)
wasm-bindgen --target web --keep-lld-exports --no-typescript "${names[@]}" \
  --out-name "$name" --out-dir "$work" "$work/$name.wasm"
rm "$work/$name.wasm"

# The lazy modules and the loader get the same hash as the main module. In the
# main js only the import specifiers change: the imports-object key must stay
# "./__wasm_split.js", the module name the wasm itself imports.
for f in "$work"/split_*.wasm "$work"/chunk_*.wasm; do
  [ -e "$f" ] || continue
  stem=$(basename "$f" .wasm)
  mv "$f" "$work/$stem-$hash.wasm"
  sed -i "s#\"\./$stem\.wasm\"#\"./$stem-$hash.wasm\"#" "$work/__wasm_split.js"
done
mv "$work/__wasm_split.js" "$work/__wasm_split-$hash.js"
sed -i "s#^import \(.*\) from \"\./__wasm_split\.js\"#import \1 from \"./__wasm_split-$hash.js\"#" "$work/$name.js"

if [ "$profile" = release ]; then
  # The main module's JS imports get short names, in the wasm and in the glue
  # (scripts/shorten-imports.py): wasm-bindgen's are hashed and long.
  python3 scripts/shorten-imports.py "$work/${name}_bg.wasm" "$work/$name.js" "./${name}_bg.js"
  for f in "$work"/*.wasm; do
    # leptos always builds server functions' browser side, and with it wasm-streams,
    # whose stream classes are wasm exports: kept alive, never called (the console
    # has no server functions). Dropping those exports lets -Oz drop the code behind
    # them (4 KB). Their JS classes stay in the glue, never constructed.
    drop=()
    [ "$f" = "$work/${name}_bg.wasm" ] && drop=(--remove-exports --pass-arg='remove-exports@*intounderlying*')
    wasm-opt "${drop[@]}" -Oz ${names:+-g} "$f" --output "$f"
  done
  # The wasm-bindgen glue and the split loader, minified (about 3 KB less gzipped).
  # Only local names are mangled: the wasm's import and export names stay.
  for f in "$work"/*.js; do
    terser "$f" --module --compress --mangle --output "$f"
  done
fi

cp -r "$work"/. "$TRUNK_STAGING_DIR/"

python3 - "$TRUNK_STAGING_DIR" "$name" "$hash" "$profile" <<'PY'
import base64, hashlib, re, sys
staging, name, hash_, profile = sys.argv[1:]
def integrity(file):
    data = open(f"{staging}/{file}", "rb").read()
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()
js, wasm, loader = f"{name}.js", f"{name}_bg.wasm", f"__wasm_split-{hash_}.js"
tags = (
    "<script type=\"module\">\n"
    f"import init, * as bindings from './{js}';\n"
    f"const wasm = await init({{ module_or_path: './{wasm}' }});\n"
    "window.wasmBindings = bindings;\n"
    "dispatchEvent(new CustomEvent(\"TrunkApplicationStarted\", {detail: {wasm}}));\n"
    "</script>\n"
    f"<link rel=\"modulepreload\" href=\"./{js}\" crossorigin=\"anonymous\" integrity=\"{integrity(js)}\">"
    f"<link rel=\"modulepreload\" href=\"./{loader}\" crossorigin=\"anonymous\" integrity=\"{integrity(loader)}\">"
    f"<link rel=\"preload\" href=\"./{wasm}\" crossorigin=\"anonymous\" integrity=\"{integrity(wasm)}\" as=\"fetch\" type=\"application/wasm\">"
)
path = f"{staging}/index.html"
html = open(path, encoding="utf-8").read()
html, n = re.subn(r"<link[^>]*data-trunk-skip[^>]*>", lambda _: tags, html, count=1)
if n != 1:
    sys.exit(f"split-build: no <link data-trunk rel=\"rust\" … data-trunk-skip> in {path}")
if profile == "release":
    # The style sheets without their comments and runs of white space (0.8 KB
    # gzipped). Not trunk's `minify`: it would rewrite index.html too, whose
    # <base href="/"> hosting servers look for as written (docs/self-hosting.md).
    def lean(css):
        css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
        css = re.sub(r"\s+", " ", css)
        return re.sub(r" ?([{};,]) ?", r"\1", css).strip() + "\n"
    sheets = re.findall(r'<link rel="stylesheet" href="\./([^"]+\.css)" integrity="(sha384-[^"]+)"', html)
    if not sheets:
        sys.exit(f"split-build: no style sheet linked from {path}")
    for sheet, old in sheets:
        file = f"{staging}/{sheet}"
        css = lean(open(file, encoding="utf-8").read())
        open(file, "w", encoding="utf-8").write(css)
        html = html.replace(old, integrity(sheet))
open(path, "w", encoding="utf-8").write(html)
PY
