"""The store: the append-only, hash-chained entries and the tournaments' rows (SQLAlchemy models), the
database handle, the record's chain, the migrations and the backups."""
