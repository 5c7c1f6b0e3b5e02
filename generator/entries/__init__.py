"""Entries: the schema, safe loading, checking and scaffolding of entries/*.yaml."""
