"""The offline hypothesis source: a catalog of quantum-semantic contracts, each a law over a
family of library code, checked in the sandbox on generated inputs (sandbox/contracts/)."""
