"""The migrations, one module each, oldest first (``v0001_schema`` is the first schema)."""
