"""Tests of the matches app: the rules, the notation and the command-line tools."""
