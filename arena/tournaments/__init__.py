"""Tournaments: the tournament file, the schedule with duplicate deals, executors, the runner."""
