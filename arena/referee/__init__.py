"""The referee: plays one match among players, with clocks, legality checks and the fault policy."""

from arena.referee.clock import TimeControl
from arena.referee.faults import Fault, FaultKind, FaultPolicy, Response, Termination
from arena.referee.match import MatchResult, Referee

__all__ = ["Fault", "FaultKind", "FaultPolicy", "MatchResult", "Referee", "Response", "Termination", "TimeControl"]
