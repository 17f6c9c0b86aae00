"""The kinds of entry declared each in a module of their own: one :class:`~..registry.EntryType` a module, registered
as the module is imported, so a new kind of entry is one module here and its name in the line below, nothing else
of the engine (``docs/architecture.md``, "An entry kind").  Imported by name, not found by looking through the
folder: what the engine imports stays visible to a reader and to the checks of its layers.  The order is the
simulator's: it asks the kinds in this order whether to record one (a lapsed rent before a fine), so a new kind goes
last and the games simulated before it stay the same.

- :mod:`.sell_buildings`: a sale of buildings back to the bank;
- :mod:`.trade`: a trade between two players;
- :mod:`.time_called`: the round's playing time called;
- :mod:`.mortgage`: a deed mortgaged, and a mortgage lifted;
- :mod:`.lapsed_rent`: a rent whose owner's claim lapsed, given back;
- :mod:`.penalty`: a fine for a breach at the table.

(legal_actions lists the actions of each in this order too, after the building declarations.)
"""
from __future__ import annotations

from . import sell_buildings, trade, time_called, mortgage, lapsed_rent, penalty  # noqa: F401  (each registers its kind)
