"""Campaign options (house rules): a small, pure description shared by every rule system.

A rule system lists its options as ``OptionSpec`` values. ``parse_options`` turns the JSON stored on
a campaign into a plain dict of validated values, filling in defaults, and raises ``OptionError``
naming the offending option otherwise. The campaign settings form is built from the same specs, so
what the form offers and what the rules accept cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


class OptionError(ValueError):
    """A stored or submitted option value is not acceptable."""


@dataclass(frozen=True)
class OptionSpec:
    """One campaign option.

    ``kind`` is ``"bool"``, ``"int"`` or ``"choice"``. ``rule_id`` names the rule or ambiguity the
    option comes from (e.g. ``"MK-AMB-1"``), shown next to the option in the settings form.
    """

    name: str
    label: str
    kind: str
    default: Any
    rule_id: str = ""
    help: str = ""
    choices: tuple[tuple[str, str], ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)

    def parse(self, value: Any) -> Any:
        """Validate one value; ``None`` is only accepted for nullable options."""
        if value is None:
            if self.nullable:
                return None
            raise OptionError(f"{self.label}: a value is required.")
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise OptionError(f"{self.label}: expected true or false, got {value!r}.")
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"{self.label}: expected a whole number, got {value!r}.")
            if self.minimum is not None and value < self.minimum:
                raise OptionError(f"{self.label}: must be at least {self.minimum}.")
            if self.maximum is not None and value > self.maximum:
                raise OptionError(f"{self.label}: must be at most {self.maximum}.")
            return value
        if self.kind == "choice":
            allowed = [key for key, _ in self.choices]
            if value not in allowed:
                raise OptionError(f"{self.label}: {value!r} is not one of {', '.join(allowed)}.")
            return value
        raise OptionError(f"{self.label}: unknown option kind {self.kind!r}.")


def parse_options(specs: tuple[OptionSpec, ...], data: Mapping[str, Any] | None) -> dict[str, Any]:
    """Return every option's value, defaults filled in; unknown keys are an error."""
    data = dict(data or {})
    known = {spec.name for spec in specs}
    unknown = sorted(set(data) - known)
    if unknown:
        raise OptionError(f"Unknown option(s): {', '.join(unknown)}.")
    return {spec.name: spec.parse(data.get(spec.name, spec.default)) for spec in specs}


def default_options(specs: tuple[OptionSpec, ...]) -> dict[str, Any]:
    """The options of a campaign that changed nothing."""
    return {spec.name: spec.default for spec in specs}
