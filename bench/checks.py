"""bench/checks.py — the number settings of the Python bench scripts, checked as bench/checks.sh checks the shell
scripts' (imported by bench/inspector.py, bench/inspector_following.py and bench/broadcast_fanout.py)."""

from __future__ import annotations

import os
import re
import sys


def whole_setting(name: str, default: int, low: int, high: int, text: str | None = None) -> int:
    """The whole number the environment (or `text`, an argument) gives for `name`, else `default`; the script stops
    with a message naming the setting when it is not a whole number from `low` to `high`."""
    value = os.environ.get(name) if text is None else text
    if value is None or value == "":
        return default
    if not re.fullmatch(r"[0-9]{1,10}", value) or not low <= int(value) <= high:
        sys.exit(f"{os.path.basename(sys.argv[0])}: {name} must be a whole number from {low} to {high}, got '{value}'")
    return int(value)


def number_setting(name: str, default: float, low: float, high: float) -> float:
    """A number of seconds (decimals allowed) from the environment, checked as `whole_setting` checks."""
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if not re.fullmatch(r"[0-9]{1,6}(\.[0-9]{1,6})?", value) or not low <= float(value) <= high:
        sys.exit(f"{os.path.basename(sys.argv[0])}: {name} must be a number from {low} to {high}, got '{value}'")
    return float(value)
