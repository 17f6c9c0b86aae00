"""Tournaments: scoring schemes (data) and standings, from the engine's final rankings."""
