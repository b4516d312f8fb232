# Work in progress (being written now): placeholder views so that the URL names resolve.
from django.http import Http404


def _todo(*args, **kwargs):
    raise Http404


player_list = player_paste = player_import = player_detail = player_edit = player_withdraw = _todo
