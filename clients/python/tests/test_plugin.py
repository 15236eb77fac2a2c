"""The pytest plugin as its users use it: inner test files run by pytester in subprocesses, against the real binary."""

import http.server
import os
import pathlib
import re
import select
import signal
import socket
import subprocess
import sys
import textwrap
import threading

import pytest

from mock_apns import MockAPNs

HERE = pathlib.Path(__file__).resolve().parent

PUSH_AND_EXPECT = """
    from apns_send import send_push

    def test_push_arrives(mock_apns, mock_apns_token):
        assert send_push(mock_apns, mock_apns_token).status_code == 200
        [record] = mock_apns.expect_push(token=mock_apns_token, topic="com.example.app", push_type="alert")
        assert record["payloadJSON"]["aps"]["alert"]["title"] == "Hello"
        assert record["response"]["status"] == 200

    def test_each_test_starts_empty(mock_apns):
        assert mock_apns.records() == []
        assert mock_apns.channels_url.startswith("https://127.0.0.1:")
        assert mock_apns.env["MOCK_APNS_CHANNELS_URL"] == mock_apns.channels_url
"""


def test_spawn_mode_starts_the_binary_resets_per_test_and_stops_it(inner):
    inner.makepyfile(PUSH_AND_EXPECT)
    result = inner.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)


def test_a_failed_expectation_names_the_nearest_miss_and_the_report_has_the_journal(inner):
    inner.makepyfile("""
        from apns_send import send_push

        def test_wrong_topic(mock_apns, mock_apns_token):
            send_push(mock_apns, mock_apns_token, topic="com.example.other")
            mock_apns.expect_push(token=mock_apns_token, topic="com.example.app", timeout="300ms")
    """)
    result = inner.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    output = result.stdout.str()
    assert "AssertionError: expected 1 push matching token:" in output
    assert "topic:com.example.app, within 300ms; got 0." in output
    assert "— topic was com.example.other (expected com.example.app)" in output
    assert "Nearest: #" in output
    assert "received:" in output and "alert com.example.other → " in output
    # The test's own line is blamed, not the plugin's.
    assert 'test_a_failed_expectation_names_the_nearest_miss_and_the_report_has_the_journal.py:5' in output \
        or ":5: AssertionError" in output, output
    assert "mock_apns/_mock.py" not in output
    assert "mock-apns journal since the test started" in output


def test_expect_no_push_fails_on_the_push_that_came(inner):
    inner.makepyfile("""
        from apns_send import send_push

        def test_quiet(mock_apns, mock_apns_token):
            send_push(mock_apns, mock_apns_token)
            mock_apns.expect_no_push(token=mock_apns_token, within="200ms")
    """)
    result = inner.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*expected no push matching token:*, within 200ms; got #*"])


def test_where_count_and_a_push_sent_twice(inner):
    inner.makepyfile("""
        import pytest
        from apns_send import send_push

        def test_where(mock_apns, mock_apns_token):
            send_push(mock_apns, mock_apns_token, payload={"aps": {"alert": "one"}})
            send_push(mock_apns, mock_apns_token, payload={"aps": {"alert": "two"}})
            [record] = mock_apns.expect_push(
                token=mock_apns_token, where=lambda r: r["payloadJSON"]["aps"]["alert"] == "two")
            assert record["payloadJSON"]["aps"]["alert"] == "two"

        def test_twice(mock_apns, mock_apns_token):
            send_push(mock_apns, mock_apns_token)
            send_push(mock_apns, mock_apns_token)
            with pytest.raises(AssertionError, match="expected 1 push matching token:.*; got 2"):
                mock_apns.expect_push(token=mock_apns_token)
            assert len(mock_apns.expect_push(token=mock_apns_token, count=2)) == 2
    """)
    inner.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=2)


def test_attach_mode_starts_nothing_never_resets_and_isolates_by_watermark(inner, binary, monkeypatch):
    with MockAPNs.start(binary=binary) as outer:
        from apns_send import send_push

        before = "f" * 64
        assert send_push(outer, before).status_code == 200
        monkeypatch.setenv("MOCK_APNS_CONTROL_URL", outer.control_url)
        monkeypatch.setenv("MOCK_APNS_BIN", "/nonexistent/mock-apns")  # attach mode must not need it
        inner.makepyfile(PUSH_AND_EXPECT + """
    def test_attached(mock_apns):
        assert mock_apns.attached and mock_apns.pid == %d
        assert mock_apns.ca_file and mock_apns.key_file
    """ % outer.pid)
        result = inner.runpytest_subprocess("-p", "no:cacheprovider")
        result.assert_outcomes(passed=3)
        tokens = [record["token"] for record in outer.records()]
        assert before in tokens and len(tokens) == 2, "the shared server was not reset"


