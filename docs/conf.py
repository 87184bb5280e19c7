"""Sphinx configuration.  Pages under ``commands/``, ``api/`` and ``findings.md`` are
generated at build time by ``docs/_ext/generate.py`` (from the argparse parsers, the
packages' modules and the paper-check report)."""

import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE / "_ext"))

project = "lengthx"
author = "lengthx contributors"
extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.mathjax",
    "sphinx.ext.napoleon",
    "generate",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "_generated"]
myst_heading_anchors = 3
myst_enable_extensions = ["substitution"]
myst_substitutions: dict = {}  # counts added by _ext/generate.py while the docs build
autodoc_member_order = "bysource"
autodoc_typehints = "none"
html_theme = "alabaster"
suppress_warnings = ["myst.header"]
