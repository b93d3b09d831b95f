# Run by scripts/build-python.mjs with the build machine's python3.11 (same bytecode magic as
# the WASI interpreter): packs CPython's Lib/ into one deflated zip whose entries are paths under
# /usr/lib/python3.11, each module with its precompiled bytecode beside it in __pycache__, so a
# start compiles nothing. The bytecode is "unchecked hash" based: the loader never compares it
# with the source's mtime (the workspace's clock is not the build's), and the source stays for
# tracebacks, which print the source line exactly as Debian's python3.11 does.
#
# usage: make-stdlib.py LIB_DIR BUILD_LIB_DIR OVERLAY_DIR OUT.zip
import importlib.util
import os
import sys
import zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

PREFIX = "/usr/lib/python3.11"
# GUI, test-suite, installer and 2to3 parts: not usable in a sandbox, or large and never imported.
SKIP_DIRS = {
    "test", "tests", "idlelib", "tkinter", "turtledemo", "ensurepip", "lib2to3",
    "__pycache__", "site-packages", "venv/scripts",
}
SKIP_FILES = {"turtle.py", "__phello__.foo.py"}

lib, build_lib, overlay, out = sys.argv[1:5]


def wanted(rel):
    parts = rel.split("/")
    for i in range(1, len(parts)):
        if parts[i - 1] in SKIP_DIRS or "/".join(parts[:i]) in SKIP_DIRS:
            return False
        if parts[i - 1] in ("test", "tests") or parts[i - 1].startswith("test_"):
            return False
    return parts[-1] not in SKIP_FILES


def files_under(base):
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames.sort()
        for f in sorted(filenames):
            full = os.path.join(dirpath, f)
            yield os.path.relpath(full, base).replace(os.sep, "/"), full


entries = {}
for rel, full in files_under(lib):
    if wanted(rel) and not rel.endswith((".pyc", ".exe", ".bat", ".ps1", ".fish", ".csh")):
        entries[rel] = full
# _sysconfigdata__wasi_wasm32-wasi.py and friends, written by the build.
for rel, full in files_under(build_lib):
    if rel.endswith(".py"):
        entries[rel] = full
# The project's own files (what pip and venv answer, the session's subprocess) win.
for rel, full in files_under(overlay):
    entries[rel] = full

pyc_count = 0
with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    # getpath looks for lib-dynload to find the platform-dependent prefix; it is empty here.
    z.writestr(zipfile.ZipInfo("lib-dynload/", date_time=(2023, 1, 1, 0, 0, 0)), b"")
    for rel in sorted(entries):
        with open(entries[rel], "rb") as f:
            data = f.read()
        info = zipfile.ZipInfo(rel, date_time=(2023, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(info, data)
        if rel.endswith(".py"):
            try:
                code = compile(data, f"{PREFIX}/{rel}", "exec", dont_inherit=True, optimize=0)
            except SyntaxError:
                continue  # e.g. files that are templates, not modules
            pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
            d, base = os.path.split(rel)
            name = f"{d + '/' if d else ''}__pycache__/{base[:-3]}.{sys.implementation.cache_tag}.pyc"
            pinfo = zipfile.ZipInfo(name, date_time=(2023, 1, 1, 0, 0, 0))
            pinfo.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(pinfo, bytes(pyc))
            pyc_count += 1
print(f"stdlib: {len(entries)} files, {pyc_count} precompiled, {os.path.getsize(out)} bytes")
