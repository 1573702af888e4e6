"""The five-pins rules, by section of the rulebook. Pure Python: no Django, no I/O.

- `table`: section 1, the table, balls, spots and pins, and what covers what;
- `players`: the two players and their turns;
- `ruleset`: the Regulations, every number the rules use;
- `lag`: section 3, who chooses the breaker;
- `shot`: sections 4 to 7 and 12 to 14, the ruling of one shot;
- `placement`: sections 9 to 11, the break position, a ball off the table, ball in hand.

Where the rulebook is ambiguous, the decisions are those of the README ("The rules").
"""

from matches.rules.lag import LAG_FAULTS, LagDecision, LagResult, decide_lag
from matches.rules.placement import (
    PLACEMENT_REASONS,
    RESPOT_SPOTS,
    Positions,
    break_position,
    in_hand_zone,
    offender_spot,
    placement_zone,
    respot_spot,
)
from matches.rules.players import PLAYERS, other
from matches.rules.ruleset import DEFAULT_RULESET, MAX_GAMES, Ruleset, pin_positions
from matches.rules.shot import (
    CALLED_FOULS,
    FOULS,
    STROKE_FOULS,
    Contact,
    Ruling,
    Shot,
    carom_value,
    fallen_pins,
    foul_base,
    judge,
    pin_value,
)
from matches.rules.table import (
    BALL_DIAMETER,
    BALL_RADIUS,
    BALLS,
    CENTRE_LINE,
    CUE_BALLS,
    PINS,
    SPOTS,
    SURFACE_X,
    SURFACE_Y,
    TABLE_LENGTH,
    TABLE_WIDTH,
    WHITE_PINS,
    covers,
    half_of,
    in_half,
    on_spot,
    opponent_ball,
    overlaps,
)

__all__ = [
    "BALLS",
    "BALL_DIAMETER",
    "BALL_RADIUS",
    "CALLED_FOULS",
    "CENTRE_LINE",
    "CUE_BALLS",
    "DEFAULT_RULESET",
    "FOULS",
    "LAG_FAULTS",
    "MAX_GAMES",
    "PINS",
    "PLACEMENT_REASONS",
    "PLAYERS",
    "RESPOT_SPOTS",
    "SPOTS",
    "STROKE_FOULS",
    "SURFACE_X",
    "SURFACE_Y",
    "TABLE_LENGTH",
    "TABLE_WIDTH",
    "WHITE_PINS",
    "Contact",
    "LagDecision",
    "LagResult",
    "Positions",
    "Ruleset",
    "Ruling",
    "Shot",
    "break_position",
    "carom_value",
    "covers",
    "decide_lag",
    "fallen_pins",
    "foul_base",
    "half_of",
    "in_half",
    "in_hand_zone",
    "judge",
    "offender_spot",
    "on_spot",
    "opponent_ball",
    "other",
    "overlaps",
    "pin_positions",
    "pin_value",
    "placement_zone",
    "respot_spot",
]
