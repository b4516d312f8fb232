"""Running the site at a venue: the address phones open, the network, the server's checks,
middleware and error pages."""
