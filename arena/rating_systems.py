"""The bundled rating systems, registered as a plugin's are (the ``ratings`` entry point):
TrueSkill (arena.rating) and Bradley–Terry / Plackett–Luce (arena.bradley_terry)."""

from __future__ import annotations

from arena import bradley_terry, rating
from arena.kinds import RatingSystem, hookimpl

TRUESKILL = RatingSystem("trueskill", "TrueSkill mu with mu ± 1.96 sigma, updated match by match in schedule order",
                         rating.fit, unit="mu")
BRADLEY_TERRY = RatingSystem("bradley-terry", "Bradley–Terry (Plackett–Luce) maximum likelihood, mean 0",
                             bradley_terry.estimates, unit="Elo")


@hookimpl
def arena_register_rating_systems() -> list[RatingSystem]:
    return [TRUESKILL, BRADLEY_TERRY]
