"""Armies pages: a kingdom's roster, one army with its list, the phone list editor, pasting a
list, and the GM's view of a Kings of War battle's lists and unit results.

Who may see what (DESIGN 6): every member sees the tokens (they stand on the public map); an
army's list and Simple points are for its player and the GMs until a battle reveals them to
every player (``services.roster_visible``, MK-SETUP-7). Writing a list needs its kingdom's player
or a GM; unit results and revealing a battle's lists are the GM's. Outsiders get 404, members
without the right 403 (``get_campaign_for``).

Editor actions sent by htmx get the editor fragment back; plain POSTs are redirected.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q, Sum
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from battles.catalogue import profiles_of
from battles.models import Army, Battle, Unit, UnitProfile
from campaign.access import Access, get_kingdom_for
from campaign.models import Kingdom, Role
from campaign.once import applies_once
from campaign.parsing import ParseError, WholeNumberField, parse_id
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import forces as services
from campaign.systems.mighty_kingdoms.models import Artefact, Ship
from campaign.systems.mighty_kingdoms.rules import battles as mkb
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.views import mk_access
from campaign.views.common import refuse, tabs_context

# The pages' templates, under templates/.
T = "campaign/systems/mighty_kingdoms/armies/"

UNIT_TYPES = ("troop", "regiment", "horde", "legion", "hero", "monster", "titan", "war engine",
              "large infantry", "large cavalry", "swarm")
US_CHOICES = [("", "Choose")] + [(str(n), str(n)) for n in range(0, 6)]
SIMPLE_BOX = 100


# -- forms --------------------------------------------------------------------------------------


class UnitForm(forms.Form):
    """One unit as a player taps it in: name, type, points and base Unit Strength first; the
    rest tucked away."""

    name = forms.CharField(max_length=services.NAME_LENGTH)
    unit_type = forms.ChoiceField(label="Type", required=False)
    other_type = forms.CharField(label="Or another type", max_length=services.TYPE_LENGTH,
                                 required=False)
    points = WholeNumberField(min_value=1, max_value=services.MAX_UNIT_POINTS)
    base_us = forms.TypedChoiceField(label="Base Unit Strength", choices=US_CHOICES, coerce=int)
    keywords = forms.CharField(max_length=200, required=False,
                               help_text="Separated by commas, e.g. hero, flying.")
    magic_item = forms.CharField(max_length=services.NAME_LENGTH, required=False)
    stats = forms.CharField(label="Stat line", max_length=120, required=False,
                            help_text="As on your list, e.g. Sp 4 Me 4+ Ra - De 5+ Att 12 "
                                      "Ne 14/16. Printed on the roster.")
    special_rules = forms.CharField(max_length=300, required=False,
                                    help_text="Separated by commas. Printed on the roster.")
    living_legend = forms.BooleanField(label="Living Legend [1]", required=False)
    allied = forms.BooleanField(label="Allied unit", required=False)

    def __init__(self, *args: Any, current_type: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        types = list(UNIT_TYPES)
        wanted = current_type or (self.data.get("unit_type", "") if self.is_bound else "")
        if wanted and wanted not in types:
            types.append(wanted)
        self.fields["unit_type"].choices = [("", "Choose")] + [(t, t.capitalize()) for t in types]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        chosen = (data.get("other_type") or "").strip() or data.get("unit_type") or ""
        if not chosen:
            self.add_error("unit_type", "Say what type of unit it is.")
        data["type"] = chosen
        return data

    def entry(self) -> mkb.UnitEntry:
        data = self.cleaned_data
        keywords = frozenset(k.strip() for k in data["keywords"].split(",") if k.strip())
        return mkb.UnitEntry(
            name=data["name"].strip(), unit_type=data["type"], points=data["points"],
            base_us=data["base_us"], keywords=keywords,
            magic_item=data["magic_item"].strip() or None,
            living_legend=data["living_legend"], allied=data["allied"],
            stats=" ".join(data["stats"].split()),
            special_rules=" ".join(data["special_rules"].split()),
        )

    @classmethod
    def for_profile(cls, profile: UnitProfile, unit: Unit | None = None) -> UnitForm:
        """A unit filled from a catalogue profile (the rest kept from ``unit`` when it is
        being changed); every field stays the player's to change before saving."""
        initial = cls.for_unit(unit).initial if unit is not None else {}
        initial.update({
            "name": profile.name, "unit_type": profile.unit_type, "points": profile.points,
            "base_us": "" if profile.base_us is None else str(profile.base_us),
            "stats": profile.stats, "special_rules": profile.special_rules,
        })
        return cls(current_type=profile.unit_type, initial=initial)

    @classmethod
    def for_unit(cls, unit: Unit) -> UnitForm:
        return cls(current_type=unit.unit_type, initial={
            "name": unit.name, "unit_type": unit.unit_type, "points": unit.points,
            "base_us": "" if unit.base_us is None else str(unit.base_us),
            "keywords": ", ".join(unit.keywords or []), "magic_item": unit.magic_item,
            "living_legend": unit.living_legend, "allied": unit.allied,
            "stats": unit.stats, "special_rules": unit.special_rules,
        })


