"""Signing in and changing the password: Django's own views, except that a refused form (a
wrong password, a new password too weak) is answered 422, like every refused form of the site."""

from __future__ import annotations

from django.contrib.auth import views as auth_views

from tournament.errors import FORM_REFUSED_STATUS


class _RefusedFormIs422:
    def form_invalid(self, form):
        response = super().form_invalid(form)  # type: ignore[misc]
        response.status_code = FORM_REFUSED_STATUS
        return response


class LoginView(_RefusedFormIs422, auth_views.LoginView):
    pass


class PasswordChangeView(_RefusedFormIs422, auth_views.PasswordChangeView):
    pass
