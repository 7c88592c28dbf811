"""The bundled bots. Each registers itself through the ``trick_arena`` entry points."""
