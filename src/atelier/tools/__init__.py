"""Command-line tools around the games (scorers, Piet records and arena): they
read and print; the rules they use live in ``atelier.games``."""
