"""Helpers the tests import by name: the fake GitHub API, the runner scenario, builders."""
