"""Forms: they validate what people type; services decide what is allowed."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.text import slugify

from campaign.models import Campaign, Kingdom, MapKind, Membership, Role, Tile
from campaign.parsing import WholeNumberField
from campaign.rules.options import OptionSpec
from campaign.rulesystems import RuleSystem
from campaign.rulesystems import choices as system_choices

COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")
# Addresses under /c/ that are pages of their own, not campaigns.
RESERVED_SLUGS = frozenset({"new", "import"})


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=False, help_text="Only used to reset your password.")

    class Meta:
        model = User
        fields = ("username", "email")


class CampaignCreateForm(forms.Form):
    name = forms.CharField(max_length=100)
    slug = forms.SlugField(
        max_length=60, required=False,
        help_text="The campaign's address, e.g. autumn-league. Left empty, made from the name.",
    )
    rule_system = forms.ChoiceField(choices=())
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)
    width = WholeNumberField(min_value=3, max_value=100, initial=12, help_text="Tiles across.")
    height = WholeNumberField(min_value=3, max_value=100, initial=10, help_text="Tiles down.")
    orientation = forms.ChoiceField(
        choices=[("flat", "Flat-top hexes"), ("pointy", "Pointy-top hexes")], initial="flat"
    )
    random_map = forms.BooleanField(
        required=False, initial=True, label="Start with a random map",
        help_text="Otherwise every tile starts as plain land for you to paint.",
    )
    seed = WholeNumberField(
        required=False, min_value=0, max_value=2**62,
        help_text="Optional: the same seed always gives the same map.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rule_system"].choices = system_choices()

    def clean_slug(self) -> str:
        slug = self.cleaned_data.get("slug") or slugify(self.cleaned_data.get("name", ""))[:60]
        if not slug:
            raise ValidationError("Give the campaign an address made of letters and digits.")
        if slug in RESERVED_SLUGS:
            raise ValidationError(f"{slug!r} is reserved; choose another address.")
        if Campaign.objects.filter(slug=slug).exists():
            raise ValidationError(f"The address {slug!r} is taken; choose another.")
        return slug


def option_field(spec: OptionSpec) -> forms.Field:
    label = f"{spec.label} ({spec.rule_id})" if spec.rule_id else spec.label
    if spec.kind == "bool":
        return forms.BooleanField(required=False, label=label, help_text=spec.help)
    if spec.kind == "int":
        return WholeNumberField(
            required=not spec.nullable, label=label, help_text=spec.help,
            min_value=spec.minimum, max_value=spec.maximum,
        )
    return forms.ChoiceField(choices=spec.choices, label=label, help_text=spec.help)


class CampaignSettingsForm(forms.Form):
    """The campaign's name and printing preferences, plus one field per house-rule option."""

    name = forms.CharField(max_length=100)
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)
    paper_size = forms.ChoiceField(choices=[("a4", "A4"), ("letter", "Letter")])
    eco_print = forms.BooleanField(required=False, label="Black-and-white printing")

    def __init__(self, *args: Any, system: RuleSystem, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.system = system
        for spec in system.options:
            self.fields[f"opt_{spec.name}"] = option_field(spec)

    @classmethod
    def initial_for(cls, campaign: Campaign) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "name": campaign.name,
            "description": campaign.description,
            "paper_size": campaign.paper_size,
            "eco_print": campaign.eco_print,
        }
        options = campaign.system.parse_options(campaign.options)
        for name, value in options.items():
            initial[f"opt_{name}"] = value
        return initial

    def options(self) -> dict[str, Any]:
        return {spec.name: self.cleaned_data.get(f"opt_{spec.name}")
                for spec in self.system.options}

    def option_fields(self) -> list[forms.BoundField]:
        return [self[f"opt_{spec.name}"] for spec in self.system.options]


class InvitationForm(forms.Form):
    # Days the link works; "0" for until revoked. A post without it (an older form) gets the
    # default, a week.
    VALID_FOR = [("1", "1 day"), ("7", "7 days"), ("30", "30 days"), ("0", "Until revoked")]
    DEFAULT_DAYS = 7

    role = forms.ChoiceField(choices=Role.choices, initial=Role.PLAYER)
    single_use = forms.BooleanField(required=False, initial=True, label="Single use")
    valid_for = forms.ChoiceField(choices=VALID_FOR, initial="7", required=False,
                                  label="Link works for")
    note = forms.CharField(max_length=100, required=False, help_text="e.g. who it is for")

    def clean_valid_for(self) -> int:
        value = self.cleaned_data.get("valid_for")
        return self.DEFAULT_DAYS if value in (None, "") else int(value)  # one of VALID_FOR


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Role.choices)


