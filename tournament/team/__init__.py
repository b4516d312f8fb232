"""The team of a tournament: roles, invitations and the link that joins it."""
