"""The device's session cookie (it holds the device's unlocks: their grants' tokens), as Flask keeps it, signed by
the app's secret key; Secure whenever the request came over https; and read without checking its signature again
when the same value was checked before.

Every device sends the same cookie with each request (a tablet's poll every second, and most of a room's requests
are polls): reading it, its signature checked (two HMACs), was about a sixth of an unchanged poll's server time
under a room's load.  A value whose signature was checked is kept with the moment it was signed, under the keys it
was checked with (``referee.cache.CHECKED_COOKIES``); each request still checks its age against the session's
lifetime, as Flask's does, and reads its payload afresh (a request may change its session: no two requests share
one).  A value never checked, or signed with another key, is checked in full."""
from __future__ import annotations

import time
from collections.abc import Mapping

from flask import Flask, has_request_context, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadData, URLSafeTimedSerializer
from werkzeug.wrappers import Request

from ..cache import CHECKED_COOKIES, COOKIE_SIGNERS


class SessionOverHttps(SecureCookieSessionInterface):
    """The session cookie (it holds the device's unlocks) is Secure whenever the request came over https, as well
    as always when the app is told it is served over https only (``SESSION_COOKIE_SECURE``): a tablet that
    reached the app over https never sends its cookie in the clear over the venue's Wi-Fi.  Behind a trusted
    proxy (``REFEREE_PROXIES``) the request is https when the proxy says so (ProxyFix)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or (has_request_context() and request.is_secure)

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        """As Flask's, made once for the app's keys and kept (:data:`referee.cache.COOKIE_SIGNERS`): Flask makes one
        for every request and every answer that sets the cookie, and making one signs an empty value to learn what
        kind it writes (a tenth of an unchanged poll's server time)."""
        if not app.secret_key:
            return None
        key = (type(self), app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))
        return COOKIE_SIGNERS.get_or_make(key, lambda: super(SessionOverHttps, self).get_signing_serializer(app))

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """As Flask's: the session the cookie holds, or a new one for a cookie that is missing, not signed by this
        app or too old."""
        if not app.secret_key:  # (as Flask's: no key, no session)
            return None
        data = self.read(app, request.cookies.get(self.get_cookie_name(app), ""))
        return self.session_class(data or {})

    def read(self, app: Flask, value: str) -> dict | None:
        """The session a cookie's value holds, as Flask reads it (signed by the app's key, or one of its fallback
        keys, at most the session's lifetime ago); None for any other value."""
        serializer = self.get_signing_serializer(app)
        if serializer is None or not value:
            return None
        max_age = int(app.permanent_session_lifetime.total_seconds())
        key = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()), value)
        signed = CHECKED_COOKIES.get(key)
        try:
            if signed is None:
                data, when = serializer.loads(value, max_age=max_age, return_timestamp=True)
                CHECKED_COOKIES.keep(key, int(when.timestamp()))
            elif 0 <= int(time.time()) - signed <= max_age:  # as itsdangerous judges a signature's age
                data = serializer.load_payload(value.rsplit(".", 2)[0].encode())  # payload.timestamp.signature
            else:
                return None
        except BadData:  # a signature not good, or too old; a payload that is not one
            return None
        return data if isinstance(data, dict) else None


def form_token(app: Flask, data: Mapping[str, object]) -> str | None:
    """The form token (CSRF) Flask-WTF's ``generate_csrf`` gives a request of the device whose session holds ``data``:
    the session's raw token signed with the app's key as Flask-WTF signs it, for an answer made before Flask's request
    (a tablet's live poll: ``referee.web.polls``) that puts it into the forms it sends; None when the session holds
    none yet (the views make one, and set the cookie)."""
    secret = app.config.get("WTF_CSRF_SECRET_KEY", app.secret_key)  # (as Flask-WTF reads it) only for one not set
    raw = raw_form_token(app, data)
    if raw is None or not isinstance(secret, (str, bytes)) or not secret:
        return None
    signer = COOKIE_SIGNERS.get_or_make(("form tokens", secret),
                                        lambda: URLSafeTimedSerializer(secret, salt="wtf-csrf-token"))
    return signer.dumps(raw)


def raw_form_token(app: Flask, data: Mapping[str, object]) -> str | None:
    """The raw form token (CSRF) the device's session ``data`` holds, which every form token drawn for it signs, as
    Flask-WTF keeps it; None when it holds none yet."""
    field = app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")  # as Flask-WTF reads its settings: a default
    raw = data.get(field) if isinstance(field, str) and field else None
    return raw if isinstance(raw, str) else None
