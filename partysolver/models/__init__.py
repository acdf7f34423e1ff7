"""Rules engines, one subpackage per game, behind one protocol (:mod:`.protocol`)."""
