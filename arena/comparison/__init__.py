"""Comparing two strategies: ``arena match A B`` plays them on duplicate deal sets until a
sequential probability ratio test decides (:mod:`arena.comparison.sprt` the statistics,
:mod:`arena.comparison.series` the series, :mod:`arena.comparison.command` the command)."""
