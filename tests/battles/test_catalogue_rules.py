"""The unit catalogue's text and CSV reader (battles.rules.catalogue): pure, no database."""

from __future__ import annotations

from battles.rules.catalogue import (
    ProfileEntry,
    as_line,
    looks_like_csv,
    parse_csv,
    parse_text,
)

TEXT = """# the Ironhold catalogue
Ironguard, regiment, 145; US 2; stats Sp 4 Me 3+ De 5+ Att 12 Ne 14/16; rules Headstrong, \
Shield Wall

Greatbow Volley, troop, 90 pts; us: 1; rules Piercing (1)
Garrek, the Bold, hero (infantry), 100 points
"""


def test_text_reads_every_field_and_skips_comments_and_blank_lines() -> None:
    parsed = parse_text(TEXT)
    assert parsed.errors == ()
    assert parsed.profiles == (
        ProfileEntry("Ironguard", "regiment", 145, 2, "Sp 4 Me 3+ De 5+ Att 12 Ne 14/16",
                     "Headstrong, Shield Wall"),
        ProfileEntry("Greatbow Volley", "troop", 90, 1, "", "Piercing (1)"),
        ProfileEntry("Garrek, the Bold", "hero (infantry)", 100, None, "", ""),
    )


def test_text_refusals_name_their_line_numbers_and_every_problem() -> None:
    parsed = parse_text("Ironguard, regiment, 145\n\nNo points here\nSpears, horde, lots\n"
                        "Ogres, horde, 0; US 9\nKnights, regiment, 120; colour red\n"
                        "ironguard, Regiment, 150\nArchers, troop, ٣\n")
    assert parsed.profiles == (ProfileEntry("Ironguard", "regiment", 145),)
    assert parsed.errors == (
        (3, "write it as: name, type, points (then ; US 2; stats ...; rules ...)."),
        (4, "points must be a whole number, not 'lots'."),
        (5, "points must be from 1 to 2000, not 0; Unit Strength must be a whole number from "
            "0 to 5, not '9'."),
        (6, "'colour red' is not an option (US, stats or rules)."),
        (7, "ironguard (Regiment) is already on line 1."),
        (8, "points must be a whole number, not '٣'."),
    )


def test_text_refuses_an_option_given_twice_and_overlong_fields() -> None:
    parsed = parse_text("A, troop, 10; US 1; US 2\n" + "B" * 101 + ", troop, 10\n")
    assert parsed.errors == ((1, "'us' is given twice."),
                             (2, "the name is longer than 100 characters."))


def test_csv_reads_a_header_in_any_case_and_spacing() -> None:
    parsed = parse_csv("Name,Unit Type,Points,Base_US,Stat line,Special Rules\n"
                       'Ironguard,regiment,145,2,Sp 4 Me 3+,"Headstrong, Shield Wall"\n'
                       "\n"
                       "Scouts,troop,60,,,\n")
    assert parsed.errors == ()
    assert parsed.profiles == (
        ProfileEntry("Ironguard", "regiment", 145, 2, "Sp 4 Me 3+", "Headstrong, Shield Wall"),
        ProfileEntry("Scouts", "troop", 60, None, "", ""),
    )


def test_csv_refusals_are_numbered_by_line_of_the_file() -> None:
    parsed = parse_csv("name,type,points,us\nA,troop,10,1\n,troop,10,1\nB,troop,x,\n"
                       "C,troop,10,1,extra\n")
    assert parsed.profiles == (ProfileEntry("A", "troop", 10, 1),)
    assert parsed.errors == (
        (3, "the name is missing."),
        (4, "points must be a whole number, not 'x'."),
        (5, "the row has 5 cells, the header 4."),
    )


def test_csv_header_problems_are_line_one() -> None:
    assert parse_csv("name,kind,cost\n").errors == (
        (1, "'kind' is not a column this reads; the header lacks 'type' (columns: name, "
            "type, points, us, stats, rules)."),)
    assert parse_csv("").errors[0][0] == 1


def test_a_catalogue_written_as_text_reads_back_the_same() -> None:
    parsed = parse_text(TEXT)
    again = parse_text("\n".join(as_line(p) for p in parsed.profiles))
    assert again == parsed


def test_csv_is_told_from_text_by_its_header() -> None:
    assert looks_like_csv("name,type,points\nA,troop,10\n")
    assert not looks_like_csv(TEXT)
