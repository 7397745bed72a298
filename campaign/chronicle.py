"""The chronicle: every write records an Event, and a GM can undo the latest ones in order.

A service opens a ``Recorder`` inside its transaction and routes each write through it:
``rec.create(obj)``, ``rec.update(obj, field=value, ...)``, ``rec.delete(obj)``. The recorder
keeps a before-image of every row it touches (and of rows a delete would cascade to or null out), so
``undo_latest`` can put the database back exactly as it was before the event.
"""

from __future__ import annotations

import datetime as dt
import decimal
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterable

from django.apps import apps
from django.db import models, router, transaction
from django.db.models.deletion import Collector
from django.utils import timezone

from campaign.images import delete_files
from campaign.locking import lock_campaign
from campaign.models import Campaign, Event, Kingdom, Visibility


class UndoError(Exception):
    """The event cannot be undone (not the latest, already undone, or not reversible)."""


# How many recorders are open in this thread of work: a write to campaign data while none is
# open is a write no event can undo (tests/campaign/test_every_write_has_its_event.py).
_open_recorders: ContextVar[int] = ContextVar("open_recorders", default=0)
# The events finished inside a ``recording()`` block, for callers that need to know whether a
# request wrote anything (``campaign.once``).
_finished: ContextVar[list[Event] | None] = ContextVar("finished_events", default=None)


def recorder_open() -> bool:
    """Whether a ``Recorder`` is open (entered and not yet finished) in this context."""
    return _open_recorders.get() > 0


@contextmanager
def recording() -> Iterator[list[Event]]:
    """Collect the events finished inside the block (in order)."""
    events: list[Event] = []
    token = _finished.set(events)
    try:
        yield events
    finally:
        _finished.reset(token)


def _to_json(value: Any) -> Any:
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, (decimal.Decimal, uuid.UUID)):
        return str(value)
    if isinstance(value, models.fields.files.FieldFile):
        return value.name or ""
    return value


def snapshot(obj: models.Model, *, complete: bool = False) -> dict[str, Any]:
    """Every concrete field of ``obj`` by attname, as JSON-safe values. Fields deferred when
    ``obj`` was read are left out (undo leaves them as they are), unless ``complete`` asks to
    read them first."""
    deferred = obj.get_deferred_fields()
    if deferred and complete:
        obj.refresh_from_db(fields=list(deferred))
        deferred = set()
    return {
        field.attname: _to_json(getattr(obj, field.attname))
        for field in obj._meta.concrete_fields if field.attname not in deferred
    }


def _restore_fields(model: type[models.Model], fields: dict[str, Any]) -> dict[str, Any]:
    by_attname = {f.attname: f for f in model._meta.concrete_fields}
    restored = {}
    for attname, value in fields.items():
        field = by_attname.get(attname)
        if field is None:
            continue
        if value is not None and isinstance(field, (models.DateTimeField, models.DateField)):
            value = field.to_python(value)
        restored[attname] = value
    return restored


