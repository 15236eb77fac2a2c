"""`MockAPNs`: one mock-apns server, started here or attached to, with the calls a test makes on it."""

from __future__ import annotations

import os
import re
import secrets
import time
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

from ._control import Control, ControlError, MockAPNsError
from ._process import ServerProcess
from . import _text

Record = Dict[str, Any]
Duration = Union[str, float, int]

# Python's names for the control API's filters; any other keyword goes as written (`device=`, `q=`, `warnings=`).
FILTER_NAMES = {"push_type": "pushType", "apns_id": "apnsID", "older_than": "olderThan"}
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$")


def duration_text(value: Duration) -> str:
    """`value` as the control API writes durations: `"5s"` stays, a number of seconds becomes `"2.5s"`."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if value < 0:
            raise ValueError(f"a duration must not be negative, got {value}")
        return f"{value:g}s"
    if not isinstance(value, str) or not _DURATION.match(value):
        raise ValueError(f"a duration is a number of seconds or text such as '250ms', '5s', '1m', got {value!r}")
    return value.strip()


def duration_seconds(value: Duration) -> float:
    match = _DURATION.match(duration_text(value))
    number, unit = float(match.group(1)), match.group(2) or "s"
    return number * {"ms": 0.001, "s": 1, "m": 60, "h": 3600}[unit]


def new_token() -> str:
    """A random 32-byte device token in hex, as APNs tokens are: unique to the caller."""
    return secrets.token_hex(32)


class Clock:
    """The mock's clock (`/v1/clock`): `advance("9h")`, `set("2026-11-25T09:00:00Z")`, `reset()`, `now()`."""

    def __init__(self, control: Control):
        self._control = control

    def now(self) -> Mapping[str, Any]:
        """`GET /v1/clock`: `{"now": ..., "offset": ...}`."""
        return self._control.get("/v1/clock")

    def advance(self, by: Duration) -> Mapping[str, Any]:
        """Moves the clock `by` ahead ("9h", "61m"; "-5m" moves it back)."""
        text = by if isinstance(by, str) else duration_text(by)
        return self._control.call("POST", "/v1/clock", body={"advance": text})[1]

    def set(self, to: str) -> Mapping[str, Any]:
        """Sets the clock to an ISO 8601 time."""
        return self._control.call("POST", "/v1/clock", body={"set": to})[1]

    def reset(self) -> Mapping[str, Any]:
        """Real time again."""
        return self._control.call("POST", "/v1/clock", body={"reset": True})[1]


