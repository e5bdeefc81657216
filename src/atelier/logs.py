"""The server's log lines: plain text for a terminal, or one JSON object a line
(``atelier serve --log-format json``) for a log collector.

Each JSON line has ``time`` (UTC, ISO 8601), ``level``, ``process`` (the pid,
and ``worker`` with ``--workers``), ``logger``, ``room`` and ``conn`` when the
line comes from a room socket's task (set in :func:`tag_connection`), ``event``
(the call site's constant message template, so lines group without parsing
text), ``message`` and, for a failure, ``exc``.

No token, host key, push endpoint or secret word may reach a log line. The code
never logs them (room codes, seats and error codes only); as a second line of
defence every line passes :class:`Redact`, which blanks anything shaped like a
credential this server hands out (``secrets.token_urlsafe``: 32 or more URL-safe
characters) and the values of fields named like secrets.
"""

from __future__ import annotations

import contextvars
import copy
import itertools
import json
import logging
import os
import re
import time
from typing import Any

ROOM: contextvars.ContextVar[str | None] = contextvars.ContextVar("atelier_room", default=None)
CONN: contextvars.ContextVar[str | None] = contextvars.ContextVar("atelier_conn", default=None)
_CONN_IDS = itertools.count(1)

WORKER: str | None = None
"""``k/N`` in a worker process of ``--workers N`` (set by ``atelier serve``)."""

CREDENTIAL = re.compile(r"[A-Za-z0-9_-]{32,}")
SECRET_FIELD = re.compile(
    r"""(["']?(?:token|host_key|endpoint|p256dh|auth|secret|word|words|password)["']?"""
    r"""\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s,}&]+)""", re.IGNORECASE)
REDACTED = "[redacted]"


def redact(text: str) -> str:
    """``text`` with credentials and the values of secret fields blanked."""
    text = SECRET_FIELD.sub(lambda m: m.group(1) + REDACTED, text)
    return CREDENTIAL.sub(REDACTED, text)


def tag_connection(room: str) -> str:
    """Tag every log line of the current task (a room socket) with its room and a
    connection id (a number in this process: it names nothing secret)."""
    conn = f"{os.getpid()}-{next(_CONN_IDS)}"
    # the code as the client sent it in the path: at most a code's length, so a
    # credential pasted there could never fit
    ROOM.set(room[:16])
    CONN.set(conn)
    return conn


class Redact(logging.Filter):
    """Blanks credentials in the message and its arguments, whatever the format."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if redact(message) == message:
            return True
        if not hasattr(record, "event"):
            record.event = redact(str(record.msg))  # the template, for JsonFormatter
        # Each argument on its own first: formatters such as uvicorn's access
        # formatter read the arguments, not the message.
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v
                           for k, v in record.args.items()}
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        message = record.getMessage()
        clean = redact(message)
        if clean != message and record.name != "uvicorn.access":
            # a secret made of the template and an argument together ("token=%s")
            record.msg, record.args = clean, None
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "process": record.process,
            "logger": record.name,
        }
        if WORKER is not None:
            line["worker"] = WORKER
        room, conn = getattr(record, "room", None) or ROOM.get(), CONN.get()
        if room is not None:
            line["room"] = room
        if conn is not None:
            line["conn"] = conn
        # the call site's template: constant per kind of line (the pieces are in message)
        line["event"] = redact(str(getattr(record, "event", None) or record.msg))
        line["message"] = record.getMessage()
        if record.exc_info:
            line["exc"] = redact(self.formatException(record.exc_info))
        return json.dumps(line, ensure_ascii=False)


TEXT_FORMAT = "%(levelname)s:  %(name)s: %(message)s"


def handler(log_format: str) -> logging.Handler:
    """A stderr handler in the format asked for, with the redacting filter."""
    out = logging.StreamHandler()
    out.setFormatter(JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    out.addFilter(Redact())
    return out


def uvicorn_config(log_format: str, level: str) -> dict[str, Any]:
    """uvicorn's own loggers (errors, and access lines at ``info``) through the same
    filter as ours: in JSON like ours, or as text in uvicorn's usual look."""
    if log_format != "json":
        from uvicorn.config import LOGGING_CONFIG

        text = copy.deepcopy(LOGGING_CONFIG)
        text["filters"] = {"redact": {"()": "atelier.logs.Redact"}}
        for out in text["handlers"].values():
            out["filters"] = ["redact"]
        return text
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"redact": {"()": "atelier.logs.Redact"}},
        "formatters": {"main": {"()": "atelier.logs.JsonFormatter"}},
        "handlers": {"main": {"class": "logging.StreamHandler", "formatter": "main",
                              "filters": ["redact"], "stream": "ext://sys.stderr"}},
        "loggers": {
            name: {"handlers": ["main"], "level": level.upper(), "propagate": False}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access")
        },
    }
