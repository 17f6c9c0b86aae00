"""The services: the one layer that touches both the database and the engine, by area.

- :mod:`.games`: a game's record: create, check a PIN, record an entry (checked by the engine against the state
  its tablet saw), redo, export and import, archive and delete;
- :mod:`.folds`: the engine's fold of each stored record, its hash chain checked, kept in a small cache;
- :mod:`.clocks`: a table's game clock;
- :mod:`.archive`: the record files of finished and deleted games, in the folder the app names;
- :mod:`.tournaments`: a tournament's rows: create, list, delete, each round's tables, calling time;
- :mod:`.roster`: players between rounds (the rules are :mod:`referee.tournament.roster`);
- :mod:`.progress`: results, standings, cuts, and seating the next round (the rules are in
  :mod:`referee.tournament`);
- :mod:`.results`: a table's result and the director's corrections of it;
- :mod:`.standing`: which of the director's corrections of a table's result is in force;
- :mod:`.signoffs`: the players' sign-offs of a finished game's result, chained with its record;
- :mod:`.pins`: PINs and their hashes;
- :mod:`.grants`: unlocks kept on the server, one per device (the cookie holds only a token): given, looked up,
  locked by the device or the director, listed on the director's page;
- :mod:`.backups`: the backups the app takes while it serves (one per interval whatever the number of workers),
  the last ones kept, the last one or its failure for the director's page;
- :mod:`.rulesets`: rulesets, scoring schemes and tournament formats read from their files;
- :mod:`.errors`: what the services refuse, by kind.

Views call these and nothing below them.
"""
