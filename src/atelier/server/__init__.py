"""The server: rooms, WebSockets, HTTP. See docs/protocol.md."""
