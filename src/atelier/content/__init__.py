"""Data: decks, locations and interface strings, per language."""