def test_mock_apns_run_attaches_without_configuration(inner, binary):
    inner.makepyfile(PUSH_AND_EXPECT)
    result = subprocess.run(
        [binary, "run", str(HERE.parents[2] / "scenarios" / "default.yaml"), "--",
         sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(inner.path)],
        capture_output=True, text=True, timeout=120, cwd=inner.path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 passed" in result.stdout


def test_xdist_gives_each_worker_its_own_server(inner):
    inner.makepyfile("""
        import os
        import pytest
        from apns_send import send_push

        @pytest.mark.parametrize("n", range(4))
        def test_push(mock_apns, mock_apns_token, n):
            assert send_push(mock_apns, mock_apns_token).status_code == 200
            assert len(mock_apns.expect_push(token=mock_apns_token)) == 1
            with open(f"pid-{os.environ['PYTEST_XDIST_WORKER']}", "w") as out:
                out.write(str(mock_apns.pid))
    """)
    result = inner.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2")
    result.assert_outcomes(passed=4)
    pids = {(inner.path / f"pid-gw{n}").read_text() for n in range(2)}
    assert len(pids) == 2


def test_a_binary_that_exits_at_start_fails_fast_with_its_status_and_log(inner, monkeypatch):
    fake = inner.path / "fake-mock-apns"
    fake.write_text("#!/bin/sh\necho 'fake: cannot open the CA file' >&2\nexit 3\n")
    fake.chmod(0o755)
    monkeypatch.setenv("MOCK_APNS_BIN", str(fake))
    inner.makepyfile("def test_one(mock_apns): pass\ndef test_two(mock_apns): pass\n")
    result = inner.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(["*exited with status 3 before it was ready. The end of its log*",
                                 "*fake: cannot open the CA file*"])


def test_a_wrong_binary_path_says_how_to_install_or_skips(inner, monkeypatch):
    monkeypatch.setenv("MOCK_APNS_BIN", "/nonexistent/mock-apns")
    inner.makepyfile("def test_one(mock_apns): pass\n")
    result = inner.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*the mock-apns binary /nonexistent/mock-apns does not exist: install it*"])
    skipped = inner.runpytest_subprocess("-p", "no:cacheprovider", "--mock-apns-missing", "skip")
    skipped.assert_outcomes(skipped=1)


def test_a_port_in_use_is_a_clear_error(inner):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        inner.makepyfile("def test_one(mock_apns): pass\n")
        result = inner.runpytest_subprocess("-p", "no:cacheprovider", "--mock-apns-args", f"--port {port}")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([f"*cannot listen on 127.0.0.1:{port} for the APNs port: the port is already in use*"])


def test_a_bad_scenario_fails_setup_quoting_file_line_and_field(inner):
    (inner.path / "bad.yaml").write_text("name: bad\ndevices:\n  - token: abc\n")
    inner.makepyfile("""
        import pytest

        @pytest.mark.mock_apns(scenario="bad.yaml")
        def test_one(mock_apns): pass
    """)
    result = inner.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([f"*{inner.path / 'bad.yaml'}:3:*: devices[[]0[]].token: *"])


def test_a_control_url_that_answers_something_else_is_a_clear_error(inner, monkeypatch):
    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(b"<html>not a mock</html>")

        def log_message(self, *arguments):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.setenv("MOCK_APNS_CONTROL_URL", f"http://127.0.0.1:{server.server_port}")
        inner.makepyfile("def test_one(mock_apns): pass\n")
        result = inner.runpytest_subprocess("-p", "no:cacheprovider")
    finally:
        server.shutdown()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*answered 200 with something that is not mock-apns's JSON*"])


def test_options_command_line_over_environment_over_ini(inner, monkeypatch):
    inner.makeini("[pytest]\nmock_apns_timeout = 2s\n")
    inner.makepyfile("""
        import os
        def test_timeout(mock_apns):
            assert mock_apns.default_timeout == os.environ["EXPECTED"]
    """)
    monkeypatch.setenv("EXPECTED", "2s")
    inner.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
    monkeypatch.setenv("MOCK_APNS_TIMEOUT", "3s")
    monkeypatch.setenv("EXPECTED", "3s")
    inner.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
    monkeypatch.setenv("EXPECTED", "4s")
    inner.runpytest_subprocess("-p", "no:cacheprovider", "--mock-apns-timeout", "4s").assert_outcomes(passed=1)
    bad = inner.runpytest_subprocess("-p", "no:cacheprovider", "--mock-apns-reset", "always")
    bad.stderr.fnmatch_lines(["*--mock-apns-reset (or MOCK_APNS_RESET, ini mock_apns_reset) must be test or never*"])


def test_marker_devices_rules_clock_and_verify(inner):
    (inner.path / "expects.yaml").write_text(
        "name: expects\nexpect:\n  - name: order alert\n    match: { topic: com.example.app }\n    count: 1\n")
    inner.makepyfile("""
        import pytest
        from apns_send import send_push

        GONE = "ab" * 32

        @pytest.mark.mock_apns(devices=[{"token": GONE, "app": "com.example.app", "state": "unregistered"}],
                               rules=[{"name": "busy", "match": {"token": "cd" * 32},
                                       "respond": {"status": 429, "reason": "TooManyRequests"}}],
                               clock="9h")
        def test_world(mock_apns):
            assert send_push(mock_apns, GONE).status_code == 410
            assert send_push(mock_apns, "cd" * 32).status_code == 429
            assert mock_apns.clock.now()["offset"] == "9h"

        def test_the_next_test_is_back_to_normal(mock_apns):
            assert send_push(mock_apns, "cd" * 32).status_code == 200
            assert mock_apns.update_phone("cd" * 32, online=False)["state"]["online"] is False
            assert mock_apns.phone("cd" * 32)["state"]["online"] is False
            assert mock_apns.activities() == []

        @pytest.mark.mock_apns(scenario="expects.yaml")
        def test_verify_fails_then_passes(mock_apns, mock_apns_token):
            with pytest.raises(AssertionError, match="order alert: got 0, expected 1"):
                mock_apns.verify()
            send_push(mock_apns, mock_apns_token)
            mock_apns.expect_push(token=mock_apns_token)
            assert mock_apns.verify()["passed"]
    """)
    result = inner.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=3)


