"""The pure core: the rules, the notation, a match's and a competition's fold, the draws,
the ratings and the simulator, in plain Python.

Nothing here imports Django, Channels or Celery (an import contract in `pyproject.toml`,
checked by `make check`, and tests/test_purity.py): it is where a newcomer reads the
sport's rules as the engine applies them. The Django side beside it, in `matches/`,
stores and serves what this folder decides.
"""
