#!/bin/sh
# Prints the CSP source for trunk's loader, the one inline script of the built
# index.html, e.g. 'sha256-AbC…='. Put it in script-src. It changes with every
# build (the loader names the content-hashed files), so run it at deploy time.
#   usage: deploy/csp-hash.sh dist/index.html
set -eu
exec python3 - "${1:-dist/index.html}" <<'PY'
import base64, hashlib, re, sys
html = open(sys.argv[1], encoding="utf-8").read()
scripts = re.findall(r"<script[^>]*>(.*?)</script>", html, re.S)
if len(scripts) != 1:
    sys.exit(f"expected one inline script in {sys.argv[1]}, found {len(scripts)}")
digest = hashlib.sha256(scripts[0].encode("utf-8")).digest()
print(f"'sha256-{base64.b64encode(digest).decode()}'")
PY
