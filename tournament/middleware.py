"""The site's language: Dutch unless the visitor chose English with the switch in the header.

Django's LocaleMiddleware would also follow the browser's Accept-Language, so a director whose
laptop is set to English would get an English site without asking; a club expects Dutch.
"""

from django.conf import settings
from django.utils import translation


class ChosenLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.languages = {code for code, _name in settings.LANGUAGES}

    def __call__(self, request):
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        language = chosen if chosen in self.languages else settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        translation.deactivate()
        return response
