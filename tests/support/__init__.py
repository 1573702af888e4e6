"""What the tests share, and the only place they share it from: no test module imports another.

- The suite's fixtures: `fixtures` (one name, one meaning; `tests/conftest.py` registers
  it and `browser`'s).
- The builders and what they play: `builders` (the cup, a match of A and B, legal shots), `league`,
  `championships` (the euro in stages), `corrections`, `later_groups`, `stages_to_show`,
  `championship_shapes`, `decided_early`, `wedged`, `random_play`, `legal_logs`,
  `hostile` (bad input for property tests).
- Logins and counts: `logins`, `hashers`, `counted_settings`, `counting`.
- Records, archives and zips: `records`, `replays`, `archive`, `exports`, `zips`,
  `competition_zip`, `shown`.
- Read models and caches: `projected`, `stages`, `caches` (a cache tells the truth).
- Real processes: `servers`, `celery_workers` (and `held_cursor`, which only a test's
  worker imports), `sockets`, `hanging_layer`, `command_line`, `bench_runs`, `settings_env`,
  `xdist_workers`, `triggers`.
- The browser: `browser`, `pages`, `screens`, `console_taps`, `amend_preview`,
  `demo_pages`.
"""
