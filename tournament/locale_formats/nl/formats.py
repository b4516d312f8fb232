"""Dutch dates as Dutch writes them: month names in lower case ("1 dec 2025"), never "1 Dec"
(Django's ``M`` capitalises; ``b`` does not)."""

SHORT_DATE_FORMAT = "j b Y"
SHORT_DATETIME_FORMAT = "j b H:i"
