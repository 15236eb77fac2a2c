#!/usr/bin/env python3
"""bench/inspector.py — the web inspector (issue 22) with 100,000 records, in a real headless Chromium.

Starts `mock-apns serve` (MOCK_APNS_BIN) on free ports with a journal of 100,000 records, fills it with h2load
(5 % to a malformed device token first, so that `status:4xx` finds something old, then 95 % accepted), then measures in
Chromium, each the median of RUNS (5):
  (a) opening `/` until the first `[data-testid="push-row"]` is painted (from navigation start);
  (b) submitting the search `status:4xx` until the list shows rejected rows and a frame is painted;
  (c) opening `/push/{seq}` until `[data-testid="verdict"]` is painted (from navigation start, a full page
      load with the cache off), and a click on a row of the drawn list until the verdict is painted;
  (d) the JS heap after those (performance.memory and CDP Performance.getMetrics);
  (e) with FOLLOW_SECONDS > 0: while h2load sends ~RATE pushes/s and the list follows, key presses in the search
      box: time from the key event to the next animation frame, and the heap at the end.

    MOCK_APNS_BIN=.build-release/release/mock-apns .venv-browser/bin/python bench/inspector.py

Settings (environment): MOCK_APNS_BIN, RECORDS (100000), RUNS (5), RATE (5000), FOLLOW_SECONDS (20, 0 skips e),
CHROMIUM, CHROMEDRIVER. Needs h2load (apt-get install -y nghttp2-client), chromium and chromium-driver.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

os.environ.setdefault("SE_OFFLINE", "true")  # else selenium-manager tries the network for a driver

from checks import whole_setting  # noqa: E402  (bench/checks.py)
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BINARY = os.environ.get("MOCK_APNS_BIN") or str(ROOT / ".build-release" / "release" / "mock-apns")
RECORDS = whole_setting("RECORDS", 100_000, 1000, 10_000_000)
RUNS = whole_setting("RUNS", 5, 1, 50)
RATE = whole_setting("RATE", 5000, 4, 1_000_000)  # h2load's --rps is per client: 4 clients at RATE/4 each
FOLLOW_SECONDS = whole_setting("FOLLOW_SECONDS", 20, 0, 3600)
TOKEN = "0123456789abcdef" * 4
SEARCH = "status:4xx"
PAGE_SIZE = 100  # view-pushes.js's PAGE_SIZE: the rows one list page asks for

# Installed before any page script runs: records when the first element matching a selector is in the DOM and
# the frame after it has been painted (rAF, then a task: the paint happens between the two).
WATCH = """
window.__bench = {};
window.__benchWatch = (name, selector, test) => {
    const check = () => {
        if (window.__bench[name] != null) return true;
        const element = document.querySelector(selector);
        if (!element || (test && !test(element))) return false;
        window.__bench[name] = -1;
        requestAnimationFrame(() => setTimeout(() => { window.__bench[name] = performance.now(); }, 0));
        return true;
    };
    if (check()) return;
    const observer = new MutationObserver(() => { if (check()) observer.disconnect(); });
    observer.observe(document, { childList: true, subtree: true, attributes: true });
};
window.__benchWatch("row", '[data-testid="push-row"]');
window.__benchWatch("verdict", '[data-testid="verdict"]');
"""


def say(text: str) -> None:
    print(f"inspector-bench: {text}", file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def median(values: list[float]) -> float:
    return statistics.median(values)


class Serve:
    """`mock-apns serve` on free ports, its URLs read from the banner."""

    def __init__(self, folder: Path):
        self.port, self.control_port = free_port(), free_port()
        self.process = subprocess.Popen(
            [BINARY, "serve", "--port", str(self.port), "--control-port", str(self.control_port),
             "--journal-capacity", str(RECORDS), "--log-level", "warning"],
            cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
        lines: list[str] = []
        threading.Thread(target=lambda: [lines.append(line) for line in self.process.stdout], daemon=True).start()
        deadline = time.monotonic() + 60
        while not any(line.strip() == "ready" for line in lines):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise SystemExit("mock-apns serve did not get ready:\n" + "".join(lines[-30:]))
            time.sleep(0.05)
        banner = "".join(lines)
        ca = re.search(r"trust this CA\s+(\S+)", banner)
        self.ca = ca.group(1) if ca else None
        self.control_url = f"http://127.0.0.1:{self.control_port}"
        self.apns_url = f"https://127.0.0.1:{self.port}"
        self.jwt = subprocess.run([BINARY, "token"], capture_output=True, text=True, check=True).stdout.strip()

    def h2load(self, requests: int, token: str, clients: int = 4, streams: int = 100, rps: int | None = None,
               body: Path | None = None) -> str:
        args = ["h2load", "-c", str(clients), "-m", str(streams), "-n", str(requests), "-d", str(body),
                "-H", "apns-topic: com.example.app", "-H", "apns-push-type: alert", "-H", "apns-priority: 10",
                "-H", f"authorization: bearer {self.jwt}"]
        if rps:
            args += ["--rps", str(rps)]
        args.append(f"{self.apns_url}/3/device/{token}")
        result = subprocess.run(args, capture_output=True, text=True, timeout=600)
        if result.returncode != 0:
            raise SystemExit("h2load failed:\n" + result.stdout[-2000:] + result.stderr[-2000:])
        return result.stdout

    def held(self) -> int:
        with urllib.request.urlopen(self.control_url + "/v1/requests?limit=1", timeout=30) as answer:
            text = answer.read().decode()
        match = re.search(r'"sequence"\s*:\s*(\d+)', text)
        return int(match.group(1)) if match else 0

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def api_ms(serve: Serve, path: str) -> float:
    """The median of RUNS answers of one control-API call with urllib: the server's share of a measure."""
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        with urllib.request.urlopen(serve.control_url + path, timeout=60) as answer:
            answer.read()
        times.append((time.perf_counter() - started) * 1000)
    return median(times)


