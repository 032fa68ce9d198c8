"""QuSema: finds silent bugs in quantum libraries by reading their source and proving each
finding by execution."""
