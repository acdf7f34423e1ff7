"""Meeple Party solvers: the exact turn hint, its brute-force oracle, scenario solving and the
simulation policies."""