class Recorder:
    """Collects the changes of one event; ``finish`` (or leaving the ``with`` block) saves it."""

    def __init__(
        self,
        campaign: Campaign,
        actor: Any,
        kind: str,
        summary: str = "",
        *,
        visibility: str = Visibility.PUBLIC,
        kingdom: Kingdom | None = None,
        dice: list[Any] | None = None,
        data: dict[str, Any] | None = None,
        reversible: bool = True,
    ) -> None:
        self.campaign = campaign
        self.actor = actor if getattr(actor, "is_authenticated", False) else None
        self.kind = kind
        self.summary = summary
        self.visibility = visibility
        self.kingdom = kingdom
        self.dice = list(dice or [])
        self.data = dict(data or {})
        self.reversible = reversible
        self.changes: list[dict[str, Any]] = []
        self.event: Event | None = None
        self._open = False
        self._on_saved: list[Callable[[Event], None]] = []

    def __enter__(self) -> "Recorder":
        if not transaction.get_connection().in_atomic_block:
            raise RuntimeError("Record chronicle events inside transaction.atomic().")
        self._opened()
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is None:
            self.finish()
        self._closed()

    def _opened(self) -> None:
        if not self._open:
            self._open = True
            _open_recorders.set(_open_recorders.get() + 1)

    def _closed(self) -> None:
        if self._open:
            self._open = False
            _open_recorders.set(max(0, _open_recorders.get() - 1))

    # -- writes -------------------------------------------------------------------------------
    def create(self, obj: models.Model) -> models.Model:
        self._opened()
        obj.save(force_insert=True)
        self.changes.append({"op": "create", "model": obj._meta.label_lower, "pk": obj.pk})
        return obj

    def update(self, obj: models.Model, **values: Any) -> models.Model:
        """Set ``values`` on ``obj`` and save it, remembering what it was before (a field
        deferred when ``obj`` was read is read first if it is one of those changed)."""
        deferred = obj.get_deferred_fields() & {
            obj._meta.get_field(name).attname for name in values}
        if deferred:
            obj.refresh_from_db(fields=list(deferred))
        self._opened()
        before = snapshot(obj)
        for name, value in values.items():
            setattr(obj, name, value)
        obj.save()
        self.changes.append(
            {"op": "update", "model": obj._meta.label_lower, "pk": obj.pk, "fields": before}
        )
        return obj

    def saved(self, obj: models.Model, before: dict[str, Any]) -> None:
        """Record an update made by the caller (``before`` is ``snapshot(obj)`` taken earlier)."""
        self._opened()
        obj.save()
        self.changes.append(
            {"op": "update", "model": obj._meta.label_lower, "pk": obj.pk, "fields": before}
        )

    def create_many(self, model: type[models.Model],
                    objs: list[models.Model]) -> list[models.Model]:
        """Insert many rows at once (a whole map); undo removes them by primary key."""
        self._opened()
        created = model._default_manager.bulk_create(objs, batch_size=500)
        self.changes.append(
            {"op": "create_many", "model": model._meta.label_lower, "pks": [o.pk for o in created]}
        )
        return created

    def delete(self, obj: models.Model) -> None:
        """Delete ``obj`` and whatever it cascades to, remembering all of it."""
        self._delete_collected([obj])

    def delete_many(self, queryset: models.QuerySet[Any]) -> None:
        """Delete every row of ``queryset`` (and its cascade), remembering all of it."""
        self._delete_collected(queryset)

    def _delete_collected(self, objs: Any) -> None:
        self._opened()
        model = objs.model if isinstance(objs, models.QuerySet) else type(objs[0])
        collector = Collector(using=router.db_for_write(model))
        collector.collect(objs)
        for (_field, _value), groups in collector.field_updates.items():
            for group in groups:
                for related in group:
                    self._remember(related, "update")
        # Collector.sort() puts dependents before what they depend on, the order Django deletes
        # in; undo runs backwards, so parents are recreated before their children.
        collector.sort()
        for queryset in collector.fast_deletes:
            for instance in queryset:
                self._remember(instance, "delete")
        for instances in collector.data.values():
            for instance in instances:
                self._remember(instance, "delete")
        collector.delete()

    def _remember(self, obj: models.Model, op: str) -> None:
        # A delete's cascade reads rows with only some fields: read the rest, undo needs all.
        self.changes.append({"op": op, "model": obj._meta.label_lower, "pk": obj.pk,
                             "fields": snapshot(obj, complete=True)})

    def roll(self, purpose: str, values: Iterable[int], source: str = "server") -> list[int]:
        """Keep a roll with the event; ``source`` is "server" or "table" (typed in)."""
        values = [int(v) for v in values]
        self.dice.append({"purpose": purpose, "values": values, "source": source})
        return values

    def on_saved(self, hook: Callable[[Event], None]) -> None:
        """Call ``hook(event)`` once the event row is saved, still inside the event (to point
        rows this event created at it)."""
        self._on_saved.append(hook)

    def finish(self) -> Event:
        if self.event is not None:
            return self.event
        self._opened()
        try:
            event = self._save()
            for hook in self._on_saved:
                hook(event)
        finally:
            self._closed()
        collected = _finished.get()
        if collected is not None:
            collected.append(event)
        return event

    def _save(self) -> Event:
        # The clock only: the campaign's state and options need not be read again. The lock is
        # the first of every writer's (campaign.locking); a service holds it already.
        campaign = lock_campaign(self.campaign, only=("id", "year", "season", "month", "phase"))
        last = campaign.events.order_by("-seq").values_list("seq", flat=True).first() or 0
        self.event = Event.objects.create(
            campaign=campaign,
            seq=last + 1,
            actor=self.actor,
            year=campaign.year,
            season=campaign.season,
            month=campaign.month,
            phase=campaign.phase,
            kind=self.kind,
            summary=self.summary,
            dice=self.dice,
            data=self.data,
            changes=self.changes,
            reversible=self.reversible and bool(self.changes),
            visibility=self.visibility,
            kingdom=self.kingdom,
        )
        return self.event