class DetailsForm(forms.Form):
    race = forms.CharField(label="Army list (race)", max_length=80, required=False)
    allied = forms.BooleanField(label="This is the kingdom's allied army", required=False)


class PasteForm(forms.Form):
    text = forms.CharField(label="Your list, one unit per line", widget=forms.Textarea,
                           max_length=20000)
    race = forms.CharField(label="Army list (race)", max_length=80, required=False)
    fix = forms.BooleanField(label="Fix the list now", required=False)


# -- access ---------------------------------------------------------------------------------------


def _army_for(access: Access, army_id: int) -> Army:
    army = (Army.objects.filter(campaign=access.campaign, pk=army_id)
            .select_related("kingdom", "tile", "army_list").first())
    if army is None:
        raise Http404("No such army in this campaign.")
    return army


def _readable_army(access: Access, army_id: int) -> Army:
    """An army whose list this viewer may read (MK-SETUP-7)."""
    army = _army_for(access, army_id)
    if not services.roster_visible(access, army):
        raise PermissionDenied("This army's list is secret until it fights a battle (MK-SETUP-7).")
    return army


def _editable_army(request: HttpRequest, slug: str, army_id: int) -> tuple[Access, Army]:
    """An army whose list this viewer may write: their own kingdom's, or any for a GM."""
    access = mk_access(request, slug, role=Role.PLAYER)
    army = _army_for(access, army_id)
    if not access.can_edit_kingdom(army.kingdom):
        raise PermissionDenied("Only the army's player or a GM may write its list.")
    if not services.lists_in_use(access.campaign):
        raise Http404("This campaign fights Simple battles: armies have no lists.")
    return access, army


def _named_unit(army: Army, raw: str) -> Unit | None:
    """The unit a form or a link names (``unit``), None when it names none; a value that is no
    id is refused (400) rather than taken for "a new unit"."""
    if not raw.strip():
        return None
    pk = parse_id(raw)
    if pk is None:
        raise ParseError("“unit” must be the id of a unit of this army's list.")
    return _unit_for(army, pk)


def _unit_for(army: Army, unit_id: int) -> Unit:
    unit = Unit.objects.filter(pk=unit_id, army_list__army=army).select_related(
        "army_list__army__kingdom").first()
    if unit is None:
        raise Http404("No such unit in this army's list.")
    return unit


def _named_profile(access: Access, raw: str) -> UnitProfile | None:
    """The catalogue profile a link names (``profile``), None when it names none."""
    if not raw.strip():
        return None
    pk = parse_id(raw)
    if pk is None:
        raise ParseError("“profile” must be the id of a profile of this campaign's catalogue.")
    profile = UnitProfile.objects.filter(campaign=access.campaign, pk=pk).first()
    if profile is None:
        raise Http404("No such profile in this campaign's catalogue.")
    return profile


