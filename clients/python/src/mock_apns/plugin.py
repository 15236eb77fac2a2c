"""The pytest plugin (entry point `pytest11`): fixtures `mock_apns_server` (session), `mock_apns` (per test),
`mock_apns_async`, `mock_apns_token` and `mock_apns_factory`, the `mock_apns(...)` marker, the options, and a report
section with the journal of a failed test."""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from typing import Any, Callable, Iterator, List, Optional

import pytest

from ._async import AsyncMockAPNs
from ._control import MockAPNsError
from ._mock import MockAPNs, duration_seconds, duration_text, new_token
from ._process import BinaryMissing


@dataclass(frozen=True)
class Option:
    """One setting, resolved command line > environment > ini > default."""

    name: str
    flag: str
    variable: str
    ini: str
    default: Optional[str]
    help: str


OPTIONS = [
    Option("binary", "--mock-apns-bin", "MOCK_APNS_BIN", "mock_apns_bin", None,
           "the mock-apns executable (default: mock-apns on PATH)"),
    Option("url", "--mock-apns-url", "MOCK_APNS_CONTROL_URL", "mock_apns_url", None,
           "attach to the mock-apns whose control API is here instead of starting one (mock-apns run sets it)"),
    Option("token", "--mock-apns-token", "MOCK_APNS_CONTROL_TOKEN", "mock_apns_token", None,
           "the control API's bearer token (a started server is given it too)"),
    Option("scenario", "--mock-apns-scenario", "MOCK_APNS_SCENARIO", "mock_apns_scenario", None,
           "the scenario the session server starts with (a file, or a shipped scenario's name)"),
    Option("args", "--mock-apns-args", "MOCK_APNS_ARGS", "mock_apns_args", "",
           "more `mock-apns serve` arguments, shell-quoted (e.g. '--environment production')"),
    Option("start_timeout", "--mock-apns-start-timeout", "MOCK_APNS_START_TIMEOUT", "mock_apns_start_timeout", "30s",
           "how long the binary may take to be ready"),
    Option("timeout", "--mock-apns-timeout", "MOCK_APNS_TIMEOUT", "mock_apns_timeout", "5s",
           "expect_push's default timeout"),
    Option("reset", "--mock-apns-reset", "MOCK_APNS_RESET", "mock_apns_reset", "test",
           "test: reset the started server before each test; never: keep tests apart by journal watermark only"),
    Option("missing", "--mock-apns-missing", "MOCK_APNS_MISSING", "mock_apns_missing", "fail",
           "when the binary is missing: fail (saying how to install it) or skip"),
]
CHOICES = {"reset": ("test", "never"), "missing": ("fail", "skip")}
_HANDLE = pytest.StashKey[MockAPNs]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mock-apns", "mock-apns, the APNs mock")
    for option in OPTIONS:
        group.addoption(option.flag, dest=f"mock_apns_{option.name}", default=None,
                        help=f"{option.help}; env {option.variable}, ini {option.ini}")
        parser.addini(option.ini, option.help, default=option.default)


def pytest_configure(config: pytest.Config) -> None:
    # A bad choice is a usage error at once, not an error in every test.
    for name in CHOICES:
        setting(config, name)
    config.addinivalue_line(
        "markers",
        "mock_apns(scenario=None, devices=None, rules=None, clock=None): set the mock up for this test: a scenario "
        "file (relative to the test file), devices and rules as a scenario writes them, a clock move ('9h')",
    )


def setting(config: pytest.Config, name: str) -> Optional[str]:
    """The option `name`: the command line, else the environment, else the ini file, else its default."""
    option = next(option for option in OPTIONS if option.name == name)
    value = config.getoption(f"mock_apns_{name}")
    if value is None:
        value = os.environ.get(option.variable) or None
    if value is None:
        value = config.getini(option.ini) or option.default
    if name in CHOICES and value not in CHOICES[name]:
        raise pytest.UsageError(
            f"{option.flag} (or {option.variable}, ini {option.ini}) must be {' or '.join(CHOICES[name])}, "
            f"got {value!r}"
        )
    return value


def _start(config: pytest.Config, log_path: Optional[str] = None, **overrides: Any) -> MockAPNs:
    """Starts a server as the options say (`overrides` win); a failure ends the test with the reason."""
    __tracebackhide__ = True
    timeout = setting(config, "timeout")
    arguments = {
        "binary": setting(config, "binary"),
        "scenario": setting(config, "scenario"),
        "args": shlex.split(setting(config, "args") or ""),
        "start_timeout": setting(config, "start_timeout"),
        "control_token": setting(config, "token"),
        "log_path": log_path,
        "default_timeout": timeout,
    }
    arguments.update(overrides)
    try:
        duration_seconds(arguments["start_timeout"])
        duration_text(timeout)
    except ValueError as error:
        raise pytest.UsageError(f"mock-apns: {error}") from None
    try:
        return MockAPNs.start(**arguments)
    except BinaryMissing as error:
        if setting(config, "missing") == "skip":
            pytest.skip(str(error))
        pytest.fail(str(error), pytrace=False)
    except MockAPNsError as error:
        pytest.fail(str(error), pytrace=False)


