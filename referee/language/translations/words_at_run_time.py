"""Words the app translates at run time, from a value rather than from a marked string, that nothing else marks
for pybabel extract: a debt's reason, as referee/engine/phrases.py shows it (``_(p.reason)``).  Listed here so
that they stay in the catalogues; the app never imports this file.  The other reasons (rent, tax, card) are
marked elsewhere."""


def _(word: str) -> str:
    return word


WORDS = (
    _("bail"),  # a jail fine the player cannot pay at once
)
