"""The append-only log of rooms: events and ink batches (SQLite or PostgreSQL)."""

from atelier.store.log import Conflict, EventRow, InkRow, Store, open_store

__all__ = ["Conflict", "EventRow", "InkRow", "Store", "open_store"]
