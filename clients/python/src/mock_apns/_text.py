"""Failure text, worded as the Swift helpers' and `mock-apns run`'s: what was expected, what arrived, the nearest
miss field by field, then what was received."""

from __future__ import annotations

from typing import Any, Callable, List, Mapping, Optional

RECEIVED_LIMIT = 10
_API_NAMES = {"push_type": "pushType", "apns_id": "apnsID"}


def _short(token: Optional[str]) -> str:
    if not token:
        return "-"
    return token if len(token) <= 14 else f"{token[:6]}…{token[-6:]}"


def filters_text(filters: Mapping[str, Any]) -> str:
    """`token:0123…, topic:com.example.app`, in the control API's names; `any push` with no filter."""
    shown = [f"{_API_NAMES.get(name, name)}:{value}" for name, value in filters.items() if value is not None]
    return ", ".join(shown)


def _pushes(count: int) -> str:
    return f"{count} push" if count == 1 else f"{count} pushes"


def _expected(count: int, filters: Mapping[str, Any], limit: str, where: Optional[Callable]) -> str:
    matching = filters_text(filters)
    text = _pushes(count) + (f" matching {matching}" if matching else "")
    if where is not None:
        text += f" and where={getattr(where, '__name__', 'predicate')}"
    return f"{text}, within {limit}"


def summary_line(record: Mapping[str, Any]) -> str:
    """One record as `mock-apns` lists it: `#3 alert com.example.app → 0123ab…89cdef: 200 Hello`."""
    if record.get("kind", "push") != "push":
        return f"#{record.get('sequence')} {record.get('kind')}"
    status = record.get("status")
    if status is None and isinstance(record.get("response"), dict):
        status = record["response"].get("status")
    result = "no answer" if status is None else str(status)
    if record.get("reason"):
        result += f" {record['reason']}"
    if record.get("device"):
        device = record["device"]
        result += f", phone {device.get('outcome') if isinstance(device, dict) else device}"
    text = record.get("text")
    return (
        f"#{record.get('sequence')} {record.get('pushType') or '-'} {record.get('topic') or '-'} → "
        f"{_short(record.get('token'))}: {result}" + (f" {text}" if text else "")
    )


def _nearest(answer: Mapping[str, Any]) -> str:
    misses = answer.get("nearMisses") or []
    if not misses:
        return "Nearest: none (no other push differs in one field only)"
    miss = misses[0]
    at = str(miss.get("record", {}).get("receivedAt", ""))[11:23]
    when = f" at {at}" if at else ""
    return (
        f"Nearest: #{miss.get('sequence')}{when} — {miss.get('field')} was {miss.get('actual')} "
        f"(expected {miss.get('expected')})"
    )


def _received(records: List[Mapping[str, Any]]) -> List[str]:
    if not records:
        return ["received: nothing since the test started"]
    shown = f" (the newest {len(records)})" if len(records) >= RECEIVED_LIMIT else ""
    return [f"received{shown}:"] + ["  " + summary_line(record) for record in records]


def expect_push_failure(
    filters: Mapping[str, Any],
    count: int,
    limit: str,
    found: List[Mapping[str, Any]],
    answer: Mapping[str, Any],
    unmatched: List[Mapping[str, Any]],
    where: Optional[Callable],
    received: List[Mapping[str, Any]],
) -> str:
    lines = [f"expected {_expected(count, filters, limit, where)}; got {len(found)}."]
    if len(found) > count:
        lines.append("more arrived than expected: " + ", ".join(f"#{r.get('sequence')}" for r in found))
    if unmatched:
        lines.append(
            f"{len(unmatched)} matched the filters but not the where= condition: "
            + ", ".join(f"#{r.get('sequence')}" for r in unmatched)
        )
    if len(found) < count:
        lines.append(_nearest(answer))
    return "\n".join(lines + _received(received))


def expect_no_push_failure(
    filters: Mapping[str, Any],
    limit: str,
    found: List[Mapping[str, Any]],
    where: Optional[Callable],
    received: List[Mapping[str, Any]],
) -> str:
    first = found[0]
    lines = [
        f"expected no push matching {filters_text(filters) or 'anything'}, within {limit}; got "
        f"#{first.get('sequence')}: {summary_line(first)}"
    ]
    return "\n".join(lines + _received(received))


def verify_failure(report: Mapping[str, Any]) -> str:
    lines = []
    for item in report.get("items", []):
        if item.get("passed"):
            continue
        lines.append(f"✗ {item.get('name')}: {item.get('summary')}")
        lines += ["    " + detail for detail in item.get("details", [])]
    lines.append(str(report.get("summary", "")))
    return "\n".join(lines)
