#!/bin/sh
# The CSP source for trunk's loader, the one inline script of the built
# index.html, e.g. 'sha256-AbC…='. It changes with every build (the loader names
# the content-hashed files), so it is computed after the build. Under
# `trunk serve` the page keeps 'unsafe-inline': trunk adds a reload script and
# rewrites it while serving, so no hash could match it.
#
#   deploy/csp-hash.sh dist/index.html           prints it (for a server header)
#   deploy/csp-hash.sh --write dist/index.html   also writes it into the page's own
#       <meta http-equiv="Content-Security-Policy">, in place of 'unsafe-inline'
#       in its script-src (run by trunk's post_build hook; running it twice is
#       harmless: an existing loader hash is replaced).
set -eu
write=0
if [ "${1:-}" = "--write" ]; then
  write=1
  shift
fi
exec python3 - "$write" "${1:-dist/index.html}" <<'PY'
import base64, hashlib, re, sys
write, path = sys.argv[1] == "1", sys.argv[2]
html = open(path, encoding="utf-8").read()
scripts = re.findall(r"<script[^>]*>(.*?)</script>", html, re.S)
if len(scripts) == 2 and "const address" in scripts[1]:
    # `trunk serve` adds a live-reload script and rewrites it while serving, so no
    # hash can match it: the development page keeps 'unsafe-inline'.
    print(f"{path}: trunk serve's reload script found; CSP left with 'unsafe-inline' (development only)")
    sys.exit(0)
if len(scripts) != 1:
    sys.exit(f"expected one inline script in {path}, found {len(scripts)}")
digest = hashlib.sha256(scripts[0].encode("utf-8")).digest()
source = f"'sha256-{base64.b64encode(digest).decode()}'"
print(source)
if write:
    meta = re.compile(r'(<meta http-equiv="Content-Security-Policy"\s+content="[^"]*?script-src [^;"]*?)'
                      r"(?:'unsafe-inline'|'sha256-[A-Za-z0-9+/=]+')")
    html, n = meta.subn(lambda m: m.group(1) + source, html, count=1)
    if n != 1:
        sys.exit(f"{path}: no CSP meta with 'unsafe-inline' or a sha256 source in its script-src")
    open(path, "w", encoding="utf-8").write(html)
PY
