"""Piet: a two-player abstract painting game (rules, records, computer players)."""
