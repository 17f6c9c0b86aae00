"""referee: the tablet app a Monopoly tournament referee records a game with."""


def create_app(test_config=None):
    """The Flask app (imported here lazily, so the engine and the command line do not load Flask)."""
    from .app import create_app as _create_app

    return _create_app(test_config)
