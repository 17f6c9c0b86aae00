"""The kinds of entry declared each in a module of their own, as the screens show them: one
:class:`~..kind.EntryScreen` a module, registered as the module is imported (its name in the line below), beside the
kind's engine module (:mod:`referee.engine.kinds`) and its template (``templates/table/kinds/``).  The order is the
table screen's: the kinds' panels are drawn in it (those ahead before the building declarations').

- :mod:`.mortgage`: a deed mortgaged, and a mortgage lifted (one panel for both);
- :mod:`.sell_buildings`: a sale of buildings back to the bank (the sell panel);
- :mod:`.trade`: a trade between two players (the trade panel);
- :mod:`.time_called`: the round's playing time called (its button where the round's clock puts it);
- :mod:`.lapsed_rent`: a rent not claimed in time, given back (its confirmation under the decision);
- :mod:`.penalty`: a fine for a breach at the table (a panel of fines, and the fines on the result sheet).
"""
from __future__ import annotations

from . import mortgage, sell_buildings, trade, time_called, lapsed_rent, penalty  # noqa: F401  (each registers its kind)
