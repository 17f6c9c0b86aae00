"""The templates' words: ``_``, ``gettext`` and ``ngettext`` as a template calls them, from the catalogue its
drawer names (the server's: the request's language; a tablet's: the language it speaks).  Jinja's "newstyle"
gettext (the words marked safe where the template escapes its output, then always formatted, each variable
escaped) in one call.  Jinja's own passes every word through three calls of the template's context (7 us each, and
a table screen says some thirty words)."""
from __future__ import annotations

from typing import Any, Callable

from babel.support import NullTranslations
from jinja2 import pass_eval_context
from jinja2.nodes import EvalContext
from markupsafe import Markup


def template_words(catalogue: Callable[[], NullTranslations]) -> dict[str, Callable[..., str]]:
    """The templates' ``_``, ``gettext`` and ``ngettext``, each word read from ``catalogue()`` as it is said."""

    @pass_eval_context
    def template_gettext(eval_ctx: EvalContext, string: str, **variables: Any) -> str:
        text = catalogue().ugettext(string)
        if not variables and "%" not in text:  # nothing to put in (the standings say a few hundred such words)
            return Markup(text) if eval_ctx.autoescape else text
        return (Markup(text) if eval_ctx.autoescape else text) % variables

    @pass_eval_context
    def template_ngettext(eval_ctx: EvalContext, singular: str, plural: str, num: int, **variables: Any) -> str:
        variables.setdefault("num", num)
        text = catalogue().ungettext(singular, plural, num)
        return (Markup(text) if eval_ctx.autoescape else text) % variables

    return {"_": template_gettext, "gettext": template_gettext, "ngettext": template_ngettext}
