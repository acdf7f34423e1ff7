"""Meeple Land solvers: CP-SAT layout puzzles, the brute-force oracle and market hints."""