def _battle_for(access: Access, battle_id: int) -> Battle:
    battle = (Battle.objects.filter(campaign=access.campaign, pk=battle_id)
              .select_related("tile", "chooser", "opponent").first())
    if battle is None:
        raise Http404("No such battle in this campaign.")
    return battle


# -- shared pieces ------------------------------------------------------------------------------


def simple_boxes(points: int) -> list[dict[str, Any]]:
    """MK-SETUP-6, MK-SIMPLE: a roster's five 100-point boxes, each full, part-filled or empty."""
    boxes = []
    for n in range(1, 6):
        left = max(0, min(SIMPLE_BOX, points - (n - 1) * SIMPLE_BOX))
        boxes.append({"value": left, "full": left == SIMPLE_BOX, "empty": left == 0})
    return boxes


def _token_state(army: Army) -> str:
    if services.is_removed(army):
        return "removed"
    if army.tile_id is None:
        return "off the map"
    return "on its side" if army.on_side else "upright"


def _context(access: Access, **extra: Any) -> dict[str, Any]:
    campaign = access.campaign
    return {**tabs_context(access, "armies"),
            "lists_in_use": services.lists_in_use(campaign),
            "simple_rosters": services.simple_rosters(campaign), **extra}


# -- pages --------------------------------------------------------------------------------------


@login_required
@require_GET
def index(request: HttpRequest, slug: str) -> HttpResponse:
    """Every kingdom, with a link to its roster; the GM also gets the Kings of War battles."""
    access = mk_access(request, slug, role=Role.OBSERVER)
    kingdoms = list(Kingdom.objects.filter(campaign=access.campaign)
                    .annotate(armies_n=Count("armies", filter=~Q(armies__data__has_key="removed")))
                    .order_by("order_position", "name"))
    if access.kingdom is not None:
        mine = access.kingdom.pk
        kingdoms.sort(key=lambda k: k.pk != mine)
    battles = []
    if access.is_gm:
        battles = list(Battle.objects.filter(campaign=access.campaign, kind="land", mode="kow")
                       .select_related("tile", "chooser", "opponent")
                       .order_by("-year", "-month", "-seq"))
    return render(request, T + "index.html",
                  _context(access, kingdoms=kingdoms, battles=battles))


@login_required
@require_GET
def roster(request: HttpRequest, slug: str, kingdom_id: int) -> HttpResponse:
    """A kingdom's armies: number, tile, upright or on its side, defending, paired ship; points
    (Simple) or list totals (Kings of War) where this viewer may read them. A fixed number of
    queries however many armies there are."""
    access = mk_access(request, slug, role=Role.OBSERVER)
    kingdom = get_kingdom_for(access, kingdom_id)
    armies = list(Army.objects.filter(kingdom=kingdom).select_related("tile", "army_list")
                  .order_by("number"))
    ships = {s.paired_army_id: s for s in Ship.objects.filter(kingdom=kingdom,
                                                              paired_army__isnull=False)}
    totals = {row["army_list_id"]: row for row in
              Unit.objects.filter(army_list__army__kingdom=kingdom, destroyed_reason="")
              .values("army_list_id").annotate(n=Count("id"), points=Sum("points"))
              .order_by()}
    simple = services.simple_rosters(access.campaign)
    rows, gone = [], []
    for army in armies:
        visible = services.roster_visible(access, army)
        army_list = services.list_of(army)
        total = totals.get(army_list.pk) if army_list else None
        row = {
            "army": army, "visible": visible, "state": _token_state(army),
            "ship": ships.get(army.pk), "list": army_list if visible else None,
            "units": total["n"] if total else 0, "list_points": total["points"] if total else 0,
            "boxes": simple_boxes(army.points) if visible and simple else None,
        }
        (gone if services.is_removed(army) else rows).append(row)
    return render(request, T + "roster.html", _context(
        access, kingdom=kingdom, rows=rows, gone=gone,
        can_edit=access.can_edit_kingdom(kingdom) and access.at_least(Role.PLAYER)))


