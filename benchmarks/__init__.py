"""Benchmarks: each compares the toolkit with what a user would otherwise use, in the same run."""
