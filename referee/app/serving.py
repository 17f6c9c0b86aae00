"""How ``referee serve`` runs waitress: its threads, the connections it keeps open at once (and the open files they
need), and the proxies' headers it hands on (:func:`referee.web.proxies.waitress_options`)."""
from __future__ import annotations

import resource

from flask import Flask

from ..web.proxies import waitress_options

THREADS = 8  # requests answered at once

# connections kept open at once: every device keeps its own open between its polls (a national final's 64 tables,
# two devices each, the director's page and the room's display, and the spectators' phones on the standings);
# waitress's own limit (100) would leave the 101st device waiting, unanswered, until another's connection closed
CONNECTIONS = 1000


def open_files(wanted: int) -> int:
    """Room for ``wanted`` connections among the files this process may have open (each is one; the database and
    the app's own files take some 50 more): the soft limit raised as far as the hard one allows; how many
    connections that leaves room for."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = wanted + 64
    if soft != resource.RLIM_INFINITY and soft < needed:
        raised = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        if raised > soft:
            soft = raised
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return wanted if soft == resource.RLIM_INFINITY else max(1, min(wanted, soft - 64))


def waitress_settings(app: Flask) -> dict:
    """What ``referee serve`` tells waitress."""
    return {"threads": THREADS, "connection_limit": open_files(CONNECTIONS), **waitress_options(app)}
