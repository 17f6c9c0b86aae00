"""Behind a reverse proxy (an https proxy in front of the app): whose X-Forwarded-* headers are believed.

The venue's Wi-Fi is shared with players, so a header that says "I am another device" or "this came over https"
is believed only from the proxy itself: from an address in ``REFEREE_TRUSTED_PROXY`` (addresses or networks,
comma-separated; by default this machine's own, 127.0.0.0/8 and ::1, so a proxy on the same machine needs no
setting).  From a trusted proxy the last ``REFEREE_PROXIES`` hops of X-Forwarded-For, -Proto and -Host say who
the device is, whether it used https and which address it typed (werkzeug's ProxyFix); from anyone else those
headers are removed before the app reads them, whatever the server in front did with them.  Without
``REFEREE_PROXIES`` no one's are believed.

The same rule holds under every server: ``referee serve`` (granian) and gunicorn hand the headers on as they came.
"""
from __future__ import annotations

import ipaddress
import os

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from ..services.games import NotWhole, whole_number

LOOPBACK = "127.0.0.0/8, ::1"  # a proxy on the same machine
FORWARDED = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST", "HTTP_X_FORWARDED_PORT",
             "HTTP_X_FORWARDED_PREFIX", "HTTP_FORWARDED")


class ProxySettingError(ValueError):
    """``REFEREE_PROXIES`` or ``REFEREE_TRUSTED_PROXY`` cannot be read: the app does not start."""


def _setting(app: Flask, name: str):
    value = app.config.get(name)
    return value if value not in (None, "") else os.environ.get(name)


def proxy_count(app: Flask) -> int:
    """``REFEREE_PROXIES``: how many reverse proxies stand between the devices and the app (0: none)."""
    raw = _setting(app, "REFEREE_PROXIES") or 0
    try:
        return whole_number("REFEREE_PROXIES", raw)
    except NotWhole as exc:
        if exc.too_small:
            raise ProxySettingError(f"REFEREE_PROXIES must be 0 or more, not {exc.value}") from None
        raise ProxySettingError(f"REFEREE_PROXIES must be a whole number of proxies (0, 1, 2...), not "
                                f"{repr(exc.value) if isinstance(raw, str) else exc.value}") from None


def trusted_networks(app: Flask) -> tuple:
    """``REFEREE_TRUSTED_PROXY``: the proxies' addresses or networks, comma-separated (default: this machine)."""
    raw = _setting(app, "REFEREE_TRUSTED_PROXY") or LOOPBACK
    names = raw if isinstance(raw, (list, tuple)) else str(raw).split(",")
    networks = []
    for name in (str(n).strip() for n in names):
        if not name:
            continue
        try:
            networks.append(ipaddress.ip_network(name, strict=False))
        except ValueError:
            raise ProxySettingError(f"REFEREE_TRUSTED_PROXY: {name!r} is not an IP address or network "
                                    "(e.g. 10.0.0.2 or 10.0.0.0/24)")
    return tuple(networks)


def _peer_is(networks: tuple, peer: str | None) -> bool:
    try:
        address = ipaddress.ip_address((peer or "").strip("[]"))
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return any(address in network for network in networks)


class TrustedProxies:
    """The WSGI middleware: a trusted proxy's forwarded headers are applied, anyone else's removed."""

    def __init__(self, app, count: int, networks: tuple):
        self.app = app
        self.count = count
        self.networks = networks
        self.fixed = ProxyFix(app, x_for=count, x_proto=count, x_host=count) if count else app

    def __call__(self, environ, start_response):
        if self.count and _peer_is(self.networks, environ.get("REMOTE_ADDR")):
            return self.fixed(environ, start_response)
        for name in FORWARDED:
            environ.pop(name, None)
        return self.app(environ, start_response)


def init_app(app: Flask) -> None:
    app.wsgi_app = TrustedProxies(app.wsgi_app, proxy_count(app), trusted_networks(app))  # type: ignore[method-assign]