def test_async_handle_and_a_second_server_side_by_side(inner):
    inner.makepyfile("""
        import asyncio
        from apns_send import send_push

        def test_async(mock_apns_async, mock_apns_token):
            async def main():
                waiting = asyncio.create_task(mock_apns_async.expect_push(token=mock_apns_token, timeout="5s"))
                await asyncio.sleep(0.05)  # the loop keeps running while the wait blocks on the server
                await asyncio.to_thread(send_push, mock_apns_async.sync, mock_apns_token)
                return await waiting
            assert len(asyncio.run(main())) == 1

        def test_factory(mock_apns, mock_apns_factory, mock_apns_token):
            production = mock_apns_factory(environment="production")
            assert production.environment == "production" and mock_apns.environment == "sandbox"
            assert production.apns_url != mock_apns.apns_url
            send_push(production, mock_apns_token)
            production.expect_push(token=mock_apns_token)
            mock_apns.expect_no_push(token=mock_apns_token, within="100ms")
    """)
    inner.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=2)


def test_a_killed_pytest_leaves_no_mock_apns_process(inner):
    inner.makepyfile("""
        import time
        def test_hang(mock_apns):
            print(f"PID={mock_apns.pid}", flush=True)
            time.sleep(120)
    """)
    pytest_run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-s", "-p", "no:cacheprovider", str(inner.path)],
        stdout=subprocess.PIPE, text=True, cwd=inner.path, start_new_session=True,
    )
    try:
        pid = None
        for line in pytest_run.stdout:
            # pytest -s prints the test's output after the file name, on the same line.
            found = re.search(r"PID=(\d+)", line)
            if found:
                pid = int(found.group(1))
                break
        assert pid, "the inner test never printed the server's pid"
        server = os.pidfd_open(pid)
        os.kill(pytest_run.pid, signal.SIGKILL)
        pytest_run.wait()
        # The pidfd becomes readable when the process ends: no polling.
        readable, _, _ = select.select([server], [], [], 15)
        os.close(server)
        assert readable, f"mock-apns (pid {pid}) still runs 15 s after pytest was killed"
    finally:
        if pytest_run.poll() is None:
            pytest_run.kill()
            pytest_run.wait()


def test_without_pytest_as_a_context_manager(binary):
    script = textwrap.dedent(f"""
        from mock_apns import MockAPNs
        from apns_send import send_push
        token = "12" * 32
        with MockAPNs.start(binary={binary!r}) as mock:
            assert send_push(mock, token).status_code == 200
            mock.expect_push(token=token)
            print(mock.pid)
    """)
    environment = dict(os.environ, PYTHONPATH=str(HERE))
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=environment, timeout=60)
    assert result.returncode == 0, result.stderr
    assert not os.path.exists(f"/proc/{int(result.stdout)}"), "the server outlived the with block"


def test_reset_never_keeps_the_journal_and_isolates_by_watermark(inner):
    inner.makepyfile("""
        from apns_send import send_push

        def test_first(mock_apns, mock_apns_token):
            send_push(mock_apns, mock_apns_token)
            mock_apns.expect_push(token=mock_apns_token)

        def test_second(mock_apns):
            assert mock_apns.records() == []
            assert mock_apns.control.get("/v1/requests")["count"] == 1, "the journal was not cleared"
    """)
    inner.runpytest_subprocess("-p", "no:cacheprovider", "--mock-apns-reset", "never").assert_outcomes(passed=2)
