"""The e-mail address of an account: optional, one account per address.

An address belongs to one account at most, compared without regard to case
(``Anna@Club.nl`` is ``anna@club.nl``): the password-reset mail goes to the one account that
has it, and nobody can claim someone else's address to receive their notices. It is stored as
typed, without the spaces around it, in Unicode's NFKC form and with the part after the @ in
lower case. Two addresses are the same when their keys are (``address_key``): NFKC, case folded,
the domain IDNA-encoded as Django's mail code does before sending; so a look-alike such as
``alice@alpha.te\u017ft`` (a long s) is ``alice@alpha.test``, where the mail would go. Saving takes
a lock first, so that two accounts claiming the same address at the same moment cannot both
get it: PostgreSQL's advisory lock for that address, SQLite's one writer at a time
(``transaction_mode = IMMEDIATE``). (Django's admin can still give two accounts one address;
the reset then mails each.)
"""

from __future__ import annotations

import contextlib
import hashlib
import unicodedata

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import BaseUserManager
from django.contrib.auth.models import User
from django.core.validators import validate_email
from django.db import connection, models, transaction
from django.db.models import Q
from django.utils.encoding import punycode
from django.utils.translation import gettext_lazy as _

from tournament.errors import Refused

MAX_LENGTH = 254
_LOCK_NAMESPACE = 0x6D61  # "ma": this module's advisory locks


class AddressRefusal(models.TextChoices):
    TAKEN = (
        "email_taken",
        _(
            "Another account already has this e-mail address. Use another address, or sign in "
            "with that account (forgot its password? use “Forgot your password?” on the "
            "sign-in page)."
        ),
    )
    INVALID = (
        "email_invalid",
        _("That is not an e-mail address; it looks like name@example.nl."),
    )


def address_normalised(address: str) -> str:
    """Without the spaces around it, in NFKC form, the part after the @ in lower case (as
    Django's ``create_user`` stores it)."""
    return BaseUserManager.normalize_email(unicodedata.normalize("NFKC", address.strip()))


def address_key(address: str) -> str:
    """What two addresses are compared by: NFKC and case folded, the domain IDNA-encoded
    (Punycode) as Django's mail code encodes it before sending (``''`` for none)."""
    folded = unicodedata.normalize("NFKC", address.strip()).casefold()
    local, at, domain = folded.rpartition("@")
    if not at:
        return folded
    with contextlib.suppress(UnicodeError):  # not a domain name: validate_email refuses it
        domain = punycode(domain).lower()
    return f"{local}@{domain}"


def address_taken(address: str, *, by_other_than: User | None = None) -> bool:
    """Whether an account (other than ``by_other_than``) has ``address`` or a look-alike of it
    (the same ``address_key``)."""
    address = address_normalised(address)
    if not address:
        return False
    key = address_key(address)
    others = get_user_model().objects.all()
    if by_other_than is not None:
        others = others.exclude(pk=by_other_than.pk)
    if others.filter(Q(email__iexact=address) | Q(email__iexact=key)).exists():
        return True
    # Addresses beyond ASCII (few) are compared by their keys here: the database's own
    # comparison knows neither NFKC nor IDNA (nor, on SQLite, case beyond ASCII).
    unusual = others.filter(email__regex=r"[^ -~]").values_list("email", flat=True)
    return any(address_key(other) == key for other in unusual)


def _lock_address(address: str) -> None:
    """Hold the address until the transaction ends (PostgreSQL; SQLite writes one at a time)."""
    if connection.vendor != "postgresql":
        return
    digest = hashlib.sha256(address_key(address).encode()).digest()
    key = int.from_bytes(digest[:4], "big", signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_LOCK_NAMESPACE, key])


def address_checked(address: str, *, by_other_than: User | None = None) -> str:
    """``address`` tidied, ``''`` for none; refused when it is not an address or another account
    has it."""
    address = address_normalised(address)
    if not address:
        return ""
    try:
        validate_email(address)
    except forms.ValidationError:
        raise Refused.because(AddressRefusal.INVALID) from None
    if len(address) > MAX_LENGTH:
        raise Refused.because(AddressRefusal.INVALID)
    if address_taken(address, by_other_than=by_other_than):
        raise Refused.because(AddressRefusal.TAKEN)
    return address


def account_address_claim(*, user: User, address: str) -> None:
    """Give ``user`` (saved in this transaction or before) ``address`` (``''``: none), under the
    address's lock. The caller runs this in ``transaction.atomic``."""
    if address:
        _lock_address(address)
    address = address_checked(address, by_other_than=user)
    if user.email != address:
        user.email = address
        user.save(update_fields=["email"])


def account_address_set(*, user: User, address: str) -> str:
    """Set or change ``user``'s e-mail address (``''`` removes it); returns it as stored."""
    with transaction.atomic():
        account_address_claim(user=user, address=address)
    return user.email


class AddressField(forms.CharField):
    """An optional e-mail address, checked as ``address_checked`` does (its format here; whether
    it is taken in the form's ``clean_<field>``, which knows the account)."""

    widget = forms.EmailInput(attrs={"autocomplete": "email"})

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", MAX_LENGTH)
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.error_messages["max_length"] = AddressRefusal.INVALID.label

    def clean(self, value: object) -> str:
        cleaned: str = super().clean(value)
        cleaned = address_normalised(cleaned)
        if cleaned:
            try:
                validate_email(cleaned)
            except forms.ValidationError:
                raise forms.ValidationError(
                    AddressRefusal.INVALID.label, code=AddressRefusal.INVALID.value
                ) from None
        return cleaned


def address_form_error(address: str, *, by_other_than: User | None = None) -> None:
    """For a form's ``clean_<field>``: a ``ValidationError`` when another account has it."""
    if address and address_taken(address, by_other_than=by_other_than):
        raise forms.ValidationError(AddressRefusal.TAKEN.label, code=AddressRefusal.TAKEN.value)
