"""Every refusal that has a code: its English text, with a `%(name)s` for each parameter.

A refusal carries its code and parameters beside the English text, so that the API and
the pages can say it in the request's language (`replay.presentation.refusals`) and a
client can tell refusals apart without reading sentences. A code, once given, keeps its
meaning: a client may act on it. Pure Python: no Django.
"""

from __future__ import annotations


def gettext_noop(text: str) -> str:
    """Return `text` as it is: marks an English text for the translators' catalogue."""
    return text


TEXTS: dict[str, str] = {
    # Recording an event: the console's and any client's first refusals.
    "stale_seq": gettext_noop("the match is at seq %(current)s"),
    "no_match": gettext_noop("no match %(id)s"),
    "no_competition": gettext_noop("no competition %(id)s"),
    "not_match_id": gettext_noop("must be a match id"),
    "not_competition_id": gettext_noop("must be a competition id"),
    "not_due": gettext_noop("it is %(player)s's shot"),
    "match_over": gettext_noop("the match is over"),
    "no_game": gettext_noop("no game has started"),
    "game_over": gettext_noop("game %(game)s is over"),
    "lag_after_game": gettext_noop("the lag comes before the first game"),
    "too_many_games": gettext_noop("a match has at most %(best_of)s games (best of %(best_of)s)"),
    "expected_game": gettext_noop("expected game %(game)s"),
    "game_in_play": gettext_noop("game %(game)s is still being played"),
    "lag_repeat": gettext_noop("the last lag must be repeated before game 1"),
    "lag_repeated": gettext_noop("the faults and distances given make this lag one to repeat"),
    "lag_won_by": gettext_noop("the faults and distances given make %(player)s the winner"),
    "wrong_breaker": gettext_noop("game %(game)s is broken by %(player)s"),
    "rest_overlaps": gettext_noop("overlaps the %(ball)s ball"),
    "not_a_shot": gettext_noop("seq %(shot)s is not a shot"),
    "shot_retracted": gettext_noop("the shot at seq %(shot)s was retracted"),
    "nothing_to_retract": gettext_noop("no shot is in force to retract"),
    "retract_latest_only": gettext_noop("only the latest shot (seq %(shot)s) can be retracted"),
    "game_since_shot": gettext_noop("a game has started since that shot"),
    "set_by_server": gettext_noop("is set by the server"),
    "idempotency_reused": gettext_noop("this idempotency key was used for another command"),
    # The shape of what was sent: a field's value.
    "required": gettext_noop("is required"),
    "not_object": gettext_noop("must be an object"),
    "not_list": gettext_noop("must be a list"),
    "not_boolean": gettext_noop("must be true or false"),
    "not_number": gettext_noop("must be a number"),
    "number_out_of_range": gettext_noop("must be a number from %(low)s to %(high)s"),
    "whole_out_of_range": gettext_noop("must be a whole number from %(low)s to %(high)s"),
    "not_text": gettext_noop("must be a non-empty string"),
    "too_long": gettext_noop("must be at most %(longest)s characters"),
    "unknown_field": gettext_noop("unknown field %(name)s"),
    "unknown_choice": gettext_noop("unknown %(what)s %(value)s; expected one of %(choices)s"),
    # The facts of a shot, as the console sends them.
    "ball_touches_itself": gettext_noop("a ball cannot touch itself"),
    "ball_still": gettext_noop("the %(ball)s ball is not moving yet"),
    "balls_still": gettext_noop("neither the %(ball)s nor the %(hit)s ball is moving yet"),
    "acts_after_leaving": gettext_noop("the %(ball)s ball acts after it left the table"),
    "pin_falls_twice": gettext_noop("pin falls twice"),
    "foul_called_twice": gettext_noop("foul called twice"),
    "off_table_has_no_rest": gettext_noop("the %(ball)s ball left the table and has no rest"),
    "off_surface": gettext_noop("lies off the playing surface"),
    # A director's forms: competitions, matches, tables, entries, seeds and draws.
    "competition_exists": gettext_noop("competition %(id)s exists already"),
    "match_exists": gettext_noop("match %(id)s exists already"),
    "not_slug": gettext_noop("must be a slug (letters, digits, - _ .)"),
    "not_string": gettext_noop("must be a string"),
    "not_date": gettext_noop("must be a date, YYYY-MM-DD"),
    "no_login": gettext_noop("no login %(username)s"),
    "table_exists": gettext_noop("table %(table)s exists already"),
    "too_many_tables": gettext_noop("a competition has at most %(most)s tables"),
    "too_many_tables_named": gettext_noop("must have at most %(most)s tables"),
    "table_named_twice": gettext_noop("table %(table)s is named twice"),
    "table_stays": gettext_noop("table %(table)s has had matches: it stays"),
    "no_table": gettext_noop("no table %(table)s in %(competition)s"),
    "match_elsewhere": gettext_noop("match %(match)s is not of this competition"),
    "match_void": gettext_noop("match %(match)s is void"),
    "match_started": gettext_noop("match %(match)s has started: move it instead"),
    "table_taken": gettext_noop("table %(table)s has match %(match)s called already"),
    "too_many_players": gettext_noop("a competition takes at most %(most)s players"),
    "seed_without_stages": gettext_noop("only a competition with stages seeds its players"),
    "seed_required": gettext_noop("is required in a competition with stages"),
    "entries_closed": gettext_noop("entries closed at the first draw"),
    "seed_order_incomplete": gettext_noop("must name every player entered, each once"),
    "draw_stages_instead": gettext_noop(
        "the competition is played in stages: draw each stage instead"
    ),
    "round_robin_too_few": gettext_noop("a round robin needs at least two players entered"),
    "seed_out_of_range": gettext_noop("must be a whole number from 1 (the strongest) to 10000"),
    "seed_taken": gettext_noop("seed %(seed)s is %(player)s's"),
    "not_entered": gettext_noop("player %(player)s is not entered"),
    "withdrawn_already": gettext_noop("the player is withdrawn already"),
    "stage_drawn": gettext_noop("stage %(stage)s is drawn already"),
    "stage_not_drawn": gettext_noop("stage %(stage)s is not drawn"),
    "draw_too_few": gettext_noop("a draw needs at least two players entered"),
    # A competition's stages, as the form that creates it sends them.
    "stage_count": gettext_noop("must list 1 to %(most)s stages"),
    "unknown_stage_kind": gettext_noop("unknown stage kind %(value)s; expected one of %(choices)s"),
    "unknown_stage_key": gettext_noop("unknown key %(name)s of a %(kind)s stage"),
    "not_stage_id": gettext_noop(
        "must be 1 to 20 lowercase letters, digits or _, starting with a letter or digit"
    ),
    "stage_id_taken": gettext_noop("another stage is %(stage)s"),
    "direct_without_from": gettext_noop("only a stage with `from` takes entries directly"),
    "third_place_too_small": gettext_noop(
        "a third-place match needs at least 4 players; a knockout of %(size)s places has at most 2"
    ),
    "no_earlier_stage": gettext_noop("names no earlier stage: %(value)s"),
    "no_qualifiers": gettext_noop("stage %(stage)s has no qualifiers: it needs `advance`"),
    # Placing a ball in hand.
    "no_ball_in_hand": gettext_noop("%(player)s has no ball in hand"),
    "wrong_half": gettext_noop("must be placed in the %(zone)s half"),
}
