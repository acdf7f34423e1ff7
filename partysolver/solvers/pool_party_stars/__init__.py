"""Pool Party Stars solvers: exact secret-rule deduction, hints, exposure, conflicts and
deduction puzzles.

* :mod:`.deduction` -- exact posteriors by counting consistent assignments, and every certain
  deduction explained as a short chain of eliminations citing events;
* :mod:`.conflicts` -- the smallest set of events that cannot all be true (CP-SAT assumptions,
  deletion, implicit hitting sets);
* :mod:`.hints` -- options ranked by expected VIPs and information; what others can deduce;
* :mod:`.puzzles` -- solving and generating deduction puzzles with the fewest clues;
* :mod:`.policies` -- bots for simulation; :mod:`.baseline` -- the plain enumeration (oracle).
"""

from __future__ import annotations

from .conflicts import Conflict, find_conflict
from .deduction import Eliminator, Explanation, Posterior, Step, explain_all, posterior
from .hints import Exposure, Hint, Option, exposure, exposure_summary, hint
from .policies import HintPolicy, MixedPolicy

__all__ = ["Conflict", "Eliminator", "Explanation", "Exposure", "Hint", "HintPolicy",
           "MixedPolicy", "Option", "Posterior", "Step", "explain_all", "exposure",
           "exposure_summary", "find_conflict", "hint", "posterior"]
