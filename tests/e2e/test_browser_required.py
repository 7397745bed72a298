"""Without a browser the browser tests fail: CI must never pass by skipping them."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import conftest


def test_a_missing_chromium_fails_the_test(monkeypatch: Any) -> None:
    monkeypatch.setattr(conftest, "CHROMIUM", "/nonexistent/chromium")
    with pytest.raises(pytest.fail.Exception,
                       match="Chromium not found at /nonexistent/chromium: run `make test`"):
        conftest.require_chromium()


def test_the_phone_helper_fails_too(monkeypatch: Any) -> None:
    from tests import phone

    monkeypatch.setattr(phone, "CHROMIUM", "/nonexistent/chromium")
    with pytest.raises(pytest.fail.Exception, match="Chromium not found"):
        phone.on_a_phone(lambda context: None)


def test_no_browser_test_skips() -> None:
    """No skip, skipif or importorskip anywhere the browser tests live."""
    root = Path(__file__).resolve().parents[1]
    for path in [*root.joinpath("e2e").glob("*.py"), root / "phone.py"]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
        assert not names & {"skip", "skipif", "importorskip"}, path.name
