"""The control API over HTTP/1.1 with the standard library only (urllib), and the errors it raises."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Iterable, Mapping, Optional, Tuple


class MockAPNsError(Exception):
    """mock-apns could not be started, reached or understood: the message says what to do."""


class ControlError(MockAPNsError):
    """The control API refused a call (4xx): `status` and the server's `error` text, and the parsed `body`."""

    def __init__(self, method: str, path: str, status: int, body: Any):
        self.status = status
        self.body = body
        error = body.get("error") if isinstance(body, dict) else None
        self.error = error or str(body)
        super().__init__(f"{method} {path}: {status} {self.error}")


class Control:
    """The control API of one mock at `url` (`http://127.0.0.1:2190`), with an optional bearer `token`."""

    def __init__(self, url: str, token: Optional[str] = None, timeout: float = 30.0):
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def call(
        self,
        method: str,
        path: str,
        query: Optional[Iterable[Tuple[str, Any]]] = None,
        body: Any = None,
        accept: Iterable[int] = (),
        timeout: Optional[float] = None,
    ) -> Tuple[int, Any]:
        """Sends one request and answers `(status, parsed JSON)`; a status of 400 or more not in `accept` raises
        `ControlError`, an unreachable server or an answer that is not mock-apns's JSON raises `MockAPNsError`."""
        target = self.url + path
        pairs = [(name, _text(value)) for name, value in (query or []) if value is not None]
        if pairs:
            target += "?" + urllib.parse.urlencode(pairs)
        data = None
        headers = {"Accept": "application/json"}
        if body is not None:
            data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        request = urllib.request.Request(target, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=timeout or self.timeout) as answer:
                status, raw = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise MockAPNsError(
                f"cannot reach the mock-apns control API at {self.url} ({reason}): is it running? "
                "Check the URL (MOCK_APNS_CONTROL_URL, --mock-apns-url) or let the plugin start one"
            ) from None
        try:
            parsed = json.loads(raw.decode() or "null")
        except (UnicodeDecodeError, ValueError):
            raise MockAPNsError(
                f"{method} {self.url}{path} answered {status} with something that is not mock-apns's JSON "
                f"({raw[:120]!r}): is {self.url} the control API of mock-apns (not its APNs port, not another "
                "service)?"
            ) from None
        if status == 401:
            raise MockAPNsError(
                f"the mock-apns control API at {self.url} wants a bearer token: set MOCK_APNS_CONTROL_TOKEN "
                "(or --mock-apns-token)"
            )
        if status >= 400 and status not in accept:
            raise ControlError(method, path, status, parsed)
        return status, parsed

    def get(self, path: str, **query: Any) -> Any:
        return self.call("GET", path, list(query.items()))[1]

    def info(self) -> Mapping[str, Any]:
        """`GET /v1/info`, checked to be a live mock-apns."""
        info = self.get("/v1/info")
        if not isinstance(info, dict) or "apnsURL" not in info or "mode" not in info:
            raise MockAPNsError(
                f"{self.url}/v1/info answered {str(info)[:120]}, not mock-apns's info: is {self.url} the control "
                "API of mock-apns?"
            )
        if info.get("mode") != "live":
            raise MockAPNsError(f"{self.url} serves a journal file read back (mock-apns inspect), not a live mock")
        return info


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
