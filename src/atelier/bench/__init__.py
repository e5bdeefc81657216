"""Benchmarks that print figures: ``atelier bench ink``."""
