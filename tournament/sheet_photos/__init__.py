"""Photos of paper score sheets on the site: uploading them (the round page, a table's link),
reading each into its table's sheet as input waiting to be checked, showing the photo beside
the grid, and keeping it with the version it ended up in (``tournament.photos`` reads them)."""