def validate_colour(value: str) -> None:
    if not COLOUR_RE.match(value or ""):
        raise ValidationError("Pick a colour as #rrggbb.")


class KingdomForm(forms.Form):
    name = forms.CharField(max_length=60)
    colour = forms.CharField(
        max_length=7, validators=[validate_colour], widget=forms.TextInput(attrs={"type": "color"}),
        initial="#8a2f2f",
    )
    crest = forms.FileField(
        required=False, help_text="PNG, JPEG or WebP, up to 5 MB. Shown as a 256 px square.",
        widget=forms.ClearableFileInput(attrs={"accept": "image/png,image/jpeg,image/webp"}),
    )
    player = forms.ModelChoiceField(queryset=Membership.objects.none(), required=False,
                                    help_text="Who rules it (GMs only).")

    def __init__(self, *args: Any, campaign: Campaign, allow_player: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if allow_player:
            self.fields["player"].queryset = Membership.objects.filter(
                campaign=campaign, role=Role.PLAYER
            ).select_related("user")
            self.fields["player"].label_from_instance = lambda m: m.user.get_username()
        else:
            del self.fields["player"]

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise ValidationError("A kingdom needs a name.")
        return name


class AssignKingdomForm(forms.Form):
    player = forms.ModelChoiceField(queryset=Membership.objects.none(), required=False)

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = Membership.objects.filter(
            campaign=campaign, role=Role.PLAYER
        ).select_related("user")
        # Membership.__str__ also loads the campaign: one query per player without this.
        self.fields["player"].label_from_instance = lambda m: m.user.get_username()


class TileForm(forms.Form):
    """The GM's precise tile editor in the tile panel (works without JavaScript)."""

    terrain = forms.ChoiceField(choices=())
    settlement = forms.ChoiceField(choices=(), required=False)
    controller = forms.ModelChoiceField(queryset=Kingdom.objects.none(), required=False,
                                        empty_label="Nobody")
    explored = forms.BooleanField(required=False)
    is_start = forms.BooleanField(required=False, label="Starting tile (white circle)")
    name = forms.CharField(max_length=60, required=False)

    def __init__(self, *args: Any, campaign: Campaign, tile: Tile | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        system = campaign.system
        self.fields["terrain"].choices = [(t.slug, t.label) for t in system.terrains]
        self.fields["settlement"].choices = [("", "None")] + [
            (c.slug, c.label) for c in system.settlements
        ]
        self.fields["controller"].queryset = Kingdom.objects.filter(campaign=campaign)
        if tile is not None and tile.map.kind == MapKind.TERRITORY:
            # A territory's borders are drawn by hand: tick the territories it borders.
            others = (Tile.objects.filter(map=tile.map_id).exclude(pk=tile.pk)
                      .order_by("label").values_list("label", "name"))
            self.fields["adjacent"] = forms.MultipleChoiceField(
                label="Borders", required=False, widget=forms.CheckboxSelectMultiple,
                choices=[(label, f"{label} · {name}" if name else label)
                         for label, name in others],
                help_text="Borders go both ways: the territories ticked here list this one too.",
            )


class GenerateMapForm(forms.Form):
    width = WholeNumberField(min_value=3, max_value=100)
    height = WholeNumberField(min_value=3, max_value=100)
    orientation = forms.ChoiceField(choices=[("flat", "Flat-top"), ("pointy", "Pointy-top")])
    seed = WholeNumberField(required=False, min_value=0, max_value=2**62,
                              help_text="Empty: a new random seed.")
    blank = forms.BooleanField(required=False, label="Blank map instead of random")


class PhotoForm(forms.Form):
    image = forms.FileField(
        widget=forms.ClearableFileInput(attrs={"accept": "image/png,image/jpeg,image/webp",
                                               "capture": "environment"}),
        help_text="PNG, JPEG or WebP, up to 5 MB.",
    )
    caption = forms.CharField(max_length=200, required=False)


class ImportForm(forms.Form):
    file = forms.FileField(help_text="A campaign file exported from Hexkeep (.json).")
    slug = forms.SlugField(max_length=60, required=False,
                           help_text="Optional: a new address, if the file's one is taken.")
