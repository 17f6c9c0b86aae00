"""referee: the tablet app a Monopoly tournament referee records a game with."""
