"""QuSema quantum oracle."""