@login_required
@require_GET
def army(request: HttpRequest, slug: str, army_id: int) -> HttpResponse:
    """One army with its list: units, type, points, Unit Strength now and as fought (0..3),
    pencil history, magic item, Living Legend and allied flags."""
    access = mk_access(request, slug, role=Role.OBSERVER)
    row = _readable_army(access, army_id)
    army_list = services.list_of(row)
    statuses = services.unit_statuses(list(army_list.units.all())) if army_list else []
    options = mk.MKOptions.from_dict(access.campaign.options)
    can_edit = access.at_least(Role.PLAYER) and access.can_edit_kingdom(row.kingdom)
    ship = Ship.objects.filter(paired_army=row).first()
    alive = [s for s in statuses if not s.destroyed]
    return render(request, T + "army.html", _context(
        access, army=row, army_list=army_list, statuses=statuses, ship=ship,
        state=_token_state(row), can_edit=can_edit,
        artefacts=(options.module_artefacts and can_edit and bool(army_list and army_list.is_fixed)
                   and not Artefact.objects.filter(campaign=access.campaign).exists()),
        points=sum(s.unit.points for s in alive), alive=len(alive),
        boxes=simple_boxes(row.points) if services.simple_rosters(access.campaign) else None,
    ))


# -- the list editor ----------------------------------------------------------------------------


def _editor(request: HttpRequest, access: Access, army: Army, *, form: UnitForm | None = None,
            editing: Unit | None = None, details: DetailsForm | None = None,
            problems: Any = None, error: str = "", status: int = 200,
            picked: UnitProfile | None = None) -> HttpResponse:
    army_list = services.list_of(army)
    units = list(army_list.units.all()) if army_list else []
    entries = [services.entry_of(u) for u in units]
    allied = army_list.allied if army_list else army.is_allied
    if problems is None and units:
        problems = services.list_problems(army, entries, allied=allied)
    if form is None and picked is not None:
        form = UnitForm.for_profile(picked, editing)
    if form is None:
        form = UnitForm.for_unit(editing) if editing else UnitForm()
    if details is None:
        details = DetailsForm(initial={"race": army_list.race if army_list else "",
                                       "allied": allied})
    context = _context(access, army=army, army_list=army_list, units=units, form=form,
                       editing=editing, details=details, problems=problems or (),
                       error=error, points=mkb.list_points(entries),
                       limit=mkb.ARMY_POINTS_LIMIT, profiles=profiles_of(access.campaign),
                       picked=picked)
    template = T + "edit.html#editor" if request.htmx else T + "edit.html"
    return render(request, template, context, status=status)


def _after_edit(request: HttpRequest, access: Access, army: Army, message: str) -> HttpResponse:
    if request.htmx:
        return _editor(request, access, army)
    messages.success(request, message)
    return redirect("mk:armies:edit", access.campaign.slug, army.pk)


def _fresh(army: Army) -> Army:
    return Army.objects.select_related("kingdom", "tile", "army_list").get(pk=army.pk)


@login_required
@require_GET
def edit(request: HttpRequest, slug: str, army_id: int) -> HttpResponse:
    """The phone list editor: the draft's units (copy, change, remove), a short form to add one,
    what still stands in the way of fixing the list, and the button that fixes it."""
    access, army = _editable_army(request, slug, army_id)
    army_list = services.list_of(army)
    if army_list is not None and (army_list.is_fixed or army_list.revealed_at_battle_id):
        messages.info(request, "This list is fixed: only losses change it now (MK-RECRUIT-6).")
        return redirect("mk:armies:army", slug, army.pk)
    if services.is_removed(army):
        raise Http404("This army has left play.")
    editing = _named_unit(army, request.GET.get("unit", ""))
    picked = _named_profile(access, request.GET.get("profile", ""))
    return _editor(request, access, army, editing=editing, picked=picked)


