#!/usr/bin/env python3
"""Gives the main module's JS imports short names, in the wasm and in its glue.

wasm-bindgen names each import after its function and a 16-hex-digit hash
(`__wbg_writeText_6b6a85b68a7dd3eb`), under a module named after the output file
(`./nks-console-<hash>_bg.js`). The console's main module has about 180 of them,
and each name is written twice: in the wasm's import section and as a key of the
glue's imports object. The hashes do not compress, so the names cost about 3 KB
of the first page, gzipped. This renames them `a`, `b`, … `aa`, … in both files.

Only what is certain is renamed: the module must be the glue's own `_bg.js`, and
each old name must appear exactly once in the glue, as an object key. Anything
else stops the build with a message, rather than ship a page that cannot load.

    shorten-imports.py <module.wasm> <glue.js> <bg module name>
"""
import re
import sys
from string import ascii_letters


def leb(data, at):
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def uleb(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def name(data, at):
    length, at = leb(data, at)
    return data[at : at + length].decode("utf-8"), at + length


def encoded(text):
    raw = text.encode("utf-8")
    return uleb(len(raw)) + raw


def short_names():
    """a … Z, then aa, ab, …: valid JS keys, none of them `__proto__`."""
    n = 0
    while True:
        digits, k = "", n
        while True:
            digits = ascii_letters[k % 52] + digits
            k = k // 52 - 1
            if k < 0:
                break
        yield digits
        n += 1


def rewrite_imports(section, module, new_module, renames):
    """The import section with `module`'s entries renamed; fills `renames`."""
    count, at = leb(section, 0)
    out = bytearray(uleb(count))
    fresh = short_names()
    for _ in range(count):
        mod, at = name(section, at)
        field, at = name(section, at)
        start = at
        kind = section[at]
        at += 1
        if kind == 0:  # function: type index
            _, at = leb(section, at)
        elif kind == 1:  # table: reftype, limits
            at += 1
            flags = section[at]
            _, at = leb(section, at + 1)
            if flags & 1:
                _, at = leb(section, at)
        elif kind == 2:  # memory: limits
            flags = section[at]
            _, at = leb(section, at + 1)
            if flags & 1:
                _, at = leb(section, at)
        elif kind == 3:  # global: valtype, mutability
            at += 2
        else:
            sys.exit(f"shorten-imports: import kind {kind} not understood")
        if mod == module:
            if field in renames:
                sys.exit(f"shorten-imports: {field} imported twice")
            renames[field] = next(fresh)
            out += encoded(new_module) + encoded(renames[field])
        else:
            out += encoded(mod) + encoded(field)
        out += section[start:at]
    if at != len(section):
        sys.exit("shorten-imports: import section not read to its end")
    return bytes(out)


def main():
    wasm_path, js_path, module = sys.argv[1:]
    new_module = "w"
    data = open(wasm_path, "rb").read()
    if data[:8] != b"\0asm\x01\0\0\0":
        sys.exit(f"shorten-imports: {wasm_path} is not a wasm module")
    out = bytearray(data[:8])
    renames = {}
    at = 8
    while at < len(data):
        section_id = data[at]
        size, body = leb(data, at + 1)
        section = data[body : body + size]
        if section_id == 2:
            section = rewrite_imports(section, module, new_module, renames)
        out += bytes([section_id]) + uleb(len(section)) + section
        at = body + size
    if not renames:
        sys.exit(f"shorten-imports: no import from {module} in {wasm_path}")

    js = open(js_path, encoding="utf-8").read()
    quoted = f'"{module}"'
    if js.count(quoted) != 1:
        sys.exit(f"shorten-imports: {quoted} is not named exactly once in {js_path}")
    js = js.replace(quoted, f'"{new_module}"')
    for old, new in renames.items():
        key = re.compile(rf"(?<![\w$]){re.escape(old)}(?=\s*:)")
        if len(re.findall(rf"(?<![\w$]){re.escape(old)}(?![\w$])", js)) != 1:
            sys.exit(f"shorten-imports: {old} is not named exactly once in {js_path}")
        js, n = key.subn(new, js)
        if n != 1:
            sys.exit(f"shorten-imports: {old} is not a key of the imports object in {js_path}")
    open(wasm_path, "wb").write(out)
    open(js_path, "w", encoding="utf-8").write(js)
    print(f"shorten-imports: {len(renames)} imports renamed, wasm {len(data)} -> {len(out)} bytes")


if __name__ == "__main__":
    main()
