"""The committed manifest: build schema 2, serialize, validate, read schema 1."""
