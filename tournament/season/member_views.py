"""The club's member register: the list, adding one or a pasted list, editing, and merging
two records of one person (with taking a never-seated player off a clashing evening)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournament.errors import Refused, show_refused
from tournament.models import Member, Player
from tournament.season import merge, services
from tournament.season.forms import (
    MemberForm,
    MemberPasteForm,
)
from tournament.season.register import MemberRow, members_check, members_parse
from tournament.season.selectors import (
    members_listed,
)

PASTE_SALT = "season-member-paste"


def _members_paste(request: HttpRequest) -> tuple[MemberPasteForm, list[MemberRow], str]:
    """The pasted list's form, its checked lines and the signed good ones for "Add"."""
    paste = MemberPasteForm(request.POST if "paste" in request.POST else None)
    if not (paste.is_bound and paste.is_valid()):
        return paste, [], ""
    rows = members_check(members_parse(paste.cleaned_data["paste"]), register=members_listed())
    good = [[r.line, r.name, r.club, r.number] for r in rows if r.ok]
    return paste, rows, signing.dumps(good, salt=PASTE_SALT) if good else ""


def _members_paste_add(request: HttpRequest) -> bool:
    try:
        good = signing.loads(request.POST["payload"], salt=PASTE_SALT, max_age=3600)
    except signing.BadSignature:
        messages.error(request, _("The preview has expired; paste the list again."))
        return False
    rows = [
        MemberRow(line=line, name=name, club=club, number=number)
        for line, name, club, number in good
    ]
    try:
        added = services.members_add(rows=rows)
    except Refused as refused:
        show_refused(request, refused)
        return False
    messages.success(
        request,
        ngettext(
            "%(count)s member joined the register.",
            "%(count)s members joined the register.",
            len(added),
        )
        % {"count": len(added)},
    )
    return True


@login_required
def member_list(request: HttpRequest) -> HttpResponse:
    if request.method == "POST" and "payload" in request.POST and _members_paste_add(request):
        return redirect("member_list")
    paste, pasted, payload = _members_paste(request)
    form = MemberForm(request.POST if "name" in request.POST else None)
    if form.is_bound and form.is_valid():
        try:
            member = services.member_create(
                name=form.cleaned_data["name"],
                club=form.cleaned_data["club"],
                number=form.cleaned_data["number"],
            )
        except Refused as refused:
            show_refused(request, refused)
        else:
            messages.success(request, _("%(name)s joined the register.") % {"name": member.name})
            return redirect("member_list")
    search = request.GET.get("q", "")
    if not search and not pasted:
        # Typing members one after another: after "Add" the cursor is back in the name.
        form.fields["name"].widget.attrs["autofocus"] = True
    return render(
        request,
        "season/member_list.html",
        {
            "form": form,
            "paste": paste,
            "pasted": pasted,
            "payload": payload,
            "good": sum(r.ok for r in pasted),
            "members": members_listed(search=search),
            "search": search,
        },
    )


@login_required
def member_edit(request: HttpRequest, pk: int) -> HttpResponse:
    member = get_object_or_404(Member, pk=pk)
    initial = {"name": member.name, "club": member.club, "number": member.number}
    form = MemberForm(request.POST or None, initial={**initial, "active": member.active})
    if request.method == "POST" and form.is_valid():
        try:
            services.member_update(member=member, **form.cleaned_data)
        except Refused as refused:
            show_refused(request, refused)
        else:
            messages.success(request, _("Saved."))
            return redirect("member_list")
    players = Player.objects.filter(member=member).select_related("tournament")
    others = [m for m in members_listed() if m.pk != member.pk]
    return render(
        request,
        "season/member_edit.html",
        {"member": member, "form": form, "players": players, "others": others},
    )


@login_required
def member_merge(request: HttpRequest, pk: int) -> HttpResponse:
    """The preview of merging another record into this member (GET ?other=), and the merge."""
    keep = get_object_or_404(Member, pk=pk)
    other = request.POST.get("other") or request.GET.get("other")
    if not other or not other.isdigit():
        return redirect("member_edit", pk=keep.pk)
    drop = get_object_or_404(Member, pk=other)
    if request.method == "POST":
        try:
            merge.member_merge(keep=keep, drop=drop)
        except Refused as refused:
            show_refused(request, refused)
        else:
            messages.success(request, _("Merged into %(name)s.") % {"name": keep.name})
            return redirect("member_edit", pk=keep.pk)
    preview = merge.member_merge_preview(keep=keep, drop=drop)
    return render(request, "season/member_merge.html", {"preview": preview})


@login_required
@require_POST
def member_merge_remove(request: HttpRequest, pk: int) -> HttpResponse:
    """Take a never-seated player of a clashing evening off it, back to the merge preview."""
    keep = get_object_or_404(Member, pk=pk)
    other = request.POST.get("other", "")
    player = get_object_or_404(Player, pk=request.POST.get("player") or 0)
    if player.member_id not in {keep.pk, int(other) if other.isdigit() else None}:
        raise Http404
    name = player.name
    try:
        merge.evening_player_remove(player=player)
    except Refused as refused:
        show_refused(request, refused)
    else:
        messages.success(
            request, _("%(name)s is no longer a player of that evening.") % {"name": name}
        )
    return redirect(f"{reverse('member_merge', args=[keep.pk])}?other={other}")
