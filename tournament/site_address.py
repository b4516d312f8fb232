"""The address phones open. A placeholder until the site's own address setting is merged: it
builds absolute links from the request, as the site did before."""

from __future__ import annotations

from django.http import HttpRequest


def absolute_url(path: str, request: HttpRequest | None = None) -> str:
    """``path`` as an absolute URL."""
    if request is None:
        raise ValueError("absolute_url() needs the request until the site address is known")
    return request.build_absolute_uri(path)
