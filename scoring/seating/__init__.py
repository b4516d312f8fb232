"""The seating planner: who sits with whom in each tournament round.

``plan_seating(players, *, rounds, history, table_sizes, prefer, apart, fixed, seed, time_limit,
max_iterations) -> SeatingPlan`` plans the next round or all remaining rounds at once;
``plan_quality(schedule)`` measures any schedule; ``validate_plan(plan, *, players, ...)`` raises
``SeatingError`` on an invalid one. Plain Python, no Django.
"""

from scoring.seating.planner import (
    SeatingError,
    SeatingPlan,
    SeatingProblem,
    plan_seating,
    validate_plan,
)
from scoring.seating.quality import PlanQuality, plan_quality

__all__ = [
    "PlanQuality",
    "SeatingError",
    "SeatingPlan",
    "SeatingProblem",
    "plan_quality",
    "plan_seating",
    "validate_plan",
]
