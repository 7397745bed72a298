"""Settings come from the environment: production settings pass Django's deploy checks, and bad
or missing values stop the site from starting instead of running insecurely."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(60),
    "ALLOWED_HOSTS": "hexkeep.example.com",
}


def clean_env(**values: str) -> dict[str, str]:
    """The test process's environment without anything the settings read, plus ``values``."""
    read = {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "MEDIA_ROOT", "STATIC_ROOT",
            "CSRF_TRUSTED_ORIGINS", "CONN_MAX_AGE", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS",
            "EMAIL_BACKEND", "EMAIL_PORT", "EMAIL_USE_TLS", "DJANGO_SETTINGS_MODULE", "LOG_LEVEL",
            # Set by the browser tests' fixture in the same worker; never in a deployment.
            "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {k: v for k, v in os.environ.items() if k not in read}
    env["DJANGO_SETTINGS_MODULE"] = "campaign.settings"
    env.update(values)
    return env


def run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=clean_env(**env),
                          capture_output=True, text=True, timeout=120)


def load_settings(**env: str) -> dict[str, Any]:
    code = (
        "import json\n"
        "from django.conf import settings\n"
        "print(json.dumps({'DATABASES': settings.DATABASES, 'DEBUG': settings.DEBUG,\n"
        "    'ALLOWED_HOSTS': settings.ALLOWED_HOSTS, 'MIDDLEWARE': settings.MIDDLEWARE,\n"
        "    'SESSION_COOKIE_SECURE': getattr(settings, 'SESSION_COOKIE_SECURE', None),\n"
        "    'CSRF_COOKIE_SECURE': getattr(settings, 'CSRF_COOKIE_SECURE', None),\n"
        "    'SECURE_HSTS_SECONDS': getattr(settings, 'SECURE_HSTS_SECONDS', None),\n"
        "    'STORAGES': settings.STORAGES,\n"
        "    'EMAIL_BACKEND': settings.EMAIL_BACKEND}, default=str))\n"
    )
    result = run(["-c", code], **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_check_deploy_is_clean_with_production_settings() -> None:
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "System check identified no issues (0 silenced)."
    assert "WARNING" not in result.stderr and "?:" not in result.stderr


def test_check_deploy_complains_about_debug_in_production() -> None:
    """The check above can fail: DEBUG on is reported."""
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                 **{**PRODUCTION, "DEBUG": "1"})
    assert result.returncode == 1
    assert "security.W018" in result.stderr


def test_production_settings_are_hardened() -> None:
    values = load_settings(**PRODUCTION)
    assert values["DEBUG"] is False
    assert values["ALLOWED_HOSTS"] == ["hexkeep.example.com"]
    assert values["SESSION_COOKIE_SECURE"] is True and values["CSRF_COOKIE_SECURE"] is True
    assert values["SECURE_HSTS_SECONDS"] == 31536000
    assert "whitenoise.middleware.WhiteNoiseMiddleware" in values["MIDDLEWARE"]
    assert values["STORAGES"]["staticfiles"]["BACKEND"] == (
        "whitenoise.storage.CompressedManifestStaticFilesStorage"
    )
    assert values["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"


def test_missing_secret_key_with_debug_off_fails() -> None:
    env = {k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"}
    result = run(["manage.py", "check"], **env)
    assert result.returncode != 0
    assert ("django.core.exceptions.ImproperlyConfigured: SECRET_KEY must be set when DEBUG is off."
            in result.stderr)


def test_debug_defaults_to_off() -> None:
    """With no DEBUG at all the site is in production mode, so it needs a SECRET_KEY."""
    result = run(["manage.py", "check"])
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off." in result.stderr


@pytest.mark.parametrize("value", ["maybe", "2", "yess", "enabled"])
def test_bad_debug_value_fails_loudly(value: str) -> None:
    result = run(["manage.py", "check"], **{**PRODUCTION, "DEBUG": value})
    assert result.returncode != 0
    assert f"ImproperlyConfigured: DEBUG must be true or false, not '{value}'." in result.stderr


@pytest.mark.parametrize(("value", "expected"), [("1", True), ("true", True), ("Yes", True),
                                                 ("on", True), ("0", False), ("false", False),
                                                 ("NO", False), ("off", False), ("", False)])
def test_debug_values(value: str, expected: bool) -> None:
    assert load_settings(**{**PRODUCTION, "DEBUG": value})["DEBUG"] is expected


def test_bad_whole_number_fails_loudly() -> None:
    result = run(["manage.py", "check"], **{**PRODUCTION, "CONN_MAX_AGE": "forever"})
    assert result.returncode != 0
    assert "CONN_MAX_AGE must be a whole number, not 'forever'." in result.stderr


def test_postgres_database_url() -> None:
    values = load_settings(**PRODUCTION,
                           DATABASE_URL="postgres://hex:s3cret@db.example.com:5433/hexkeep",
                           CONN_MAX_AGE="120")
    db = values["DATABASES"]["default"]
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["NAME"], db["USER"], db["PASSWORD"], db["HOST"], db["PORT"]) == (
        "hexkeep", "hex", "s3cret", "db.example.com", 5433
    )
    assert db["CONN_MAX_AGE"] == 120
    assert db["CONN_HEALTH_CHECKS"] is True
    # The SQLite tuning is for SQLite only.
    assert "init_command" not in db.get("OPTIONS", {})


def test_a_postgresql_connection_is_kept_ten_minutes_unless_told() -> None:
    """The pages' prepared reads and their plans live on the connection (docs/deployment.md,
    "Prepared reads"): kept 600 s, checked before reuse."""
    db = load_settings(**PRODUCTION, DATABASE_URL="postgres://hex@db.example.com/hexkeep")[
        "DATABASES"]["default"]
    assert (db["CONN_MAX_AGE"], db["CONN_HEALTH_CHECKS"]) == (600, True)


def test_sqlite_is_the_default_and_tuned() -> None:
    db = load_settings(**PRODUCTION)["DATABASES"]["default"]
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert db["NAME"] == str(ROOT / "db.sqlite3")
    assert db["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "PRAGMA journal_mode=WAL" in db["OPTIONS"]["init_command"]


def test_sqlite_file_database_uses_wal(tmp_path: Path) -> None:
    """A real database file opened with the site's settings is in WAL mode."""
    code = (
        "import django; django.setup()\n"
        "from django.db import connection\n"
        "with connection.cursor() as c:\n"
        "    c.execute('PRAGMA journal_mode'); print(c.fetchone()[0])\n"
    )
    result = run(["-c", code], **PRODUCTION, DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "wal"


def test_connection_settings_put_sqlite_in_wal_mode(tmp_path: Path) -> None:
    """A SQLite DATABASE_URL (the default) opens in WAL mode with synchronous=NORMAL, whatever
    database the suite itself runs on."""
    code = (
        "import django\n"
        "django.setup()\n"
        "from django.db import connection\n"
        "with connection.cursor() as cursor:\n"
        "    cursor.execute('PRAGMA journal_mode')\n"
        "    print(cursor.fetchone()[0])\n"
        "    cursor.execute('PRAGMA synchronous')\n"
        "    print(cursor.fetchone()[0])\n"
    )
    result = run(["-c", code], DEBUG="1",
                 DATABASE_URL=f"sqlite:///{tmp_path / 'wal.sqlite3'}")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["wal", "1"]  # 1 = NORMAL
