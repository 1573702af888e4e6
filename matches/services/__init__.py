"""The only write path: competitions, matches, logins, and every event of a match.

Views, consumers, commands and tasks call these functions; none of them writes
a model directly. Each event is checked against the match as it stands (the
fold) and appended in one transaction (`log.events_append`).
"""

from matches.services.championships import (
    player_withdraw,
    settle,
    stage_draw,
    stage_draw_undo,
)
from matches.services.commands import (
    ball_place,
    balls_respot,
    foul_record,
    game_forfeit,
    game_start,
    intermission_record,
    lag_record,
    match_forfeit,
    result_confirm,
    ruling_amend,
    shot_record,
    shot_retract,
)
from matches.services.competitions import (
    competition_create,
    match_create,
    match_open,
    match_store,
    referee_assign,
)
from matches.services.decisions import dispute_decide
from matches.services.entries import player_enter, players_seed, round_robin_create
from matches.services.log import (
    Log,
    Previewed,
    Recorded,
    event_preview,
    event_record,
    events_append,
    log_of,
)
from matches.services.tables import (
    match_assign_table,
    match_call,
    table_add,
    tables_set,
)
from matches.services.users import login_ensure

__all__ = [
    "Log",
    "Previewed",
    "Recorded",
    "ball_place",
    "balls_respot",
    "competition_create",
    "dispute_decide",
    "event_preview",
    "event_record",
    "events_append",
    "foul_record",
    "game_forfeit",
    "game_start",
    "intermission_record",
    "lag_record",
    "log_of",
    "match_assign_table",
    "match_call",
    "login_ensure",
    "match_create",
    "match_forfeit",
    "match_open",
    "match_store",
    "player_enter",
    "player_withdraw",
    "players_seed",
    "referee_assign",
    "round_robin_create",
    "settle",
    "stage_draw",
    "stage_draw_undo",
    "table_add",
    "tables_set",
    "result_confirm",
    "ruling_amend",
    "shot_record",
    "shot_retract",
]
