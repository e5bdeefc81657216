"""Atelier: drawing party games and Piet, played in the browser, refereed by the server."""

__version__ = "0.1.0"
