"""The append-only log of rooms: events and ink batches (SQLite or PostgreSQL)."""

from atelier.store.log import CLOSED, Conflict, EventRow, InkRow, RoomRow, Store, open_store

__all__ = ["CLOSED", "Conflict", "EventRow", "InkRow", "RoomRow", "Store", "open_store"]