@login_required
@require_POST
@applies_once
def save_unit(request: HttpRequest, slug: str, army_id: int) -> HttpResponse:
    """Add a unit to the draft, or change one (``unit`` in the form)."""
    access, army = _editable_army(request, slug, army_id)
    editing = _named_unit(army, request.POST.get("unit", ""))
    form = UnitForm(request.POST)
    if not form.is_valid():
        return _editor(request, access, army, form=form, editing=editing, status=400)
    entry = form.entry()
    try:
        if editing is not None:
            services.update_unit(editing, entry, request.user)
        else:
            services.add_unit(army, entry, request.user)
    except ServiceError as exc:
        return _editor(request, access, _fresh(army), form=form, editing=editing,
                       error=str(exc), status=409)
    verb = "changed" if editing else "added"
    return _after_edit(request, access, _fresh(army), f"{entry.name} {verb}.")


@login_required
@require_POST
@applies_once
def copy(request: HttpRequest, slug: str, army_id: int, unit_id: int) -> HttpResponse:
    access, army = _editable_army(request, slug, army_id)
    unit = _unit_for(army, unit_id)
    try:
        services.copy_unit(unit, request.user)
    except ServiceError as exc:
        return _editor(request, access, army, error=str(exc), status=409)
    return _after_edit(request, access, _fresh(army), f"{unit.name} copied.")


@login_required
@require_POST
def remove(request: HttpRequest, slug: str, army_id: int, unit_id: int) -> HttpResponse:
    access, army = _editable_army(request, slug, army_id)
    unit = _unit_for(army, unit_id)
    try:
        services.remove_unit(unit, request.user)
    except ServiceError as exc:
        return _editor(request, access, army, error=str(exc), status=409)
    return _after_edit(request, access, _fresh(army), f"{unit.name} removed.")


@login_required
@require_POST
def details(request: HttpRequest, slug: str, army_id: int) -> HttpResponse:
    """The draft's list name and whether it is the allied army (MK-RECRUIT-5)."""
    access, army = _editable_army(request, slug, army_id)
    form = DetailsForm(request.POST)
    if not form.is_valid():
        return _editor(request, access, army, details=form, status=400)
    try:
        services.set_list_details(army, request.user, race=form.cleaned_data["race"],
                                  allied=form.cleaned_data["allied"])
    except ServiceError as exc:
        return _editor(request, access, army, details=form, error=str(exc), status=409)
    return _after_edit(request, access, _fresh(army), "List details saved.")


@login_required
@require_POST
def fix(request: HttpRequest, slug: str, army_id: int) -> HttpResponse:
    """MK-SETUP-6, MK-RECRUIT-4..6: check the whole list and lock it; refused with every
    problem listed."""
    access, army = _editable_army(request, slug, army_id)
    try:
        services.fix_army_list(army, request.user)
    except services.ListRefused as exc:
        return _editor(request, access, army, problems=exc.problems,
                       error="The list was not fixed; see what stands in the way below.",
                       status=409)
    except ServiceError as exc:
        return _editor(request, access, army, error=str(exc), status=409)
    messages.success(request, f"The list of army #{army.number} is fixed.")
    return redirect("mk:armies:army", slug, army.pk)


