"""The test suite is a package so that tests and .ci scripts import `tests.support.*` by name."""
