"""Campaign files: a whole campaign as one versioned JSON document, and back.

``export_campaign(campaign)`` builds the document (a dict), ``dumps(data)`` turns it into the text
of a ``.hexkeep.json`` file, ``loads(text)`` reads such a text back, and
``import_campaign(data, user, slug=None)`` creates a new campaign from the document, or raises
``ImportRefused`` and writes nothing. docs/campaign-file.md describes every field.

The package:

- ``base``: the error, JSON reading, typed getters that refuse with a path, reference strings;
- ``exporting`` and ``importing``: the core, which carries what every campaign has (the campaign,
  members, kingdoms, map, chronicle, photos, the ledger, and the shared forces of the battles
  app: armies, battles, army lists, units and Unit Strength);
- ``sections``: the hook through which each rule system carries its own tables in its own
  versioned section (``RuleSystem.transfer``), e.g. campaign.systems.mighty_kingdoms.transfer.

Objects refer to each other by natural keys (kingdom names, tile labels, army numbers, usernames,
event numbers, battles by year, month and number), never by database ids, so a file can be
imported on any Hexkeep site. Rule-system JSON that holds database ids has them rewritten as
reference strings on export and back to the new ids on import (the system's ``JSON_REFS``).

What a file does not carry:

- invitations: their tokens are secrets bound to the site that issued them;
- print jobs: generated PDFs, made again on demand;
- the undo data of chronicle events (``Event.changes``): it is made of database ids. The imported
  chronicle is therefore read-only: every imported event has ``reversible=False``, and undo starts
  working again with the first new event written after the import.
"""

from __future__ import annotations

from campaign.transfer.base import (
    FORMAT,
    IMPORT_EVENT,
    MAX_DEPTH,
    READS,
    VERSION,
    ImportRefused,
    dumps,
    loads,
)
from campaign.transfer.exporting import export_campaign
from campaign.transfer.importing import (
    OPENING_SOURCE,
    ImportReport,
    import_campaign,
    import_notes,
    is_reserved,
)

__all__ = [
    "FORMAT",
    "IMPORT_EVENT",
    "MAX_DEPTH",
    "OPENING_SOURCE",
    "READS",
    "VERSION",
    "ImportRefused",
    "ImportReport",
    "dumps",
    "export_campaign",
    "import_campaign",
    "import_notes",
    "is_reserved",
    "loads",
]
