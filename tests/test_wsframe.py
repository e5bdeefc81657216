"""The pure rules of the room socket's framing (atelier.server.wire.wsframe)."""

from __future__ import annotations

import pytest

from atelier.server.wire.wsframe import (
    MAX_CONTROL,
    Message,
    ProtocolError,
    close_payload,
    header_error,
)


def test_a_close_reason_is_cut_at_a_character_boundary() -> None:
    payload = close_payload(1008, "ї" * 100)  # two bytes each: 200 bytes
    assert len(payload) <= MAX_CONTROL
    assert payload[2:].decode() == "ї" * 61  # whole characters only


@pytest.mark.parametrize("code", [1005, 1006, 1015, 0, 2000])
def test_a_code_never_sent_on_the_wire_becomes_1000(code: int) -> None:
    assert close_payload(code, "x")[:2] == (1000).to_bytes(2, "big")


def test_fragments_are_counted_and_their_size_kept_as_a_running_total() -> None:
    message = Message(2, max_fragments=3)
    assert message.add(b"ab", final=False) is None
    assert message.add(b"", final=False) is None
    assert message.size == 2 and message.fragments == 2
    assert header_error(0x00, 0x80, 10, message, max_message=12) is None
    too_big = header_error(0x00, 0x80, 11, message, max_message=12)
    assert too_big is not None and too_big.code == 1009
    assert message.add(b"c", final=False) is None
    too_many = header_error(0x80, 0x80, 0, message, max_message=12)
    assert too_many is not None and too_many.code == 1009


def test_text_split_inside_a_character_is_joined_and_bad_text_fails_at_once() -> None:
    message = Message(1, max_fragments=8)
    assert message.add("ї".encode()[:1], final=False) is None
    assert message.add("ї".encode()[1:] + b"!", final=True) == "ї!"
    bad = Message(1, max_fragments=8)
    with pytest.raises(ProtocolError) as err:
        bad.add(b"\xf4\x90", final=False)  # can never become a character
    assert err.value.code == 1007
