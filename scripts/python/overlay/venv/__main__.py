"""Toolshed: `python3 -m venv` is refused; a venv needs a package index to be of use."""
import sys

sys.stderr.write(
    "venv: virtual environments are not available in this session: no package index is\n"
    "reachable to install into one. Run python3 directly; pure-Python code in the workspace\n"
    "imports as it is (next to your script, or through PYTHONPATH).\n"
)
sys.exit(1)
