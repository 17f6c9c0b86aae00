"""The kinds of entry declared each in a module of their own, as the screens show them: one
:class:`~..kind.EntryScreen` a module, registered as the module is imported (every module of this package is
imported with it), beside the kind's engine module (:mod:`referee.engine.kinds`) and its template
(``templates/table/kinds/``).

- :mod:`.penalty`: a fine for a breach at the table (a panel of fines, and the fines on the result sheet);
- :mod:`.lapsed_rent`: a rent not claimed in time, given back (its confirmation under the decision).
"""
from __future__ import annotations

from ...engine import import_all

import_all(__path__, __name__)
