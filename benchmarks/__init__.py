"""Benchmarks: each module ``bench_*.py`` defines ``main(argv) -> int``; run them with
``python -m benchmarks [NAME ...] [--quick]`` from the repository root (see docs/development.md)."""
