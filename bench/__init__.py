"""The benchmark suite (`make bench`): speeds reported as ratios to a raw baseline of the same run.

A top-level package rather than part of `matches`: it measures the read side
(`replay.projections.states`) as well, and `matches` never imports `replay`.
"""
