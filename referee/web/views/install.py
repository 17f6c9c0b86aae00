"""The app installed on a tablet's home screen: its web app manifest, so that "Add to Home Screen" opens it full screen
without the browser's bars, with its name, its colours and its icons (``referee/web/static/icons/``).  The page's head
links to it, and names the icon and colour Safari reads on an iPad (``templates/base.html``)."""
from __future__ import annotations

import json

from flask import Blueprint, Response, url_for

bp = Blueprint("install", __name__)

NAME = "referee"
ACCENT = "#0b5d3b"  # the stylesheet's --accent (referee/web/static/referee.css): the bar the system draws above the app
PAPER = "#f7f5ef"  # its --paper: the screen shown while the app opens
ICONS = (  # (file in static/icons/, size in pixels, purpose)
    ("icons/icon-192.png", 192, "any"),
    ("icons/icon-512.png", 512, "any"),
    ("icons/icon-maskable-512.png", 512, "maskable"),  # the mark inside the safe circle, the colour to the edges
)
MEDIA_TYPE = "application/manifest+json"


def manifest() -> dict:
    return {
        "id": "/", "name": NAME, "short_name": NAME, "start_url": "/", "scope": "/", "display": "standalone",
        "theme_color": ACCENT, "background_color": PAPER,
        "icons": [{"src": url_for("static", filename=path), "sizes": f"{size}x{size}", "type": "image/png",
                   "purpose": purpose} for path, size, purpose in ICONS],
    }


@bp.get("/manifest.webmanifest")
def web_manifest():
    return Response(json.dumps(manifest(), indent=1), mimetype=MEDIA_TYPE,
                    headers={"Cache-Control": "public, max-age=3600"})
