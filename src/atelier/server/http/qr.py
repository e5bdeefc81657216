"""The room's join link as a QR code (SVG), for the TV table view's lobby."""

from __future__ import annotations

import io
from functools import lru_cache


@lru_cache(maxsize=64)
def qr_svg(url: str) -> bytes:
    """A scalable QR code of ``url``: black modules on white, a quiet zone of 2."""
    import qrcode
    from qrcode.image.svg import SvgPathImage

    qr = qrcode.QRCode(border=2, image_factory=SvgPathImage)
    qr.add_data(url)
    qr.make(fit=True)
    out = io.BytesIO()
    qr.make_image().save(out)
    return out.getvalue()
