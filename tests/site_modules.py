"""The site's own code (site/scrubbers.py, site/build.py) is not part of the package: the tests
import it from its folder, as site/build.py does when it runs."""

import importlib
import sys
from types import ModuleType

from choosing_epsilon.harness.paths import ROOT

SITE = str(ROOT / "site")


def site_module(name: str) -> ModuleType:
    """The module `name` of site/."""
    if SITE not in sys.path:
        sys.path.insert(0, SITE)
    return importlib.import_module(name)