@login_required
@require_http_methods(["GET", "POST"])
@applies_once
def paste(request: HttpRequest, slug: str, army_id: int) -> HttpResponse:
    """MK-SETUP-6: paste a list as plain text. A malformed line is shown with its number and
    nothing is saved (400); a list breaking the campaign's rules is refused whole (409)."""
    access, army = _editable_army(request, slug, army_id)
    army_list = services.list_of(army)
    if army_list is not None and (army_list.is_fixed or army_list.revealed_at_battle_id):
        return refuse(request, "This list is fixed: only losses change it now (MK-RECRUIT-6).",
                      status=409, context=_context(access))
    context = _context(access, army=army, line_errors=(), problems=(), error="")
    if request.method == "GET":
        context["form"] = PasteForm(initial={"race": army_list.race if army_list else ""})
        return render(request, T + "paste.html", context)
    form = PasteForm(request.POST)
    context["form"] = form
    if not form.is_valid():
        return render(request, T + "paste.html", context, status=400)
    data = form.cleaned_data
    try:
        result = services.paste_army_list(army, data["text"], request.user,
                                          race=data["race"] or None, fix=data["fix"])
    except services.PasteRefused as exc:
        context["line_errors"] = exc.errors
        return render(request, T + "paste.html", context, status=400)
    except services.ListRefused as exc:
        context["problems"] = exc.problems
        context["error"] = "The list was not saved: it breaks the rules below."
        return render(request, T + "paste.html", context, status=409)
    except ServiceError as exc:
        context["error"] = str(exc)
        return render(request, T + "paste.html", context, status=409)
    if result.is_fixed:
        messages.success(request, f"The list of army #{army.number} is saved and fixed.")
        return redirect("mk:armies:army", slug, army.pk)
    messages.success(request, "The list is saved as a draft: check it, then fix it.")
    return redirect("mk:armies:edit", slug, army.pk)


@login_required
@require_POST
def artefact(request: HttpRequest, slug: str, army_id: int, unit_id: int) -> HttpResponse:
    """MK-ART-1/2: give a unit an artefact, or take it away (an empty name)."""
    access = mk_access(request, slug, role=Role.PLAYER)
    army = _army_for(access, army_id)
    if not access.can_edit_kingdom(army.kingdom):
        raise PermissionDenied("Only the army's player or a GM may assign its artefacts.")
    unit = _unit_for(army, unit_id)
    try:
        services.assign_artefact(unit, request.POST.get("artefact", ""), request.user)
    except ServiceError as exc:
        return refuse(request, str(exc), status=409, context=_context(access))
    messages.success(request, "Artefact saved.")
    return redirect("mk:armies:army", slug, army.pk)


# -- battles ------------------------------------------------------------------------------------


@login_required
@require_GET
def battle_results(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """A Kings of War battle for the GM, from the Armies index: its lists (and whether they are
    revealed) and, once entered, each unit's result with its Unit Strength now (MK-US-1..4).
    The result and the unit results are entered together on the battle page."""
    access = mk_access(request, slug, role=Role.GM)
    battle = _battle_for(access, battle_id)
    entered = services.unit_results_of(battle)
    sides = []
    for army_row, units in services.battle_units(battle):
        statuses = services.unit_statuses(units)
        sides.append({"army": army_row, "list": services.list_of(army_row), "units": [
            {"status": s, "result": entered.get(s.unit.pk)} for s in statuses]})
    lists = [s["list"] for s in sides]
    revealed = all(a is not None and a.revealed_at_battle_id for a in lists)
    waiting = battle.status == Battle.Status.PENDING and not battle.result_chooser
    return render(request, T + "battle.html", _context(
        access, battle=battle, sides=sides, recorded="unit_results" in (battle.data or {}),
        kow=services.is_kow_battle(battle), revealed=revealed, waiting=waiting))


@login_required
@require_POST
def reveal(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """MK-SETUP-7: the GM shows every player the lists of the armies in this battle."""
    access = mk_access(request, slug, role=Role.GM)
    battle = _battle_for(access, battle_id)
    try:
        services.reveal_battle_lists(battle, request.user)
    except ServiceError as exc:
        return refuse(request, str(exc), status=409, context=_context(access))
    messages.success(request, "The lists of this battle are now open to every player.")
    return redirect(reverse("mk:armies:battle", args=[slug, battle.pk]))
