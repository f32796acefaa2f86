"""Flask blueprints: the lobby, the tables, the live channel."""