def start_browser() -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1360,900",
                     "--disable-gpu", "--no-first-run", "--disable-extensions", "--lang=en-GB",
                     "--enable-precise-memory-info", "--disable-cache"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")),
                              options=options)
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(60)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH})
    driver.execute_cdp_cmd("Performance.enable", {})
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    return driver


def wait_mark(driver, name: str, timeout: float = 30) -> float:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = driver.execute_script(f"return window.__bench && window.__bench[{name!r}]")
        if value is not None and value >= 0:
            return float(value)
        time.sleep(0.01)
    raise SystemExit(f"'{name}' did not appear within {timeout:.0f} s")


def open_list(driver, url: str) -> float:
    driver.get("about:blank")
    driver.get(url + "/")
    return wait_mark(driver, "row")


def search(driver) -> float:
    """Types the query into the box (value set in the page, then the form submitted as Enter does) and waits for
    the list to show rejected rows only, painted."""
    return driver.execute_async_script("""
        const [query, done] = arguments;
        const input = document.querySelector('[data-testid="search"]');
        const answered = () => {
            const rows = document.querySelectorAll('[data-testid="push-row"]');
            return rows.length > 0 && [...rows].every((row) => row.classList.contains("rejected"));
        };
        const t0 = performance.now();
        const observer = new MutationObserver(() => {
            if (!answered()) return;
            observer.disconnect();
            requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0), 0));
        });
        // The view may draw a new table: watch the whole document.
        observer.observe(document.body, { childList: true, subtree: true, attributes: true });
        input.value = query;
        input.form.requestSubmit();
    """, SEARCH)


def open_push(driver, url: str, seq: int) -> float:
    driver.get("about:blank")
    driver.get(f"{url}/push/{seq}")
    return wait_mark(driver, "verdict")


def click_push(driver, url: str, run: int) -> float:
    """From the list (already drawn), a click on a row until its verdict is painted: the page's own navigation."""
    open_list(driver, url)
    return driver.execute_async_script("""
        const [index, done] = arguments;
        const rows = document.querySelectorAll('[data-testid="push-row"]');
        const row = rows[index % rows.length];
        const t0 = performance.now();
        const observer = new MutationObserver(() => {
            if (!document.querySelector('[data-testid="verdict"]')) return;
            observer.disconnect();
            requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0), 0));
        });
        observer.observe(document.body, { childList: true, subtree: true, attributes: true });
        row.click();
    """, run * 7)


