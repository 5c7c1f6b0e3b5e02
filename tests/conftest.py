"""Every test, and every process a test starts (`python -m generator`, `mkdocs build`, the
MkDocs hook in a copied project), imports the `generator` package of this checkout.

Without this, a subprocess run from a temporary project imports whichever `generator` the
environment's editable install points at, which may be another checkout (a second git
worktree, an older clone), and the tests would pass or fail on code they never saw.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
_rest = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != str(REPO)]
os.environ["PYTHONPATH"] = os.pathsep.join([str(REPO), *_rest])

# `diagnose` keeps its loaded matcher in a cache (generator/matching/datacache.py): the tests'
# processes use a fresh folder of their own, never the user's ~/.cache.
if "FAILURE_ENCYCLOPEDIA_MATCHER_CACHE" not in os.environ:
    import tempfile

    os.environ["FAILURE_ENCYCLOPEDIA_MATCHER_CACHE"] = tempfile.mkdtemp(prefix="fe-matcher-")
