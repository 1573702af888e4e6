"""The five-pins rules, by section of the rulebook. Pure Python: no Django, no I/O.

- `table`: section 1, the table, balls, spots and pins, and what covers what;
- `players`: the two players and their turns;
- `ruleset`: the Regulations, every number the rules use;
- `lag`: section 3, who chooses the breaker;
- `shot`: sections 4 to 7 and 12 to 14, the ruling of one shot;
- `placement`: sections 9 to 11, the break position, a ball off the table, ball in hand,
  and where the referee may put a ball;
- `flow`: sections 2, 8 and 11 between the shots: the next breaker, who receives a
  ruling's points, the score cap, games and the match won, a foul outside a stroke,
  forfeits, retractions, review, a big shot, an average;
- `ranking`: the standings of a competition (not imported here: `matches.domain.rules.ranking`).

Where the rulebook is ambiguous, the decisions are those of the README ("The rules").
"""

from matches.domain.rules.flow import (
    INTERMISSION_MINUTES,
    OutsideFoul,
    average,
    big_shot_points,
    capped,
    check_retraction,
    forfeit_winner,
    game_won,
    is_big_shot,
    latest_in_force,
    match_won,
    needs_review,
    next_breaker,
    outside_foul,
    receiver,
)
from matches.domain.rules.lag import LAG_FAULTS, LagDecision, LagResult, decide_lag
from matches.domain.rules.placement import (
    PLACEMENT_REASONS,
    RESPOT_SPOTS,
    Positions,
    break_position,
    check_placement,
    in_hand_zone,
    offender_spot,
    placement_zone,
    respot_spot,
)
from matches.domain.rules.players import PLAYERS, other
from matches.domain.rules.ruleset import DEFAULT_RULESET, MAX_GAMES, Ruleset, pin_positions
from matches.domain.rules.shot import (
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
from matches.domain.rules.table import (
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
    "INTERMISSION_MINUTES",
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
    "OutsideFoul",
    "Positions",
    "Ruleset",
    "Ruling",
    "Shot",
    "average",
    "big_shot_points",
    "break_position",
    "capped",
    "carom_value",
    "check_placement",
    "check_retraction",
    "covers",
    "decide_lag",
    "fallen_pins",
    "forfeit_winner",
    "foul_base",
    "game_won",
    "half_of",
    "in_half",
    "in_hand_zone",
    "is_big_shot",
    "judge",
    "latest_in_force",
    "match_won",
    "needs_review",
    "next_breaker",
    "offender_spot",
    "on_spot",
    "opponent_ball",
    "other",
    "outside_foul",
    "overlaps",
    "pin_positions",
    "pin_value",
    "placement_zone",
    "receiver",
    "respot_spot",
]
