"""QR codes (segno) for an address a phone or tablet camera opens: a table's slip (its PIN screen) and the room's
display (the live standings).  Drawn as an SVG image in a data: address, which the pages' security policy allows
(images from this app or data:) and WeasyPrint draws as vectors on the printed slips."""
from __future__ import annotations

import segno
from markupsafe import Markup, escape

ERROR_LEVEL = "m"  # 15% of the code may be damaged (a folded or stained slip) and it still reads


def qr_code(url: str) -> segno.QRCode:
    """The QR code of ``url``: the smallest that holds it at ERROR_LEVEL (a higher level where it fits)."""
    return segno.make(url, error=ERROR_LEVEL, micro=False)


def qr_img(url: str, css_class: str = "qr") -> Markup:
    """An ``<img>`` of the QR code of ``url`` (its alt text the address itself), sized by the page's CSS."""
    uri = qr_code(url).svg_data_uri(scale=4, border=4, light="#fff", omitsize=False)  # a white quiet zone
    return Markup('<img class="{}" src="{}" alt="{}">').format(css_class, uri, escape(url))
