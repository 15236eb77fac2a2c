"""Fixtures of the inspector's browser journeys: a real `mock-apns serve` on free ports, real pushes with curl, and
Debian's Chromium headless through selenium. A failing test leaves a screenshot and the page's HTML in
Tests/browser/artifacts/ and prints their paths."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

os.environ.setdefault("SE_OFFLINE", "true")  # else selenium-manager tries the network for a driver

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
BINARY = Path(os.environ.get("MOCK_APNS_BIN") or ROOT / ".build" / "debug" / "mock-apns")
TOKEN = "0123456789abcdef" * 4
PAYLOAD = '{"aps":{"alert":{"title":"Hello","body":"from mock-apns"}}}'


class Server:
    """A started `mock-apns serve` (or `inspect`): its URLs read from its banner, killed at the end."""

    def __init__(self, args: list[str], cwd: Path, ready: str = "ready", timeout: float = 60):
        self.log: list[str] = []
        self.process = subprocess.Popen(
            [str(BINARY), *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            start_new_session=True)
        self.apns_url = self.control_url = self.ca = None
        deadline = time.monotonic() + timeout
        lines: list[str] = []
        reader = threading.Thread(target=self._read, args=(lines,), daemon=True)
        reader.start()
        while time.monotonic() < deadline:
            if any(line.strip() == ready or line.startswith(ready) for line in lines):
                break
            if self.process.poll() is not None:
                time.sleep(0.2)
                raise RuntimeError(f"mock-apns {args[0]} exited with {self.process.returncode} before it was ready:\n"
                                   + "".join(lines[-30:]))
            time.sleep(0.05)
        else:
            self.stop()
            raise RuntimeError(f"mock-apns {args[0]} printed no '{ready}' within {timeout:.0f} s:\n"
                               + "".join(lines[-30:]))
        banner = "".join(lines)
        https = re.search(r"https://[0-9.:\[\]a-z]+:\d+", banner)
        http = re.search(r"http://[0-9.:\[\]a-z]+:\d+", banner)
        ca = re.search(r"trust this CA\s+(\S+)", banner)
        self.apns_url = https.group(0) if https else None
        self.control_url = http.group(0) if http else None
        self.ca = ca.group(1) if ca else None
        self.banner = banner
        if self.control_url is None:
            self.stop()
            raise RuntimeError("no http:// URL in the banner:\n" + banner)

    def _read(self, lines: list[str]) -> None:
        for line in self.process.stdout:
            lines.append(line)
            self.log.append(line)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def api(self, method: str, path: str, body=None, raw: bool = False):
        """Calls the control API; answers (status, JSON or text)."""
        data = None if body is None else (body if isinstance(body, (bytes, str)) else json.dumps(body))
        if isinstance(data, str):
            data = data.encode()
        request = urllib.request.Request(self.control_url + path, data=data, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                text = answer.read().decode()
                return answer.status, (text if raw else json.loads(text))
        except urllib.error.HTTPError as error:
            text = error.read().decode()
            try:
                return error.code, json.loads(text)
            except ValueError:
                return error.code, text

    def records(self, query: str = "") -> list[dict]:
        status, answer = self.api("GET", "/v1/requests" + query)
        assert status == 200, answer
        return answer["records"]

    def newest(self) -> dict:
        return self.records("?limit=1")[-1]


class Mock(Server):
    """The session's serve, with a provider token minted once and pushes sent with curl."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.journal = folder / "journal.jsonl"
        super().__init__(["serve", "--port", "0", "--control-port", "0", "--journal", str(self.journal)], folder)
        self.jwt = subprocess.run([str(BINARY), "token"], capture_output=True, text=True, check=True).stdout.strip()

    def push(self, payload: str = PAYLOAD, token: str = TOKEN, topic: str = "com.example.app",
             push_type: str = "alert", headers: dict[str, str] | None = None) -> dict:
        """Sends one push with curl (HTTP/2, the mock's CA, a provider token) and answers its journal record."""
        before = self.newest_sequence()
        args = ["curl", "--http2", "--silent", "--show-error", "--cacert", self.ca, "-o", "/dev/null",
                "-w", "%{http_code}", "-H", f"apns-topic: {topic}", "-H", f"apns-push-type: {push_type}",
                "-H", f"authorization: bearer {self.jwt}"]
        for name, value in (headers or {}).items():
            args += ["-H", f"{name}: {value}"]
        args += ["--data-binary", payload, f"{self.apns_url}/3/device/{token}"]
        result = subprocess.run(args, capture_output=True, text=True, timeout=30)
        assert result.returncode == 0, f"curl failed: {result.stderr}"
        status, record = 0, None
        for _ in range(100):
            records = self.records(f"?since={before}" if before is not None else "")
            if records:
                record = records[-1]
                break
            time.sleep(0.05)
        assert record is not None, "the push was not recorded"
        assert str(record["response"]["status"] if record["response"] else "000") == result.stdout
        return record

    def burst(self, count: int, token: str = TOKEN) -> int:
        """Sends `count` pushes at once with h2load (4 connections, one stream at a time: a connection's first push
        has one stream until its token is checked); answers the newest sequence."""
        body = self.folder / "burst.json"
        body.write_text(PAYLOAD)
        args = ["h2load", "-c", "4", "-m", "1", "-n", str(count), "-d", str(body),
                "-H", "apns-topic: com.example.app", "-H", "apns-push-type: alert",
                "-H", f"authorization: bearer {self.jwt}", f"{self.apns_url}/3/device/{token}"]
        result = subprocess.run(args, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0 and f"{count} succeeded" in result.stdout, result.stdout + result.stderr
        return self.newest_sequence()

    def newest_sequence(self):
        records = self.records("?limit=1")
        return records[-1]["sequence"] if records else None

    def reset(self) -> None:
        status, answer = self.api("POST", "/v1/reset")
        assert status == 200, answer


@pytest.fixture(scope="session")
def mock(tmp_path_factory) -> Mock:
    if not BINARY.exists():
        pytest.fail(f"no mock-apns binary at {BINARY}: run `swift build` (or set MOCK_APNS_BIN)")
    folder = tmp_path_factory.mktemp("serve")
    server = Mock(folder)
    server.page_url = server.control_url
    proxy = None
    if os.environ.get("INSPECTOR_DEV_PROXY"):
        # Working on the page: devproxy.py serves Assets/ from the working tree (no rebuild per edit) and
        # forwards the rest to the mock. INSPECTOR_DEV_PROXY=1, or the path of another such script.
        port = 18000 + os.getpid() % 1000
        assets = ROOT / "Sources" / "MockAPNs" / "Control" / "Inspector" / "Assets"
        script = os.environ["INSPECTOR_DEV_PROXY"]
        if script == "1":
            script = str(Path(__file__).resolve().parent / "devproxy.py")
        proxy = subprocess.Popen(["python3", script, str(assets), server.control_url, str(port)],
                                 env={**os.environ, "DEV_APNS_URL": server.apns_url or ""})
        server.page_url = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(server.page_url + "/assets/app.css", timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
    yield server
    if proxy:
        proxy.terminate()
    server.stop()


@pytest.fixture(scope="session")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1360,900",
                     "--disable-gpu", "--no-first-run", "--disable-extensions", "--lang=en-GB"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


@pytest.fixture
def page(request, browser, mock):
    """The browser, with the mock reset and the light colour scheme; on failure, a screenshot and the HTML."""
    mock.reset()
    color_scheme(browser, "light")
    yield browser
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        name = re.sub(r"[^A-Za-z0-9_.-]", "_", request.node.name)
        shot, html, console = ARTIFACTS / f"{name}.png", ARTIFACTS / f"{name}.html", ARTIFACTS / f"{name}.console.txt"
        try:
            browser.save_screenshot(str(shot))
            html.write_text(browser.page_source)
            console.write_text("\n".join(str(entry) for entry in browser.get_log("browser")))
            print(f"\nbrowser artifacts: {shot}\n                   {html}\n                   {console}")
        except Exception as error:  # the browser itself may be what failed
            print(f"\nno browser artifacts: {error}")


def color_scheme(driver, scheme: str) -> None:
    """Makes the page see `prefers-color-scheme: scheme` (light or dark), as the system setting would."""
    features = [{"name": "prefers-color-scheme", "value": scheme}]
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})


def wait_for(driver, condition, timeout: float = 10, message: str = ""):
    """Waits until `condition(driver)` is truthy; answers it. An element the page drew anew while the condition
    read it (stale) is read again at the next poll."""
    return WebDriverWait(
        driver, timeout, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,)
    ).until(lambda d: condition(d), message)


@pytest.fixture
def scratch():
    folder = Path(tempfile.mkdtemp(prefix="mock-apns-browser-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
