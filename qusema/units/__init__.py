"""Stage I: contextual units of a library's source (segments, documentation, call
relations, PyO3 links, public API map), stored in a SQLite index."""
