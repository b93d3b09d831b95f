"""Toolshed: pip cannot install here (no package index is reachable from the session)."""
import sys

MESSAGE = (
    "pip: no package index is reachable from this session, so nothing can be installed.\n"
    "The standard library is all there (json, csv, re, sqlite3, zlib, ...), and pure-Python\n"
    "code placed in the workspace imports as it is: put the package's directory next to your\n"
    "script or add its path to PYTHONPATH.\n"
)


def main(argv=None):
    sys.stderr.write(MESSAGE)
    return 1
