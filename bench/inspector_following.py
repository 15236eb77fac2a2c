#!/usr/bin/env python3
"""bench/inspector_following.py — what the inspector costs the APNs port while it is open and following (issue 22,
"Speed": CPU per push with and without the page).

One `mock-apns serve` (MOCK_APNS_BIN, a release build), its journal full; h2load sends N pushes at 4x100, ROUNDS
times without a page and ROUNDS times with `/` open in headless Chromium, following the live list, alternated
(without, with, with, without, ...). Reports the server's CPU µs per push (utime + stime from /proc) each time and
the medians; the page's own CPU is Chromium's, not the server's.

    MOCK_APNS_BIN=.build-release/release/mock-apns .venv-browser/bin/python bench/inspector_following.py

Settings (environment): MOCK_APNS_BIN, N (200000), ROUNDS (3), RECORDS (100000).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

import inspector as bench  # bench/inspector.py: Serve, start_browser, open_list, say
from checks import whole_setting  # bench/checks.py

N = whole_setting("N", 200_000, 1000, 100_000_000)
ROUNDS = whole_setting("ROUNDS", 3, 1, 50)
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def measure(serve, body: Path) -> float:
    """CPU µs per push of one h2load run of N pushes at 4x100."""
    before = cpu_seconds(serve.process.pid)
    output = serve.h2load(N, bench.TOKEN, body=body)
    done = int(output.split("requests:")[1].split("done,")[0].split(",")[-1].strip().split()[0])
    return (cpu_seconds(serve.process.pid) - before) * 1e6 / max(done, 1)


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="mock-apns-following-bench."))
    body = folder / "body.json"
    body.write_text('{"aps":{"alert":{"title":"Order #1234 is on its way","body":"Your courier is 5 minutes away"},'
                    '"sound":"default"},"order":{"id":"1234","eta":300,"courier":"Alex"}}')
    bench.say(f"binary {bench.BINARY}; load average {open('/proc/loadavg').read().split()[:3]}")
    serve = bench.Serve(folder)
    driver = None
    without: list[float] = []
    following: list[float] = []
    try:
        serve.h2load(bench.RECORDS, bench.TOKEN, body=body)  # a full journal, and the warm-up
        driver = bench.start_browser()
        for run in range(ROUNDS):
            for page in ((False, True) if run % 2 == 0 else (True, False)):
                if page:
                    bench.open_list(driver, serve.control_url)  # the live list, following new pushes
                else:
                    driver.get("about:blank")  # the page gone: its streams closed
                    time.sleep(0.5)
                value = measure(serve, body)
                (following if page else without).append(value)
                bench.say(f"round {run + 1}, {'page following' if page else 'no page'}: {value:.2f} µs CPU per push")
    finally:
        if driver is not None:
            driver.quit()
        serve.stop()
    print()
    print(f"## The APNs port with and without the inspector following ({N} pushes at 4x100, {ROUNDS} rounds each)")
    print()
    print("| page | CPU µs per push, each round | median |")
    print("|---|---|---:|")
    print(f"| none | {', '.join(f'{v:.2f}' for v in without)} | {statistics.median(without):.2f} |")
    print(f"| `/` following | {', '.join(f'{v:.2f}' for v in following)} | {statistics.median(following):.2f} |")
    print()
    print(f"with / without: {statistics.median(following) / statistics.median(without):.3f}; "
          f"load average at the end: {' '.join(open('/proc/loadavg').read().split()[:3])}")


if __name__ == "__main__":
    main()
