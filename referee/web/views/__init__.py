"""Blueprints: games (list, new, import, export) and table (the referee's screen, display, log)."""
