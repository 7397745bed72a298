"""Mighty Kingdoms rules: pure functions over frozen dataclasses, with no Django import.

``campaign`` holds the clock, map, orders and exploration; ``ledger`` the winter economy;
``battles`` army lists, Unit Strength and Simple battles."""