def _standing(campaign: Campaign) -> models.QuerySet[Event]:
    """Events still in effect: not undone, and not undos themselves."""
    return campaign.events.filter(undone_at__isnull=True, undo_of__isnull=True)


def undoable_events(campaign: Campaign) -> models.QuerySet[Event]:
    """The events undo can still reach, latest first: exactly what pressing *Undo* again and
    again would reverse, one by one.

    An event that cannot be undone (the campaign's creation, an import, an event that changed
    nothing) is a barrier: undo never reaches past it to older events, whose effects later ones
    may depend on.
    """
    barrier = (
        _standing(campaign).filter(reversible=False).aggregate(seq=models.Max("seq"))["seq"] or 0
    )
    return _standing(campaign).filter(reversible=True, seq__gt=barrier).order_by("-seq")


def latest_standing(campaign: Campaign) -> Event | None:
    """The latest event still in effect (not undone, not an undo); *Undo* reverses it if it is
    reversible, and otherwise nothing at all."""
    # The before-images can be large (a whole map): load them only when undo needs them.
    return _standing(campaign).defer("changes").order_by("-seq").first()


def latest_undoable(campaign: Campaign) -> Event | None:
    """The event *Undo* reverses now, or None when there is nothing it can reverse."""
    latest = latest_standing(campaign)
    return latest if latest is not None and latest.reversible else None


def undo_latest(campaign: Campaign, actor: Any, expected_seq: int | None = None) -> Event:
    """Reverse the latest undoable event and record the undo as an event of its own.

    ``expected_seq`` guards against two GMs pressing undo at once: the undo happens only if the
    latest undoable event is still the one the GM was looking at.
    """
    with transaction.atomic():
        lock_campaign(campaign)
        event = latest_undoable(campaign)
        if event is None:
            raise UndoError("There is nothing left to undo.")
        if expected_seq is not None and event.seq != expected_seq:
            raise UndoError(
                f"Event #{expected_seq} is no longer the latest one; the page was out of date."
            )
        recorder = Recorder(
            campaign,
            actor,
            "undo",
            f"Undid #{event.seq}: {event.summary}",
            visibility=event.visibility,
            kingdom=event.kingdom,
            reversible=False,
        )
        # The undo's own writes happen inside its event (it records none of them: an undo is
        # not undone).
        recorder._opened()
        dropped: set[str] = set()
        for change in reversed(event.changes):
            model = apps.get_model(change["model"])
            if change["op"] == "create":
                dropped |= _file_names(model, [change["pk"]])
                model._default_manager.filter(pk=change["pk"]).delete()
            elif change["op"] == "create_many":
                dropped |= _file_names(model, change["pks"])
                model._default_manager.filter(pk__in=change["pks"]).delete()
            elif change["op"] == "update":
                fields = _restore_fields(model, change["fields"])
                dropped |= _file_names(model, [change["pk"]]) - {
                    fields.get(f.attname) or "" for f in _file_fields(model)}
                model._default_manager.filter(pk=change["pk"]).update(
                    **{k: v for k, v in fields.items() if k != model._meta.pk.attname}
                )
            elif change["op"] == "delete":
                fields = _restore_fields(model, change["fields"])
                model(**fields).save(force_insert=True)
                # auto_now/auto_now_add stamp the insert with the current time: put back the
                # recorded times (e.g. when a removed member had joined).
                stamped = {
                    f.attname: fields[f.attname]
                    for f in model._meta.concrete_fields
                    if (getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False))
                    and f.attname in fields
                }
                if stamped:
                    model._default_manager.filter(pk=change["pk"]).update(**stamped)
        now = timezone.now()
        Event.objects.filter(pk=event.pk).update(
            undone_at=now, undone_by=actor if getattr(actor, "is_authenticated", False) else None
        )
        campaign.refresh_from_db()
        recorder.campaign = campaign
        undo = recorder.finish()
        Event.objects.filter(pk=undo.pk).update(undo_of=event)
        undo.undo_of = event
        if dropped:
            # Crests and photos the undone event had written are served to anyone with their
            # address: once the undo is committed, delete the ones no row points to any more.
            transaction.on_commit(lambda: delete_files(unreferenced(dropped)))
        return undo


