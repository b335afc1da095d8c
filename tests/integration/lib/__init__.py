"""Test harness for archfit's registry integration tests (stdlib only)."""
