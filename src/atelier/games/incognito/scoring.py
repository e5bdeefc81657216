"""Scoring one Incognito round: pure, shared by the engine (players are seats) and the
scorer command (players are names).

Per drawing (docs/incognito.md, Scoring): each voter whose number is the tile of the
author's word scores 1; the author scores 2 if at least one other player found the word
and at least one did not. A player who placed no vote on a drawing did not find its word.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from atelier.errors import RuleError, require
from atelier.games.incognito.settings import MAX_PLAYERS, MIN_PLAYERS, TILES

P = TypeVar("P", bound=Hashable)

FIND_POINTS = 1
AUTHOR_POINTS = 2


@dataclass(frozen=True)
class RoundScore(Generic[P]):
    """Everything a round's reveal explains, per player, in the players' order."""

    found: dict[P, list[P]]
    """Authors whose word this player found."""
    found_by: dict[P, list[P]]
    """Voters who found this player's word."""
    finding_points: dict[P, int]
    author_points: dict[P, int]

    @property
    def totals(self) -> dict[P, int]:
        return {p: self.finding_points[p] + self.author_points[p] for p in self.found}


def check_round(players: Sequence[P], words: Mapping[P, int],
                votes: Mapping[P, Mapping[P, int]]) -> None:
    """RuleError naming the first rule the round breaks; nothing if it is legal."""
    require(MIN_PLAYERS <= len(players) <= MAX_PLAYERS, "seat_count",
            min=MIN_PLAYERS, max=MAX_PLAYERS)
    known: set[P] = set()
    for player in players:
        require(player not in known, "incognito.duplicate_player", player=player)
        known.add(player)
    for author, tile in words.items():
        require(author in known, "incognito.unknown_player", player=author)
        require(1 <= tile <= TILES, "incognito.bad_tile", tile=tile, max=TILES)
    authors_on: dict[int, P] = {}
    for player in players:
        require(player in words, "incognito.missing_word", player=player)
        tile = words[player]
        if tile in authors_on:
            raise RuleError("incognito.shared_tile", tile=tile, first=authors_on[tile],
                            second=player)
        authors_on[tile] = player
    for voter, ballot in votes.items():
        require(voter in known, "incognito.unknown_player", player=voter)
        used: set[int] = set()
        for author, tile in ballot.items():
            require(author in known, "incognito.unknown_player", player=author)
            require(author != voter, "incognito.own_vote", player=voter)
            require(1 <= tile <= TILES, "incognito.bad_tile", tile=tile, max=TILES)
            require(tile not in used, "incognito.tile_twice", player=voter, tile=tile)
            used.add(tile)


def score_round(players: Sequence[P], words: Mapping[P, int],
                votes: Mapping[P, Mapping[P, int]]) -> RoundScore[P]:
    """Score a legal round (see :func:`check_round`). ``words[author]`` is the tile of the
    author's word; ``votes[voter][author]`` the vote card the voter left on that drawing."""
    check_round(players, words, votes)
    found: dict[P, list[P]] = {p: [] for p in players}
    found_by: dict[P, list[P]] = {p: [] for p in players}
    for author in players:
        for voter in players:
            if voter != author and votes.get(voter, {}).get(author) == words[author]:
                found[voter].append(author)
                found_by[author].append(voter)
    others = len(players) - 1
    return RoundScore(
        found=found,
        found_by=found_by,
        finding_points={p: FIND_POINTS * len(found[p]) for p in players},
        author_points={p: AUTHOR_POINTS if 0 < len(found_by[p]) < others else 0
                       for p in players},
    )
