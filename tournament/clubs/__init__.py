"""The club as the unit: clubs, the people who run them and their roles, the club's own
settings and pages, and which club a request works in."""
