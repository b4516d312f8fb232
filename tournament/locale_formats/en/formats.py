"""English dates in the same short shape as the Dutch ones: "1 Dec 2025", "1 Dec 14:05"."""

SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M H:i"
