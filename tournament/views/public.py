# Work in progress (being written now): placeholder views so that the URL names resolve.
from django.http import Http404


def _todo(*args, **kwargs):
    raise Http404


public_home = public_standings = public_screen = _todo
