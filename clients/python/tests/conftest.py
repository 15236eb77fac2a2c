"""The plugin's own suite: pytester runs test files that use the plugin, in subprocesses, against the built
binary (MOCK_APNS_BIN, else the checkout's .build/debug/mock-apns)."""

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
HERE = pathlib.Path(__file__).resolve().parent


@pytest.fixture
def binary():
    path = os.environ.get("MOCK_APNS_BIN") or str(ROOT / ".build" / "debug" / "mock-apns")
    if not os.access(path, os.X_OK):
        pytest.fail(f"no mock-apns binary at {path}: swift build, or set MOCK_APNS_BIN")
    return os.path.abspath(path)


@pytest.fixture
def inner(pytester, monkeypatch, binary):
    """pytester with the environment an inner pytest run gets: the binary, apns_send importable, no attach URL."""
    monkeypatch.setenv("MOCK_APNS_BIN", binary)
    monkeypatch.setenv("PYTHONPATH", str(HERE))
    for name in ("MOCK_APNS_CONTROL_URL", "MOCK_APNS_CONTROL_TOKEN", "MOCK_APNS_SCENARIO", "MOCK_APNS_ARGS",
                 "MOCK_APNS_TIMEOUT", "MOCK_APNS_RESET", "MOCK_APNS_MISSING", "MOCK_APNS_START_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)
    return pytester
