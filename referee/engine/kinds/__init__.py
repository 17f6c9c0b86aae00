"""The kinds of entry declared each in a module of its own: one :class:`~..registry.EntryType` a module, registered
as the module is imported (every module of this package is imported with it), so a new kind of entry is one module
here and nothing else of the engine (``docs/architecture.md``, "An entry kind").

- :mod:`.penalty`: a fine for a breach at the table;
- :mod:`.rent_not_claimed`: a rent whose owner's claim lapsed, given back.
"""
from __future__ import annotations

from ..registry import import_all

import_all(__path__, __name__)
