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
#     wasm-opt -Os --low-memory-unused   every module (see below)
#     terser              the js glue and the loader
#
# Every file is named by the hash of the bytes it ships (deploy/ caches
# `-<16 hex>` names for a year as immutable), taken after wasm-bindgen, wasm-opt
# and terser: a tool that ships other bytes ships them under another name. The
# main js and the split loader import each other, so those two share one hash,
# of both files' shipped bytes with the two names left out. Each file also gets
# a .br (brotli at its highest level) and a .gz beside it, which the shipped
# servers send as they are (docs/self-hosting.md). The skipped <link> becomes
# trunk's usual loader.
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

# `sed -i` that fails the build when its expression changed nothing in $file.
rewrite() {
  local expr=$1 file=$2 before
  before=$(sha256sum "$file")
  sed -i "$expr" "$file"
  [ "$(sha256sum "$file")" != "$before" ] ||
    { echo "split-build: '$expr' matched nothing in $file" >&2; exit 1; }
}
content_hash() { cat "$@" | sha256sum | cut -c1-16; }

# The main module, one module per split point and the shared chunks, bound,
# hashed and (release) optimised, in $work.
make_pieces() {
  rm -rf "$work"
  mkdir -p "$work"
  # Working names first ($bin.js, $bin_bg.wasm, __wasm_split.js, split_….wasm);
  # each file is named by its content once its bytes are final.
  wasm-split-cli --target web --out-name "$bin" "$raw" "$work"
  # NKS_WASM_NAMES=1 keeps the function names, so a browser profile of a release
  # build reads in Rust (tests/bench/profile.mjs); the files are larger then.
  names=()
  [ "${NKS_WASM_NAMES:-}" = 1 ] && names=(--keep-debug)
  wasm-bindgen --target web --keep-lld-exports --no-typescript "${names[@]}" \
    --out-name "$bin" --out-dir "$work" "$work/$bin.wasm"
  rm "$work/$bin.wasm"

  if [ "$profile" = release ]; then
    # -Os rather than trunk's -Oz: a few percent more bytes, but fewer once
    # gzipped, which is what is sent. --low-memory-unused: the first 1 KB of
    # memory is the far end of Rust's stack (wasm-ld puts the 1 MB stack first),
    # never reached, so a constant added to an address can go into the
    # instruction's offset. Together 1.8 KB less of the first load, gzipped.
    # binaryen loaded once per core for all the modules (tools/wasm-opt-all.mjs:
    # one `wasm-opt` per module spent most of its time starting); the smallest
    # module is also run through the command, and the two must agree byte for byte.
    smallest=$(ls -S "$work"/*.wasm | tail -n 1)
    # (binaryen warns of each wasm-split name section it skips: not news.)
    quiet() { "$@" 2> >(grep -v 'unknown name subsection' >&2); }
    quiet wasm-opt -Os --low-memory-unused ${names:+-g} "$smallest" --output "$target_dir/check.wasm"
    quiet node tools/wasm-opt-all.mjs ${names:+--names} "$work"/*.wasm
    cmp -s "$smallest" "$target_dir/check.wasm" ||
      { echo "split-build: tools/wasm-opt-all.mjs and wasm-opt disagree on $smallest" >&2; exit 1; }
    rm "$target_dir/check.wasm"
  fi

  # The wasm modules: final now. The loader fetches the lazy ones by name, the
  # main one is named by index.html (and by the glue's unused default).
  local f stem h main_js=$work/$bin.js loader=$work/__wasm_split.js
  for f in "$work"/split_*.wasm "$work"/chunk_*.wasm; do
    [ -e "$f" ] || continue
    stem=$(basename "$f" .wasm)
    h=$(content_hash "$f")
    mv "$f" "$work/$stem-$h.wasm"
    rewrite "s#\"\./$stem\.wasm\"#\"./$stem-$h.wasm\"#" "$loader"
  done
  h=$(content_hash "$work/${bin}_bg.wasm")
  wasm_file=$bin-${h}_bg.wasm
  mv "$work/${bin}_bg.wasm" "$work/$wasm_file"
  rewrite "s#'${bin}_bg\.wasm'#'$wasm_file'#" "$main_js"

  # The main js and the loader import each other: their names hold a mark
  # until both are final. In the main js only the import specifier changes: the
  # imports-object key must stay "./__wasm_split.js", the module name the wasm
  # itself imports.
  rewrite "s#^import \(.*\) from \"\./__wasm_split\.js\"#import \1 from \"./__wasm_split-@JS_HASH@.js\"#" "$main_js"
  rewrite "s#from \"\./$bin\.js\"#from \"./$bin-@JS_HASH@.js\"#" "$loader"
  if [ "$profile" = release ]; then
    # The wasm-bindgen glue and the split loader, minified by a real minifier.
    # Only local names are mangled: the wasm's import and export names stay.
    for f in "$main_js" "$loader"; do
      terser "$f" --module --compress --mangle --output "$f"
    done
  fi
  h=$(content_hash "$main_js" "$loader")
  rewrite "s#@JS_HASH@#$h#g" "$main_js"
  rewrite "s#@JS_HASH@#$h#g" "$loader"
  mv "$main_js" "$work/$bin-$h.js"
  mv "$loader" "$work/__wasm_split-$h.js"
  printf '%s\n' "$bin-$h.js" "$wasm_file" "__wasm_split-$h.js" >"$work/.names"

  compress "$work"/*.wasm "$work"/*.js
}

# A .br (brotli's highest level) and a .gz beside each file given, for servers to
# send as they are; a file a core.
compress() {
  printf '%s\0' "$@" | xargs -0 -n 1 -P "$(nproc)" sh -c \
    'brotli --best --keep --force "$1" && gzip --best --keep --force --no-name "$1"' compress
}

# The pieces depend only on the wasm, the profile, the names switch, this script
# and the tools: an unchanged build reuses them (a second `scripts/run.sh`, or the
# test command's build run again) instead of splitting and optimising again.
key=$({
  echo "$hash $profile ${NKS_WASM_NAMES:-}"
  sha256sum "$0" tools/wasm-opt-all.mjs
  wasm-split-cli --version 2>/dev/null || true
  wasm-bindgen --version
  wasm-opt --version
  terser --version
  brotli --version
  gzip --version | head -n 1
} | sha256sum | cut -c1-16)
kept=$target_dir/kept/$key
if [ -f "$kept/.complete" ]; then
  echo "split-build: the wasm is unchanged ($hash): reusing its pieces"
else
  make_pieces
  rm -rf "$kept"
  mkdir -p "$target_dir/kept"
  cp -r "$work" "$kept"
  touch "$kept/.complete"
  # The newest three builds are kept.
  ls -1dt "$target_dir"/kept/*/ | tail -n +4 | xargs -r rm -rf
fi

cp -r "$kept"/. "$TRUNK_STAGING_DIR/"
rm -f "$TRUNK_STAGING_DIR/.complete" "$TRUNK_STAGING_DIR/.names"
# Trunk's own hashed stylesheets get theirs too.
compress "$TRUNK_STAGING_DIR"/*.css

mapfile -t shipped <"$kept/.names"
python3 - "$TRUNK_STAGING_DIR" "${shipped[@]}" <<'PY'
import base64, hashlib, re, sys
staging, js, wasm, loader = sys.argv[1:]
def integrity(file):
    data = open(f"{staging}/{file}", "rb").read()
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()
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
open(path, "w", encoding="utf-8").write(html)
PY
