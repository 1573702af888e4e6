"""Static files served by the project itself (WhiteNoise), debug or not."""

from __future__ import annotations

import os
from typing import Any

from whitenoise.middleware import WhiteNoiseMiddleware


class StaticFiles(WhiteNoiseMiddleware):
    """WhiteNoise that serves from the apps until `collectstatic` has filled STATIC_ROOT.

    A fresh clone has no STATIC_ROOT yet and the finders serve every file, so a missing
    directory is no reason for a warning at every start.
    """

    def add_files(self, root: Any, prefix: Any = None) -> None:
        if os.path.isdir(root):
            super().add_files(root, prefix)
