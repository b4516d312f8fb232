"""A club's season: the member register, competitions over several evenings, season standings."""
