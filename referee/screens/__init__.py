"""The screens: what each screen shows, in the device's language, computed from the game (no request, no SQL).

- :mod:`.words`: things of a game by their names (squares, groups, buildings, money, cards), a ruling with its
  clause (:class:`~.words.Why`), word tables made once per language;
- :mod:`.log`: the game's log, each entry and event in words;
- :mod:`.dispute`: the table at one entry (the dispute view): the entry, its rulings, what the table waited for
  before and after it, the holdings, the log up to it, when it was recorded;
- :mod:`.notes`: why the decision the table waits for, or an entry's outcome, is the one it is;
- :mod:`.holdings`: the players' cards, the bank's stock, the board;
- :mod:`.panels`: the build and sell panels, one tap a build or sale with the amount on the button;
- :mod:`.decisions`: one module per pending decision, looked up by its type: its words, notes, card and template;
- :mod:`.kinds`: one module per kind of entry declared in a module of its own (:mod:`referee.engine.kinds`): its
  noun, log line, payments' words, refusals' titles and buttons (:mod:`.kind`, where the screens find them);
- :mod:`.rulings`: the facts behind the rulings (equal calls, the sales the rules allow);
- :mod:`.refusals`: a refusal's title and detail;
- :mod:`.rules_page`: a ruleset's options and clauses in words;
- :mod:`.templating`: what the templates may call.
"""
from . import kinds  # noqa: E402,F401  (each kind of entry registers its screens)
