"""The club's member register: the list, adding one or a pasted list, editing, and merging
two records of one person (with taking a never-seated player off a clashing evening)."""

from __future__ import annotations

from django.contrib import messages
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournament.clubs.roles import EVENING_DIRECTORS_ONLY, may_edit_member
from tournament.errors import Refused, show_refused
from tournament.models import Club, Member, Player
from tournament.permissions import DIRECTOR, SignedInRequest, club_required, is_director
from tournament.season import merge, services
from tournament.season.forms import (
    MemberForm,
    MemberPasteForm,
)
from tournament.season.guests import member_guest_preview, member_guest_set
from tournament.season.permissions import member_editable, member_required
from tournament.season.register import MemberRow, members_check, members_parse
from tournament.season.selectors import (
    members_listed,
)
from tournament.text import posted_id

PASTE_SALT = "season-member-paste"
# A member or a guest, as the pages say it: ``status`` of "Make a member" and "Make a guest"
# (the link to the preview and the confirming form), ``kind`` of the register's filter.
STATUS_GUEST = {"member": False, "guest": True}


def _members_paste(
    request: HttpRequest, club: Club
) -> tuple[MemberPasteForm, list[MemberRow], str]:
    """The pasted list's form, its checked lines and the signed good ones for "Add"."""
    paste = MemberPasteForm(request.POST if "paste" in request.POST else None)
    if not (paste.is_bound and paste.is_valid()):
        return paste, [], ""
    rows = members_check(members_parse(paste.cleaned_data["paste"]), register=members_listed(club))
    good = [[r.line, r.name, r.club, r.number] for r in rows if r.ok]
    # Signed with the club, so a preview of one club's register never adds to another's.
    payload = {"club": club.pk, "rows": good}
    return paste, rows, signing.dumps(payload, salt=PASTE_SALT) if good else ""


def _members_paste_add(request: HttpRequest, club: Club) -> bool:
    try:
        payload = signing.loads(request.POST["payload"], salt=PASTE_SALT, max_age=3600)
    except signing.BadSignature:
        payload = None
    if not isinstance(payload, dict) or payload.get("club") != club.pk:
        messages.error(request, _("The preview has expired; paste the list again."))
        return False
    rows = [
        MemberRow(line=line, name=name, club=member_club, number=number)
        for line, name, member_club, number in payload["rows"]
    ]
    try:
        added = services.members_add(register=club, rows=rows)
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


@club_required(DIRECTOR)
def member_list(request: HttpRequest, club: Club) -> HttpResponse:
    """The current club's register: search it, add one member or a pasted list."""
    if request.method == "POST" and "payload" in request.POST and _members_paste_add(request, club):
        return redirect("member_list")
    paste, pasted, payload = _members_paste(request, club)
    form = MemberForm(request.POST if "name" in request.POST else None)
    if form.is_bound and form.is_valid():
        try:
            member = services.member_create(
                register=club,
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
    members = members_listed(club, search=search)
    # Everyone, the members alone or the guests alone.
    kind = request.GET.get("kind", "")
    if kind in STATUS_GUEST:
        members = [m for m in members if m.guest == STATUS_GUEST[kind]]
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
            "members": members,
            "search": search,
            "kind": kind if kind in STATUS_GUEST else "",
            "club": club,
        },
    )


def _member_status_set(request: HttpRequest, member: Member) -> HttpResponse:
    """Make the member a guest or a member, as previewed on their page."""
    member_editable(request.user, member)
    guest = STATUS_GUEST.get(request.POST.get("status", ""))
    if guest is not None and guest != member.guest:
        member_guest_set(member=member, guest=guest)
        if guest:
            text = _("%(name)s is a guest now: never ranked in a competition.")
        else:
            text = _("%(name)s is a member now: their evenings count in the competitions.")
        messages.success(request, text % {"name": member.name})
    return redirect("member_edit", pk=member.pk)


@member_required
def member_edit(request: SignedInRequest, member: Member) -> HttpResponse:
    if request.method == "POST" and "status" in request.POST:
        return _member_status_set(request, member)
    editable = may_edit_member(request.user, member)
    initial = {"name": member.name, "club": member.club, "number": member.number}
    form = MemberForm(request.POST or None, initial={**initial, "active": member.active})
    if request.method == "POST":
        member_editable(request.user, member)
    if request.method == "POST" and form.is_valid():
        try:
            services.member_update(member=member, **form.cleaned_data)
        except Refused as refused:
            show_refused(request, refused)
        else:
            messages.success(request, _("Saved."))
            return redirect("member_list")
    # The evenings the viewer may open are links; the others are counted, not named.
    evenings, hidden = [], 0
    for player in Player.objects.filter(member=member).select_related("tournament__club"):
        if (
            is_director(request.user, player.tournament)
            or player.tournament.scorers.filter(pk=request.user.pk).exists()
        ):
            evenings.append(player)
        else:
            hidden += 1
    others = [m for m in members_listed(member.register) if m.pk != member.pk]
    if not editable:
        for field in form.fields.values():
            field.disabled = True
    # The preview of "Make a member" ("Make a guest"): each competition's standings after it.
    status = request.GET.get("status", "")
    preview = None
    if editable and STATUS_GUEST.get(status, member.guest) != member.guest:
        preview = member_guest_preview(member=member, guest=STATUS_GUEST[status])
    return render(
        request,
        "season/member_edit.html",
        {
            "member": member,
            "form": form,
            "players": evenings,
            "hidden_evenings": hidden,
            "others": others,
            "editable": editable,
            "status": status if preview is not None else "",
            "preview": preview,
        },
    )


@member_required
def member_merge(request: HttpRequest, keep: Member) -> HttpResponse:
    """The preview of merging another record into this member (GET ?other=), and the merge."""
    other = posted_id(request.POST.get("other") or request.GET.get("other"))
    if other is None:
        return redirect("member_edit", pk=keep.pk)
    drop = get_object_or_404(Member, pk=other, register=keep.register)
    member_editable(request.user, keep)
    member_editable(request.user, drop)
    if drop.pk == keep.pk:  # (an address typed by hand: nothing to preview)
        messages.error(request, str(services.SeasonRefusal.MERGE_SELF.label))
        return redirect("member_edit", pk=keep.pk)
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


@member_required
@require_POST
def member_merge_remove(request: HttpRequest, keep: Member) -> HttpResponse:
    """Take a never-seated player of a clashing evening off it, back to the merge preview:
    for whoever directs that evening."""
    other = posted_id(request.POST.get("other"))
    player = get_object_or_404(
        Player.objects.select_related("tournament__club"),
        pk=posted_id(request.POST.get("player")) or 0,
        tournament__club=keep.register,
    )
    if player.member_id not in {keep.pk, other}:
        raise Http404
    member_editable(request.user, keep)
    if not is_director(request.user, player.tournament):
        raise PermissionDenied(EVENING_DIRECTORS_ONLY)
    name = player.name
    try:
        merge.evening_player_remove(player=player)
    except Refused as refused:
        show_refused(request, refused)
    else:
        messages.success(
            request, _("%(name)s is no longer a player of that evening.") % {"name": name}
        )
    return redirect(f"{reverse('member_merge', args=[keep.pk])}?other={other or ''}")
