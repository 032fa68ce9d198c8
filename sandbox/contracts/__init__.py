"""Contract families, one module per library and family: <library>_<family>.py."""
