"""What Web Push needs kept (docs/deploy.md, "Turn nudges"): the server's VAPID
key pair, made on first start and kept so subscriptions stay valid; the
subscriptions players made for their seats; and the pushes already claimed, so
that with several processes or machines each push goes out once (whoever
inserts its key first sends it)."""

from __future__ import annotations

import contextlib
import hashlib
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    Index,
    MetaData,
    String,
    Table,
    Text,
    delete,
    func,
    insert,
    select,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine


@dataclass(frozen=True)
class Subscription:
    endpoint: str
    p256dh: str
    auth: str
    room: str
    player: str
    lang: str

    def info(self) -> dict[str, Any]:
        """The shape the Push API's ``PushSubscription.toJSON()`` has."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class PushTables:
    def __init__(self, meta: MetaData, prefix: str) -> None:
        self.keys = Table(
            f"{prefix}push_keys", meta,
            Column("name", String(16), primary_key=True),
            Column("private_pem", Text, nullable=False),
            Column("public", String(128), nullable=False),
            Column("at", Float, nullable=False),
        )
        self.subs = Table(
            f"{prefix}push_subs", meta,
            # sha256 of (room, player, endpoint): one row per seat and browser
            Column("id", String(64), primary_key=True),
            Column("room", String(16), nullable=False),
            Column("player", String(16), nullable=False),
            Column("endpoint", Text, nullable=False),
            Column("p256dh", String(128), nullable=False),
            Column("auth", String(64), nullable=False),
            Column("lang", String(8), nullable=False),
            Column("address", String(64), nullable=False),
            Column("at", Float, nullable=False),
            Index(f"{prefix}push_subs_room", "room"),
            Index(f"{prefix}push_subs_address", "address"),
        )
        self.sent = Table(
            f"{prefix}push_sent", meta,
            Column("key", String(96), primary_key=True),
            Column("room", String(16), nullable=False),
            Column("at", Float, nullable=False),
            Index(f"{prefix}push_sent_room_at", "room", "at"),
        )


def subscription_id(room: str, player: str, endpoint: str) -> str:
    return hashlib.sha256(f"{room}\n{player}\n{endpoint}".encode()).hexdigest()


class PushStore:
    def __init__(self, engine: AsyncEngine, tables: PushTables,
                 write_lock: contextlib.AbstractAsyncContextManager[Any]) -> None:
        self.engine = engine
        self.t = tables
        self._write_lock = write_lock

    async def vapid_key(self, make: Any) -> tuple[str, str]:
        """(private key PEM, public key) kept in the store; ``make()`` makes a
        pair the first time. Processes starting together agree: the first
        insert wins and everyone reads it back."""
        query = select(self.t.keys.c.private_pem, self.t.keys.c.public).where(
            self.t.keys.c.name == "vapid")
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        if row is None:
            private_pem, public = make()
            with contextlib.suppress(IntegrityError):
                async with self._write_lock, self.engine.begin() as conn:
                    await conn.execute(insert(self.t.keys).values(
                        name="vapid", private_pem=private_pem, public=public, at=time.time()))
            async with self.engine.connect() as conn:
                row = (await conn.execute(query)).first()
        assert row is not None
        return str(row.private_pem), str(row.public)

    async def subscribe(self, sub: Subscription, address: str, per_address: int) -> bool:
        """Keep ``sub`` (again: its keys and language are renewed); False if the
        address already holds ``per_address`` others."""
        key = subscription_id(sub.room, sub.player, sub.endpoint)
        subs = self.t.subs
        async with self._write_lock, self.engine.begin() as conn:
            held = (await conn.execute(select(func.count()).select_from(subs).where(
                subs.c.address == address, subs.c.id != key))).scalar_one()
            if held >= per_address:
                return False
            await conn.execute(delete(subs).where(subs.c.id == key))
            await conn.execute(insert(subs).values(
                id=key, room=sub.room, player=sub.player, endpoint=sub.endpoint,
                p256dh=sub.p256dh, auth=sub.auth, lang=sub.lang, address=address,
                at=time.time()))
        return True

    async def unsubscribe(self, room: str, player: str, endpoint: str | None = None) -> None:
        """A seat's subscriptions (one browser's, or all: the seat moved device)."""
        subs = self.t.subs
        where = [subs.c.room == room, subs.c.player == player]
        if endpoint is not None:
            where.append(subs.c.id == subscription_id(room, player, endpoint))
        async with self._write_lock, self.engine.begin() as conn:
            await conn.execute(delete(subs).where(*where))

    async def forget_endpoint(self, endpoint: str) -> int:
        """The push service no longer knows this subscription (404, 410)."""
        subs = self.t.subs
        async with self._write_lock, self.engine.begin() as conn:
            done = await conn.execute(delete(subs).where(subs.c.endpoint == endpoint))
        return int(done.rowcount or 0)

    async def subscriptions(self, room: str, player: str | None = None) -> list[Subscription]:
        subs = self.t.subs
        query = select(subs).where(subs.c.room == room)
        if player is not None:
            query = query.where(subs.c.player == player)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [Subscription(r.endpoint, r.p256dh, r.auth, r.room, r.player, r.lang)
                for r in rows]

    async def claim(self, key: str, room: str, per_minute: int) -> bool:
        """True for the one caller that may send push ``key``; False if it was
        claimed before or the room sent ``per_minute`` pushes in the last minute."""
        sent = self.t.sent
        now = time.time()
        try:
            async with self._write_lock, self.engine.begin() as conn:
                recent = (await conn.execute(select(func.count()).select_from(sent).where(
                    sent.c.room == room, sent.c.at > now - 60))).scalar_one()
                if recent >= per_minute:
                    return False
                await conn.execute(insert(sent).values(key=key[:96], room=room, at=now))
        except IntegrityError:
            return False
        return True
