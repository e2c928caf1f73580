"""Old import path of :mod:`brainio.stimulus_cache.extraction` (extracted stimulus archives): this name is that
module itself, so reading or patching an attribute here reads or patches the one module."""

import sys

from brainio.stimulus_cache import extraction as _extraction

sys.modules[__name__] = _extraction
