"""The portable tournament file: export, import, restore with the site's records, backups."""
