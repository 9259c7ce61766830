"""Benchmarks behind `hindsight bench`: they print tables; nothing here is a test."""