@pytest.fixture(scope="session")
def mock_apns_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MockAPNs]:
    """The session's server (one per xdist worker): attached to `MOCK_APNS_CONTROL_URL` when set, else started on
    free ports and stopped at the end (and gone with this process, however it ends)."""
    config = request.config
    url = setting(config, "url")
    if url:
        try:
            server = MockAPNs.attach(url, setting(config, "token"), setting(config, "timeout"))
        except MockAPNsError as error:
            pytest.fail(str(error), pytrace=False)
        yield server
        return
    log = tmp_path_factory.mktemp("mock-apns") / "serve.log"
    server = _start(config, log_path=str(log))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def mock_apns(request: pytest.FixtureRequest, mock_apns_server: MockAPNs) -> Iterator[MockAPNs]:
    """The server for this test: reset first (a started server, unless --mock-apns-reset never), its journal read
    from this test's first record on, and set up as the test's `mock_apns(...)` marker says."""
    server = mock_apns_server
    resets = not server.attached and setting(request.config, "reset") == "test"
    try:
        if resets:
            server.reset()
        server.begin_test()
        _apply_marker(request, server, resets)
    except MockAPNsError as error:
        pytest.fail(str(error), pytrace=False)
    request.node.stash[_HANDLE] = server
    yield server


@pytest.fixture
def mock_apns_async(mock_apns: MockAPNs) -> AsyncMockAPNs:
    """`mock_apns` with awaitable calls that run off the event loop (`await mock_apns_async.expect_push(...)`)."""
    return AsyncMockAPNs(mock_apns)


@pytest.fixture
def mock_apns_token() -> str:
    """A device token (64 hex digits) unique to this test."""
    return new_token()


@pytest.fixture
def mock_apns_factory(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[Callable[..., MockAPNs]]:
    """Starts more servers for this test (`mock_apns_factory(environment="production")`), stopped when it ends;
    keywords are those of `MockAPNs.start`."""
    started: List[MockAPNs] = []

    def start(**overrides: Any) -> MockAPNs:
        __tracebackhide__ = True
        overrides.setdefault("log_path", str(tmp_path / f"serve-{len(started) + 1}.log"))
        server = _start(request.config, **overrides)
        server.begin_test()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def _apply_marker(request: pytest.FixtureRequest, server: MockAPNs, resets: bool) -> None:
    marker = request.node.get_closest_marker("mock_apns")
    if marker is None:
        return
    if marker.args:
        raise MockAPNsError("mock_apns(...) takes keywords only: scenario=, devices=, rules=, clock=")
    unknown = set(marker.kwargs) - {"scenario", "devices", "rules", "clock"}
    if unknown:
        raise MockAPNsError(f"mock_apns(...) does not know {', '.join(sorted(unknown))}: scenario=, devices=, "
                            "rules=, clock=")
    options = marker.kwargs
    if not resets and (options.get("scenario") or options.get("clock")):
        raise MockAPNsError(
            "mock_apns(scenario=/clock=) changes the whole server, and this one is shared (attached, or "
            "--mock-apns-reset never): nothing would undo it for the next test. Start the server here (unset "
            "MOCK_APNS_CONTROL_URL), or use mock_apns_factory for a server of the test's own"
        )
    if options.get("scenario"):
        scenario = str(options["scenario"])
        if "\n" not in scenario and scenario.endswith((".yaml", ".yml", ".json")) and not os.path.isabs(scenario):
            scenario = os.path.join(os.path.dirname(str(request.node.path)), scenario)
        server.load_scenario(scenario)
    if options.get("devices"):
        devices = options["devices"]
        server.add_devices(*(devices if isinstance(devices, (list, tuple)) else [devices]))
    if options.get("rules"):
        rules = options["rules"]
        server.add_rules(*(rules if isinstance(rules, (list, tuple)) else [rules]))
    if options.get("clock"):
        server.clock.advance(options["clock"])
    if options.get("scenario") or options.get("clock"):
        server.begin_test()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    server = item.stash.get(_HANDLE, None)
    if server is None or report.when != "call" or not report.failed:
        return
    try:
        text = server.journal_text()
    except MockAPNsError as error:
        text = f"(cannot read the journal: {error})"
    report.sections.append(("mock-apns journal since the test started", text))
