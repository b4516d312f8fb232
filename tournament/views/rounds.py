# Work in progress (being written now): placeholder views so that the URL names resolve.
from django.http import Http404


def _todo(*args, **kwargs):
    raise Http404


round_list = round_seat = round_detail = round_swap = round_unseat = _todo