class MockAPNs:
    """A mock-apns server for tests: `MockAPNs.start()` starts the binary (a context manager that stops it),
    `MockAPNs.attach(control_url)` uses one that runs already (as under `mock-apns run`)."""

    def __init__(
        self,
        control: Control,
        info: Mapping[str, Any],
        process: Optional[ServerProcess] = None,
        default_timeout: Duration = "5s",
    ):
        self.control = control
        self.process = process
        self.attached = process is None
        self.default_timeout = default_timeout
        self.apns_url: str = info["apnsURL"]
        # The broadcast channel management URL (None from a server older than channels).
        self.channels_url: Optional[str] = info.get("channelsURL")
        self.control_url: str = control.url
        self.ca_file: Optional[str] = info.get("caFile")
        self.key_file: Optional[str] = info.get("keyFile")
        self.key_id: str = info.get("keyID") or "TESTKEY001"
        self.team_id: str = info.get("teamID") or "TESTTEAM01"
        self.environment: str = info.get("environment") or "sandbox"
        self.version: str = info.get("version") or ""
        self.pid: Optional[int] = info.get("pid")
        self.clock = Clock(control)
        # Records with a sequence number above this one belong to the current test (`begin_test`).
        self.since: Optional[int] = None

    # Starting, attaching, stopping

    @classmethod
    def start(
        cls,
        binary: Optional[str] = None,
        scenario: Optional[str] = None,
        environment: Optional[str] = None,
        args: Sequence[str] = (),
        start_timeout: Duration = "30s",
        control_token: Optional[str] = None,
        log_path: Optional[str] = None,
        default_timeout: Duration = "5s",
    ) -> "MockAPNs":
        """Starts `mock-apns serve` on free ports (`binary`, else `$MOCK_APNS_BIN`, else `mock-apns` on PATH) and
        waits until it is ready; `MockAPNsError` with its exit status and log tail when it cannot start."""
        process = ServerProcess.start(
            binary=binary or os.environ.get("MOCK_APNS_BIN"),
            scenario=scenario,
            environment=environment,
            control_token=control_token,
            extra_args=args,
            start_timeout=duration_seconds(start_timeout),
            log_path=log_path,
        )
        try:
            if not process.ready.get("controlURL"):
                raise MockAPNsError("mock-apns started without its control API (--no-control): the helpers need it")
            control = Control(process.ready["controlURL"], control_token)
            return cls(control, process.ready, process, default_timeout)
        except BaseException:
            process.stop()
            raise

    @classmethod
    def attach(
        cls, control_url: Optional[str] = None, token: Optional[str] = None, default_timeout: Duration = "5s"
    ) -> "MockAPNs":
        """Uses the mock whose control API is at `control_url` (else `$MOCK_APNS_CONTROL_URL`): its `/v1/info`
        says the rest. Nothing is started, and `stop()` leaves it running."""
        url = control_url or os.environ.get("MOCK_APNS_CONTROL_URL")
        if not url:
            raise MockAPNsError("attach needs a control URL: pass one or set MOCK_APNS_CONTROL_URL")
        control = Control(url, token or os.environ.get("MOCK_APNS_CONTROL_TOKEN"))
        info = dict(control.info())
        # Under `mock-apns run` the variables name the files the provider is told to use.
        for member, variable in (("caFile", "MOCK_APNS_CA_FILE"), ("keyFile", "MOCK_APNS_KEY_FILE")):
            if not info.get(member) and os.environ.get(variable):
                info[member] = os.environ[variable]
        return cls(control, info, None, default_timeout)

    def stop(self) -> None:
        """Stops a server this handle started (an attached one keeps running)."""
        if self.process:
            self.process.stop()

    def __enter__(self) -> "MockAPNs":
        return self

    def __exit__(self, *exception: Any) -> None:
        self.stop()

    def __repr__(self) -> str:
        how = "attached to" if self.attached else f"pid {self.pid},"
        return f"<MockAPNs {how} {self.apns_url}, control {self.control_url}>"

    @property
    def env(self) -> Dict[str, str]:
        """The `MOCK_APNS_*` variables `mock-apns run` sets, for a provider started as a child process."""
        host, _, port = self.apns_url.split("://", 1)[1].rpartition(":")
        variables = {
            "MOCK_APNS_URL": self.apns_url,
            "MOCK_APNS_HOST": host.strip("[]"),
            "MOCK_APNS_PORT": port,
            "MOCK_APNS_CONTROL_URL": self.control_url,
            "MOCK_APNS_KEY_ID": self.key_id,
            "MOCK_APNS_TEAM_ID": self.team_id,
        }
        if self.channels_url:
            variables["MOCK_APNS_CHANNELS_URL"] = self.channels_url
        if self.ca_file:
            variables["MOCK_APNS_CA_FILE"] = self.ca_file
        if self.key_file:
            variables["MOCK_APNS_KEY_FILE"] = self.key_file
        if self.control.token:
            variables["MOCK_APNS_CONTROL_TOKEN"] = self.control.token
        return variables

    # Isolation between tests

    def reset(self, to: Optional[str] = None) -> None:
        """`POST /v1/reset`: empty journal, the starting scenario's world and rules (`to="loaded"`: the one loaded
        last), real time. Refused on an attached server, which other tests or the provider may share."""
        if self.attached:
            raise MockAPNsError(
                "this mock-apns is attached (MOCK_APNS_CONTROL_URL): it is shared, so it is never reset; tests are "
                "kept apart by the journal's sequence numbers instead"
            )
        self.control.call("POST", "/v1/reset", [("to", to)] if to else None)
        self.since = None

    def begin_test(self) -> None:
        """From now on `records`, `expect_push` and `expect_no_push` see only records that arrive after this call."""
        journal = self.control.get("/v1/requests", limit=1)["journal"]
        self.since = journal.get("newest")

    # The journal and expectations

    def records(self, **filters: Any) -> List[Record]:
        """The records since the test began (or since `since=`) matching the filters, oldest first, as
        `GET /v1/requests` answers them."""
        return self.control.call("GET", "/v1/requests", self._query(filters))[1]["records"]

    def expect_push(
        self,
        token: Optional[str] = None,
        topic: Optional[str] = None,
        push_type: Optional[str] = None,
        count: int = 1,
        timeout: Optional[Duration] = None,
        where: Optional[Callable[[Record], bool]] = None,
        **filters: Any,
    ) -> List[Record]:
        """Waits on the server (`/v1/requests/wait`, no polling) until exactly `count` pushes match, and answers
        them; `AssertionError` saying what was expected, what arrived and the nearest miss, when they do not."""
        __tracebackhide__ = True
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise ValueError(f"count must be a whole number of at least 1 (expect_no_push for none), got {count!r}")
        filters.update(token=token, topic=topic, push_type=push_type)
        limit = duration_text(timeout if timeout is not None else self.default_timeout)
        found, answer, unmatched = self._wait(filters, count, limit, where)
        if len(found) == count and not self._more_than(filters, found, where):
            return found
        raise AssertionError(
            _text.expect_push_failure(filters, count, limit, found, answer, unmatched, where, self._received())
        )

    def expect_no_push(
        self,
        token: Optional[str] = None,
        topic: Optional[str] = None,
        push_type: Optional[str] = None,
        within: Duration = "1s",
        where: Optional[Callable[[Record], bool]] = None,
        **filters: Any,
    ) -> None:
        """Watches `within` (on the server) that no push matches; `AssertionError` naming the first that did."""
        __tracebackhide__ = True
        filters.update(token=token, topic=topic, push_type=push_type)
        limit = duration_text(within)
        found, _, _ = self._wait(filters, 1, limit, where)
        if found:
            raise AssertionError(_text.expect_no_push_failure(filters, limit, found, where, self._received()))

    def _wait(self, filters: Mapping[str, Any], count: int, limit: str, where: Optional[Callable[[Record], bool]]):
        """Server-side waits until `count` records match the filters and `where`, or `limit` passes: the matches,
        the last answer, and the records that matched the filters but not `where`."""
        query = self._query(filters)
        seconds = duration_seconds(limit)
        matched: List[Record] = []
        unmatched: List[Record] = []
        needed = count
        # The deadline only: every wait blocks on the server until a record arrives or the time is up.
        deadline = time.monotonic() + seconds
        while True:
            remaining = max(0.0, deadline - time.monotonic())
            status, answer = self.control.call(
                "GET", "/v1/requests/wait", query + [("count", needed), ("timeout", f"{remaining:.3f}s")],
                accept=(408,), timeout=remaining + 30,
            )
            records = answer.get("records", [])
            matched = [record for record in records if where is None or where(record)]
            unmatched = [record for record in records if where is not None and not where(record)]
            if len(matched) >= count or status == 408 or where is None:
                return matched, answer, unmatched
            needed = len(records) + count - len(matched)

    def _more_than(self, filters: Mapping[str, Any], found: List[Record], where) -> bool:
        """Whether more records than `found` match already (a provider that sent twice)."""
        extra = [r for r in self.records(**filters) if where is None or where(r)]
        if len(extra) > len(found):
            found[:] = extra
            return True
        return False

    def _received(self) -> List[Record]:
        """The newest records of this test, as summaries, for a failure message."""
        query = [("view", "summary"), ("limit", _text.RECEIVED_LIMIT)]
        if self.since is not None:
            query.append(("since", self.since))
        return self.control.call("GET", "/v1/requests", query)[1]["records"]

    def journal_text(self) -> str:
        """The journal since the test began, one line per record: a failed test's report section."""
        query = [("view", "summary"), ("limit", 200)]
        if self.since is not None:
            query.append(("since", self.since))
        records = self.control.call("GET", "/v1/requests", query)[1]["records"]
        return "\n".join(_text.summary_line(record) for record in records) or "(no records since the test started)"

    def _query(self, filters: Mapping[str, Any]) -> List[Any]:
        query = [(FILTER_NAMES.get(name, name), value) for name, value in filters.items() if value is not None]
        if self.since is not None and not any(name == "since" for name, _ in query):
            query.append(("since", self.since))
        return query

    # The world

    def load_scenario(self, scenario: str, base: Optional[str] = None) -> Mapping[str, Any]:
        """`PUT /v1/scenario` with a file's text (`scenario` a path) or a document; relative paths in it start from
        the file's folder (or `base`). A document that does not load raises `MockAPNsError` with
        file:line:column: field: message."""
        path = None
        if "\n" not in scenario and (scenario.endswith((".yaml", ".yml", ".json")) or os.path.exists(scenario)):
            path = os.path.abspath(scenario)
            try:
                with open(path, encoding="utf-8") as file:
                    text = file.read()
            except OSError as error:
                raise MockAPNsError(f"cannot read the scenario {path}: {error.strerror}") from None
            base = base or os.path.dirname(path)
        else:
            text = scenario
        try:
            return self.control.call("PUT", "/v1/scenario", [("base", base)] if base else None, body=text)[1]
        except ControlError as error:
            body = error.body if isinstance(error.body, dict) else {}
            where = f"{path or 'scenario'}:{body['line']}:{body.get('column', 1)}: " if "line" in body else ""
            field = f"{body['field']}: " if body.get("field") else ""
            message = body.get("message") or error.error
            raise MockAPNsError(f"{where}{field}{message}") from None

    def add_devices(self, *devices: Mapping[str, Any]) -> List[Mapping[str, Any]]:
        """`POST /v1/devices`: devices as a scenario's `devices:` has them (`token`, `app`, `state`, ...)."""
        return self.control.call("POST", "/v1/devices", body=list(devices))[1]["devices"]

    def unregister_device(self, token: str) -> Mapping[str, Any]:
        """From now on pushes to `token` are answered 410 Unregistered (a device the world knows)."""
        return self.control.call("POST", f"/v1/devices/{token}/unregister")[1]

    def remove_device(self, token: str) -> None:
        self.control.call("DELETE", f"/v1/devices/{token}")

    def add_rules(self, *rules: Mapping[str, Any]) -> List[Mapping[str, Any]]:
        """`POST /v1/rules`: scripted answers as a scenario's `rules:` has them."""
        return self.control.call("POST", "/v1/rules", body=list(rules))[1]

    def clear_rules(self) -> None:
        self.control.call("DELETE", "/v1/rules")

    def activities(self, **filters: Any) -> List[Mapping[str, Any]]:
        """The phone's Live Activities (`state`, `type`, `token` filters)."""
        return self.control.call("GET", "/v1/activities", list(filters.items()))[1]["activities"]

    def wait_activity(self, timeout: Optional[Duration] = None, **filters: Any) -> Mapping[str, Any]:
        """The first activity matching the filters, waited for on the server; `AssertionError` after `timeout`."""
        __tracebackhide__ = True
        limit = duration_text(timeout if timeout is not None else self.default_timeout)
        status, answer = self.control.call(
            "GET", "/v1/activities/wait", list(filters.items()) + [("timeout", limit)], accept=(408,),
            timeout=duration_seconds(limit) + 30,
        )
        if status == 408:
            raise AssertionError(answer.get("error", f"no activity matched {filters} within {limit}"))
        return answer

    def phone(self, phone: str) -> Mapping[str, Any]:
        """One simulated phone, by id or one of its device tokens."""
        return self.control.get(f"/v1/phones/{phone}")

    def update_phone(self, phone: str, **changes: Any) -> Mapping[str, Any]:
        """`PATCH /v1/phones/{id}`: `online=False`, `focus="sleep"`, `lowPowerMode=True`, ..."""
        return self.control.call("PATCH", f"/v1/phones/{phone}", body=changes)[1]

    def update_app(self, phone: str, bundle_id: str, **changes: Any) -> Mapping[str, Any]:
        """`PATCH /v1/phones/{id}/apps/{bundle}`: `state="terminated"`, `authorization="denied"`, ..."""
        return self.control.call("PATCH", f"/v1/phones/{phone}/apps/{bundle_id}", body=changes)[1]

    def verify(self) -> Mapping[str, Any]:
        """Checks the scenario's `expect:` (`POST /v1/verify`); `AssertionError` with every failure's details."""
        __tracebackhide__ = True
        report = self.control.call("POST", "/v1/verify")[1]
        if not report.get("passed"):
            raise AssertionError(_text.verify_failure(report))
        return report
