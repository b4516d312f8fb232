"""Players' names as people look for them: accents, case and spacing do not count."""

import unicodedata


def folded(text: str) -> str:
    """Text for searching and sorting: "zoe" finds "Zoë", "ELLA" finds "Ella"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


def name_sort_key(name: str) -> tuple[str, str]:
    """Alphabetical order as people expect it on a list: "Émile" among the E's."""
    return folded(name), name
