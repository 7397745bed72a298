"""Fill in and post the forms a page shows, as a browser would, for tests that play through the
web views: the fields, their offered choices and the CSRF token all come from the page's HTML.

``forms(html)`` reads every ``<form>``; ``Form.fill`` refuses a value the page does not offer
(a choice missing from a select or a radio group, a field that is not there); ``Form.data``
is what a browser would send: hidden fields, ticked boxes, chosen options, typed text, and the
pressed button's name and value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any


@dataclass
class Field:
    name: str
    kind: str  # hidden, text, number, radio, checkbox, select, textarea, submit
    value: str = ""
    checked: bool = False
    disabled: bool = False
    options: list[str] = field(default_factory=list)
    label: str = ""


@dataclass
class Form:
    action: str
    method: str
    fields: list[Field] = field(default_factory=list)
    buttons: list[Field] = field(default_factory=list)
    text: str = ""

    def hidden(self) -> dict[str, str]:
        return {f.name: f.value for f in self.fields if f.kind == "hidden"}

    def has(self, name: str) -> bool:
        return any(f.name == name for f in self.fields)

    def choices(self, name: str) -> list[str]:
        """What the page offers for ``name``: a select's options, a radio group's values, the
        values of same-named checkboxes."""
        found = []
        for f in self.fields:
            if f.name == name and not f.disabled:
                found += f.options if f.kind == "select" else [f.value]
        return found

    def fill(self, **values: Any) -> Form:
        """Choose or type values; lists tick several same-named checkboxes."""
        for name, value in values.items():
            targets = [f for f in self.fields if f.name == name]
            assert targets, f"The form to {self.action} has no field {name!r}."
            wanted = [str(v) for v in value] if isinstance(value, (list, tuple)) else [str(value)]
            kind = targets[0].kind
            if kind in ("radio", "checkbox"):
                offered = [f.value for f in targets if not f.disabled]
                for v in wanted:
                    assert v in offered, f"{name}={v!r} is not offered: {offered}"
                for f in targets:
                    f.checked = f.value in wanted
            elif kind == "select":
                assert wanted[0] in targets[0].options, (
                    f"{name}={wanted[0]!r} is not offered: {targets[0].options}")
                targets[0].value = wanted[0]
            else:
                assert len(targets) == 1 or len(wanted) == len(targets)
                for f, v in zip(targets, wanted * len(targets)):
                    f.value = v
        return self

    def data(self, button: str | None = None) -> dict[str, Any]:
        sent: dict[str, list[str]] = {}
        for f in self.fields:
            if f.disabled:
                continue
            if f.kind in ("radio", "checkbox") and not f.checked:
                continue
            sent.setdefault(f.name, []).append(f.value)
        if button is not None:
            pressed = [b for b in self.buttons if b.label == button or b.value == button]
            assert pressed, f"No button {button!r} in the form to {self.action}."
            if pressed[0].name:
                sent.setdefault(pressed[0].name, []).append(pressed[0].value)
        return {k: v if len(v) > 1 else v[0] for k, v in sent.items()}

    def submit(self, client: Any, button: str | None = None, **headers: Any) -> Any:
        assert self.method == "post"
        for b in self.buttons:
            if b.label == button or button is None:
                assert not b.disabled, f"The button {b.label!r} is disabled."
                break
        return client.post(self.action, self.data(button), **headers)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.select: Field | None = None
        self.option: list[Any] | None = None
        self.button: Field | None = None
        self.textarea: Field | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self.form = Form(a.get("action", ""), a.get("method", "get").lower())
            self.forms.append(self.form)
        if self.form is None:
            return
        disabled = "disabled" in a
        if tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind == "submit":
                self.form.buttons.append(Field(a["name"], kind, a.get("value", ""),
                                               disabled=disabled, label=a.get("value", "")))
            else:
                self.form.fields.append(Field(a["name"], kind, a.get("value", "on" if kind in (
                    "checkbox", "radio") else ""), "checked" in a, disabled))
        elif tag == "select" and a.get("name"):
            self.select = Field(a["name"], "select", disabled=disabled)
            self.form.fields.append(self.select)
        elif tag == "option" and self.select is not None:
            self.option = [a.get("value"), "selected" in a, ""]
        elif tag == "textarea" and a.get("name"):
            self.textarea = Field(a["name"], "textarea", disabled=disabled)
            self.form.fields.append(self.textarea)
        elif tag == "button":
            self.button = Field(a.get("name", ""), "submit", a.get("value", ""),
                                disabled=disabled)
            self.form.buttons.append(self.button)

    def handle_data(self, data: str) -> None:
        if self.form is not None:
            self.form.text += data
        if self.option is not None:
            self.option[2] += data
        if self.button is not None:
            self.button.label += data
        if self.textarea is not None:
            self.textarea.value += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None
        elif tag == "select":
            if self.select is not None and not self.select.value and self.select.options:
                self.select.value = self.select.options[0]
            self.select = None
        elif tag == "option" and self.option is not None and self.select is not None:
            value = self.option[0] if self.option[0] is not None else self.option[2].strip()
            self.select.options.append(value)
            if self.option[1]:
                self.select.value = value
            self.option = None
        elif tag == "button" and self.button is not None:
            self.button.label = " ".join(self.button.label.split())
            if not self.button.value:
                self.button.value = self.button.label
            self.button = None
        elif tag == "textarea":
            self.textarea = None


def forms(html: str) -> list[Form]:
    reader = _Reader()
    reader.feed(html)
    return reader.forms


def find(html: str, action: str, **hidden: Any) -> Form:
    """The one form posting to ``action`` whose hidden fields include ``hidden``."""
    wanted = {k: str(v) for k, v in hidden.items()}
    found = [f for f in forms(html) if f.action == action
             and all(f.hidden().get(k) == v for k, v in wanted.items())]
    assert len(found) == 1, (f"{len(found)} forms to {action} with {wanted}; the page has: "
                             f"{[(f.action, f.hidden()) for f in forms(html)]}")
    return found[0]


def find_all(html: str, action: str, **hidden: Any) -> list[Form]:
    wanted = {k: str(v) for k, v in hidden.items()}
    return [f for f in forms(html) if f.action == action
            and all(f.hidden().get(k) == v for k, v in wanted.items())]