def heap_mb(driver) -> tuple[float, float]:
    """(performance.memory.usedJSHeapSize, CDP JSHeapUsedSize) in MB, after a garbage collection."""
    driver.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
    used = driver.execute_script("return performance.memory ? performance.memory.usedJSHeapSize : null")
    metrics = {m["name"]: m["value"] for m in driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]}
    return (used or 0) / 1e6, metrics.get("JSHeapUsedSize", 0) / 1e6


def renderer_mb(driver) -> float:
    """The resident memory of the largest Chromium renderer process started by this driver (the tab), in MB."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    family, grew = {driver.service.process.pid}, True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in family} - family
        family |= more
        grew = bool(more)
    largest = 0
    for pid in family:
        try:
            if b"--type=renderer" not in Path(f"/proc/{pid}/cmdline").read_bytes():
                continue
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1))
        largest = max(largest, rss)
    return largest / 1024


def follow_under_load(driver, serve: Serve, body: Path) -> dict:
    """(e): the list open and following while h2load sends RATE pushes/s; key presses in the search box."""
    open_list(driver, serve.control_url)
    driver.execute_script("""
        window.__latency = [];
        document.addEventListener("keydown", (event) => {
            const t = event.timeStamp;
            requestAnimationFrame(() => window.__latency.push(performance.now() - t));
        }, true);
    """)
    total = RATE * FOLLOW_SECONDS
    # h2load's --rps is per client: 4 clients at RATE/4 each.
    result: dict = {}
    load = threading.Thread(target=lambda: result.update(
        out=serve.h2load(total, TOKEN, clients=4, streams=10, rps=RATE // 4, body=body)))
    before = serve.held()
    started = time.monotonic()
    load.start()
    box = driver.find_element("css selector", '[data-testid="search"]')
    box.click()
    time.sleep(1)
    presses = 0
    while load.is_alive() and time.monotonic() - started < FOLLOW_SECONDS * 3:
        ActionChains(driver).send_keys("a").perform()
        presses += 1
        time.sleep(0.25)
    load.join()
    elapsed = time.monotonic() - started
    latencies = driver.execute_script("return window.__latency")
    after = serve.held()
    newest_row = lambda: driver.execute_script(  # noqa: E731
        "const r = document.querySelector('[data-testid=\"push-row\"]'); return r ? Number(r.dataset.seq) : null")
    behind = after - (newest_row() or 0)
    ended = time.monotonic()
    while newest_row() != after and time.monotonic() - ended < 30:
        time.sleep(0.05)
    caught_up = time.monotonic() - ended if newest_row() == after else None
    heap = heap_mb(driver)
    latencies.sort()
    return {
        "pushes": after - before, "seconds": elapsed, "presses": presses, "measured": len(latencies),
        "p50": median(latencies) if latencies else None,
        "p95": latencies[int(len(latencies) * 0.95)] if latencies else None,
        "max": latencies[-1] if latencies else None, "heap": heap, "behind": behind, "caught_up": caught_up,
        "newest": after,
        "renderer": renderer_mb(driver),
    }


def main() -> None:
    if not os.access(BINARY, os.X_OK):
        raise SystemExit(f"no mock-apns binary at {BINARY}: build it or set MOCK_APNS_BIN")
    if shutil.which("h2load") is None:
        raise SystemExit("'h2load' is missing: apt-get install -y nghttp2-client")
    if not os.path.exists(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")):
        raise SystemExit("chromedriver is missing: apt-get install -y chromium chromium-driver")
    folder = Path(tempfile.mkdtemp(prefix="mock-apns-inspector-bench."))
    body = folder / "body.json"
    body.write_text('{"aps":{"alert":{"title":"Order #1234 is on its way","body":"Your courier is 5 minutes away"},'
                    '"sound":"default"},"order":{"id":"1234","eta":300,"courier":"Alex"}}')
    say(f"binary {BINARY}; load average {open('/proc/loadavg').read().split()[:3]}")
    serve = Serve(folder)
    driver = None
    try:
        rejected = RECORDS // 20
        started = time.monotonic()
        # A token connection allows 1 stream until its first valid JWT (as APNs does), so h2load's first burst is
        # partly refused: send again until the journal holds the count.
        # The rejected ones first: the newest rows are then accepted, and the search has to find older ones.
        for target, token in ((rejected, "not-a-device-token"), (RECORDS, TOKEN)):
            for _ in range(20):
                missing = target - serve.held()
                if missing <= 0:
                    break
                serve.h2load(missing, token, clients=min(4, missing), body=body)
        newest = serve.held()
        say(f"filled: newest #{newest} in {time.monotonic() - started:.1f} s ({rejected} of them 400)")
        if newest < RECORDS:
            raise SystemExit(f"only {newest} records in the journal, not {RECORDS}")
        driver = start_browser()
        open_list(driver, serve.control_url)  # warm-up: the first Chromium start and the assets
        first, searched, opened, clicked = [], [], [], []
        for run in range(RUNS):
            first.append(open_list(driver, serve.control_url))
            searched.append(search(driver))
            seq = newest - 1 - run * 997
            opened.append(open_push(driver, serve.control_url, seq))
            clicked.append(click_push(driver, serve.control_url, run))
            say(f"run {run + 1}: first row {first[-1]:.0f} ms, search {searched[-1]:.0f} ms, push #{seq} "
                f"{opened[-1]:.0f} ms, row clicked {clicked[-1]:.0f} ms")
        open_list(driver, serve.control_url)
        search(driver)
        heap = heap_mb(driver)
        renderer = renderer_mb(driver)
        # The same calls the page makes (view-pushes.js: summary view, PAGE_SIZE rows), without the browser.
        api_list = api_ms(serve, f"/v1/requests?view=summary&limit={PAGE_SIZE}")
        api_search = api_ms(serve, f"/v1/requests?view=summary&limit={PAGE_SIZE}&q={SEARCH.replace(':', '%3A')}")
        api_push = api_ms(serve, f"/v1/requests/{newest - 1}")
        print(f"\n## The inspector with {newest:,} records ({os.cpu_count()} CPUs, median of {RUNS})\n")
        print("| measure | median | runs | target |")
        print("|---|---:|---|---:|")
        runs = lambda values: ", ".join(f"{v:.0f}" for v in values)  # noqa: E731
        print(f"| (a) open `/` → first row painted | {median(first):.0f} ms | {runs(first)} | 1000 ms |")
        print(f"| (b) search `{SEARCH}` → list answered | {median(searched):.0f} ms | {runs(searched)} | 300 ms |")
        print(f"| (c) open `/push/N` → verdict painted | {median(opened):.0f} ms | {runs(opened)} | 200 ms |")
        print(f"| (c) click a row in the list → verdict painted | {median(clicked):.0f} ms | {runs(clicked)} "
              "| 200 ms |")
        print(f"| the control API's answers alone (urllib): list {api_list:.0f} ms, search {api_search:.0f} ms, "
              f"one record {api_push:.0f} ms | | | |")
        print(f"| (d) JS heap after (a)–(c), after GC | {heap[0]:.1f} MB (CDP {heap[1]:.1f} MB) | | 200 MB |")
        print(f"| (d) the tab's renderer process, resident (RSS) | {renderer:.0f} MB | | 200 MB |")
        if FOLLOW_SECONDS > 0:
            e = follow_under_load(driver, serve, body)
            rate = e["pushes"] / e["seconds"]
            print(f"| (e) input → next frame while {rate:,.0f} pushes/s arrive, following | p50 {e['p50']:.0f} ms, "
                  f"p95 {e['p95']:.0f} ms, max {e['max']:.0f} ms ({e['measured']} of {e['presses']} key presses) "
                  f"| | 100 ms |")
            print(f"| (e) JS heap at the end of that, after GC | {e['heap'][0]:.1f} MB (CDP {e['heap'][1]:.1f} MB) "
                  f"| | 200 MB |")
            print(f"| (e) the tab's renderer process, resident (RSS) | {e['renderer']:.0f} MB | | 200 MB |")
            catch = f"{e['caught_up']:.1f} s" if e["caught_up"] is not None else "not within 30 s"
            print(f"\n(e): {e['pushes']:,} pushes in {e['seconds']:.1f} s; when h2load ended the list's top row was "
                  f"{e['behind']:,} records behind the journal's newest (#{e['newest']}); it showed the newest after "
                  f"{catch}.")
        print(f"\nload average at the end: {' '.join(open('/proc/loadavg').read().split()[:3])}")
    finally:
        if driver:
            driver.quit()
        serve.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
