"""The simulator: random games played over the legal actions, the invariants checked after every entry."""
