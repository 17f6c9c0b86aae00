"""What breaks a printed sheet's layout, as the paper shows it (the counterpart of tests/layout.js for the PDFs): a
line of text drawn over another, or running out of the box drawn around it (a table's cell, or the nearest element
with a border or a background) or off the page.  The sheet's HTML is laid out by WeasyPrint, as the app prints it,
and its boxes read back."""
from __future__ import annotations

from weasyprint import HTML
from weasyprint.formatting_structure import boxes

TOLERANCE = 1.0  # CSS px


def _framed(box) -> bool:
    """A box a reader sees as a frame its text must stay in: a table's cell, or a block with a border or a
    background."""
    if isinstance(box, boxes.TableCellBox):
        return True
    if not isinstance(box, boxes.BlockBox):
        return False
    style = box.style
    border = any(style[f"border_{side}_width"] > 0 and style[f"border_{side}_style"] not in ("none", "hidden")
                 for side in ("top", "right", "bottom", "left"))
    color = style["background_color"]
    return border or (color is not None and color.alpha > 0)


def _texts(box, frame, out: list) -> None:
    if isinstance(box, boxes.TextBox):
        if box.text.strip():
            out.append((box, frame))
        return
    if _framed(box):
        frame = box
    for child in getattr(box, "children", ()):
        _texts(child, frame, out)


def _edges(box) -> tuple[float, float, float, float]:
    return box.position_x, box.position_y, box.position_x + box.width, box.position_y + box.height


def pdf_layout_problems(html: str) -> list[str]:
    """Each text out of its frame or its page, and each pair of texts drawn over each other, page by page, in words
    naming the texts."""
    problems = []
    for number, page in enumerate(HTML(string=html).render().pages, start=1):
        found: list = []
        _texts(page._page_box, None, found)
        for text, frame in found:
            left, top, right, bottom = _edges(text)
            said = repr(text.text[:40])
            if left < -TOLERANCE or right > page.width + TOLERANCE:
                problems.append(f"page {number}: {said} runs off the page")
            elif frame is not None:
                fx, fy = frame.border_box_x(), frame.border_box_y()
                fr, fb = fx + frame.border_width(), fy + frame.border_height()
                if left < fx - TOLERANCE or right > fr + TOLERANCE or top < fy - TOLERANCE or bottom > fb + TOLERANCE:
                    problems.append(f"page {number}: {said} runs out of its box <{frame.element_tag}>")
        found.sort(key=lambda pair: pair[0].position_y)
        for i, (a, _) in enumerate(found):
            al, at, ar, ab = _edges(a)
            for b, _ in found[i + 1:]:
                bl, bt, br, bb = _edges(b)
                if bt >= ab - 2:
                    break
                if min(ar, br) - max(al, bl) > 2 and min(ab, bb) - max(at, bt) > 2:
                    problems.append(f"page {number}: {a.text[:40]!r} and {b.text[:40]!r} overlap")
    return problems
