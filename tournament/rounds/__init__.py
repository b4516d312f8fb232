"""Rounds: seating a round (the engine's options, adjusting), publishing it, its state."""
