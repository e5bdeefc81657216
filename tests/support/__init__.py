"""What the tests share: the test game, a real server process, WebSocket and
browser players, log replays. Each helper is defined once, here; fixtures stay
in ``conftest.py``."""
