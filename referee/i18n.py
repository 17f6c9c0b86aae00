"""Languages: English and Japanese, chosen per device (a cookie), else from the browser's languages."""
from __future__ import annotations

import functools
from contextvars import ContextVar
from pathlib import Path

from flask import Blueprint, Flask, g, has_app_context, redirect, request
from flask_babel import Babel, get_locale, get_translations
from babel import Locale
from babel.support import NullTranslations
from jinja2 import pass_eval_context
from jinja2.nodes import EvalContext
from markupsafe import Markup

LANGUAGES = ("en", "ja", "ko", "de")
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
babel = Babel()
bp = Blueprint("i18n", __name__)


@functools.cache
def _locale(code: str) -> Locale:
    return Locale.parse(code)


def select_locale() -> Locale:
    """The device's language: its choice (a cookie), else the first of its browser's languages we have.  Given as
    a parsed locale, made once per language: flask_babel would parse a code, asking the file system whether the
    locale's data exists, at every request."""
    chosen = request.cookies.get("lang")
    if chosen not in LANGUAGES:
        chosen = request.accept_languages.best_match(LANGUAGES) or "en"
    return _locale(chosen)


# The language and translations of the request being answered, found at its first word and read from here after:
# a table screen says some eighty words, each asking for both, and reading them through flask's g (a proxy) took
# 3 us a time.  None outside a request a view answers (a command, a test's context): they are then kept on g.
_REQUEST_WORDS: ContextVar[tuple[str, NullTranslations] | None] = ContextVar("referee_request_words", default=None)
_NOT_YET: tuple = ()  # a request's words not found yet


def _words_begin() -> None:
    _REQUEST_WORDS.set(_NOT_YET)


def _words_end(exc: BaseException | None = None) -> None:
    _REQUEST_WORDS.set(None)


def _found() -> tuple[str, NullTranslations]:
    return str(get_locale() or "en"), get_translations()


def _words() -> tuple[str, NullTranslations]:
    """This request's language code and translations, found once per request (flask_babel works the locale and
    the translations out anew at each word, some microseconds each, and the table screen says hundreds)."""
    words = _REQUEST_WORDS.get()
    if words is _NOT_YET:
        words = _found()
        _REQUEST_WORDS.set(words)
    if words is not None:
        return words
    if not has_app_context():
        return _found()
    try:
        return g._referee_words  # on g, where flask_babel keeps the locale it found for this context
    except AttributeError:
        found = g._referee_words = _found()
        return found


def current_language() -> str:
    """The language code of this request."""
    return _words()[0]


def catalogue() -> NullTranslations:
    """The translations of this request's language."""
    return _words()[1]


def gettext(string: str, **variables) -> str:
    """flask_babel's gettext, from :func:`catalogue`."""
    text = catalogue().ugettext(string)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables) -> str:
    """flask_babel's ngettext, from :func:`catalogue`."""
    variables.setdefault("num", num)
    text = catalogue().ungettext(singular, plural, num)
    return text % variables if variables else text


@pass_eval_context
def template_gettext(eval_ctx: EvalContext, string: str, **variables) -> str:
    """The templates' ``_`` and ``gettext``: jinja's "newstyle" gettext (the words marked safe where the template
    escapes its output, then always formatted, each variable escaped) in one call.  Jinja's own passes every word
    through three calls of the template's context (7 us each, and a table screen says some thirty words)."""
    text = catalogue().ugettext(string)
    if not variables and "%" not in text:  # nothing to put in (the standings say a few hundred such words)
        return Markup(text) if eval_ctx.autoescape else text
    return (Markup(text) if eval_ctx.autoescape else text) % variables


@pass_eval_context
def template_ngettext(eval_ctx: EvalContext, singular: str, plural: str, num: int, **variables) -> str:
    """The templates' ``ngettext``, as :func:`template_gettext` (``num`` among the variables)."""
    variables.setdefault("num", num)
    text = catalogue().ungettext(singular, plural, num)
    return (Markup(text) if eval_ctx.autoescape else text) % variables


def same_site_path(referrer: str | None) -> str:
    """The page the language was chosen on, as a path on this site: a Referer naming another site (or none)
    leads home, so the switch never sends a tablet off-site."""
    from urllib.parse import urlsplit

    if not referrer:
        return "/"
    url = urlsplit(referrer)
    if url.netloc and url.netloc != request.host or url.scheme not in ("", "http", "https"):
        return "/"
    path = url.path if url.path.startswith("/") and not url.path.startswith("//") else "/"
    return path + (f"?{url.query}" if url.query else "")


@bp.get("/lang/<code>")
def choose(code: str):
    response = redirect(same_site_path(request.referrer))
    if code in LANGUAGES:
        response.set_cookie("lang", code, max_age=365 * 24 * 3600, samesite="Lax", secure=request.is_secure)
    return response


def init_app(app: Flask) -> None:
    babel.init_app(app, locale_selector=select_locale, default_translation_directories=str(TRANSLATIONS))
    # the templates' words from the request's catalogue too (Jinja's i18n extension, which Flask loads, adds this
    # method to the environment as it is made: the Environment's types do not declare it)
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: catalogue().ugettext(s), ngettext=lambda s, p, n: catalogue().ungettext(s, p, n),
        pgettext=lambda c, s: catalogue().upgettext(c, s),
        npgettext=lambda c, s, p, n: catalogue().unpgettext(c, s, p, n), newstyle=True)
    app.jinja_env.globals.update(_=template_gettext, gettext=template_gettext, ngettext=template_ngettext)
    app.before_request(_words_begin)
    app.teardown_request(_words_end)
    app.register_blueprint(bp)
    app.jinja_env.globals["current_language"] = current_language
    app.jinja_env.globals["LANGUAGES"] = LANGUAGES
