"""A game that ships only in the tests, to prove that a game is its own two folders:
its rules (``rules/``) and its screens (``web/``), registered with
``atelier serve --extra-game tally.rules`` and nothing else."""
