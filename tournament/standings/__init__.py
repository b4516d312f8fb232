"""Standings: the director's page, the downloads, the public standings and the projector."""
