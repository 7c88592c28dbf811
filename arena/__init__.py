"""Trick Arena: a bot-tournament framework for trick-taking card games."""

__version__ = "0.1.0"