def _file_fields(model: type[models.Model]) -> list[models.FileField]:
    return [f for f in model._meta.concrete_fields if isinstance(f, models.FileField)]


def _file_names(model: type[models.Model], pks: list[Any]) -> set[str]:
    """The stored file names the rows ``pks`` of ``model`` point to (none for most models)."""
    fields = _file_fields(model)
    if not fields:
        return set()
    names: set[str] = set()
    for row in model._default_manager.filter(pk__in=pks).values_list(
            *[f.attname for f in fields]):
        names.update(name for name in row if name)
    return names


def unreferenced(names: set[str]) -> list[str]:
    """Those of ``names`` that no row of any model points to."""
    left = set(names)
    for model in apps.get_models():
        for field in _file_fields(model):
            if not left:
                return []
            used = model._default_manager.filter(**{f"{field.attname}__in": left})
            left -= set(used.values_list(field.attname, flat=True))
    return sorted(left)


# -- taking back one's own latest action ------------------------------------------------------


class TakeBackRefused(UndoError):
    """A player's own latest action cannot be taken back (the reason is the message)."""


def step_still_open(campaign: Campaign, event: Event) -> bool:
    """Whether the step ``event`` belongs to is still open, as the campaign's rule system says
    through its ``step_open(campaign, event)`` shell hook. A system without the hook lets
    nobody take an action back (the GM still undoes from the chronicle)."""
    hook = campaign.system.hook("step_open")
    return bool(hook is not None and hook(campaign, event))


def take_back_refusal(campaign: Campaign, user: Any, event: Event | None,
                      latest: Event | None) -> str | None:
    """Why ``user`` may not take back ``event`` now (``latest`` is the campaign's latest event
    still in effect), or None when they may."""
    if event is None or event.undo_of_id is not None:
        return "There is no such action of yours to take back."
    if event.actor_id is None or event.actor_id != getattr(user, "pk", None):
        return ("That action is not yours to take back: only the GM can undo it, from the "
                "chronicle.")
    if event.undone_at is not None:
        return "That action was taken back already."
    if latest is None or latest.pk != event.pk:
        return ("You can no longer take that back: someone acted after it. Ask the GM to undo "
                "it from the chronicle.")
    if not event.reversible:
        return "That action cannot be taken back."
    if not step_still_open(campaign, event):
        return ("You can no longer take that back: its step is closed. Ask the GM to undo it "
                "from the chronicle.")
    return None


def take_back(campaign: Campaign, user: Any, seq: int) -> Event:
    """Undo ``user``'s own action ``seq`` (through ``undo_latest``), only while it is the
    campaign's latest event still in effect and the step it belongs to is open.

    Locks the campaign first (the first lock of every writer, ``campaign.locking``), so the
    checks and the undo see one state: an action someone takes meanwhile waits, and one taken
    before makes this refused (``TakeBackRefused``)."""
    with transaction.atomic():
        campaign = lock_campaign(campaign)
        event = campaign.events.defer("changes").filter(seq=seq).first()
        refusal = take_back_refusal(campaign, user, event, latest_standing(campaign))
        if refusal is not None:
            raise TakeBackRefused(refusal)
        return undo_latest(campaign, user, expected_seq=seq)
