"""The seating planner: who sits with whom in each tournament round.

``plan_seating(players, *, rounds, history, table_sizes, prefer, apart, fixed, seed, time_limit,
max_iterations, start, apart_first_round, balance) -> SeatingPlan`` plans the next round or all
remaining rounds at once, ``balance`` (``Balance.EVEN`` or ``REPEATS``) saying which goal comes
first; ``plan_quality(schedule)`` measures any schedule; ``validate_plan(plan, *, players, ...)``
raises ``SeatingError`` on an invalid one. Plain Python, no Django.

Modules: ``planner`` (the entry point), ``search`` (tabu search over all planned rounds),
``state`` (the plan under search, its moves and cost), ``designs`` (repeat-free schedules from
finite fields), ``quality`` (measures and the lower bound), ``checks`` (request and plan checks,
``SeatingError``).
"""

from scoring.seating.planner import Balance, SeatingPlan, plan_seating
from scoring.seating.quality import PlanQuality, plan_quality
from scoring.seating.validation import SeatingError, SeatingProblem, validate_plan

__all__ = [
    "Balance",
    "PlanQuality",
    "SeatingError",
    "SeatingPlan",
    "SeatingProblem",
    "plan_quality",
    "plan_seating",
    "validate_plan",
]
