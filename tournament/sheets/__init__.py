"""Score sheets: the sheet page (director's and table's), saving, table links, confirmations."""
