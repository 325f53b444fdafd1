"""Background delivery of notifications runs as outbox effects: see ``effects.py``."""
