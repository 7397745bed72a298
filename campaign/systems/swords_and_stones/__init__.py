"""Swords & Stones: Kingdoms of Avalon (v1.3): the Grand Campaign and the kingdom economy.

The pure rules live in ``rules/``; they follow the rule IDs of the digest
``shared/rules/swords-and-stones.md``.
"""
