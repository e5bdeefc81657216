"""Pure game rules: no sockets, clocks, databases or threads."""
