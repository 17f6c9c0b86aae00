"""The kinds of entry declared each in a module of their own, as the screens show them: one
:class:`~..kind.EntryScreen` a module, registered as the module is imported (its name in the line below), beside the
kind's engine module (:mod:`referee.engine.kinds`) and its template (``templates/table/kinds/``).

- :mod:`.lapsed_rent`: a rent not claimed in time, given back (its confirmation under the decision);
- :mod:`.penalty`: a fine for a breach at the table (a panel of fines, and the fines on the result sheet).
"""
from __future__ import annotations

from . import lapsed_rent, penalty  # noqa: F401  (each registers its kind as it is imported)
