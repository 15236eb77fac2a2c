"""Starting the mock-apns binary for tests: free ports, readiness from `serve --ready-json`, a log file, and a stop
that never leaves an orphan (`--exit-on-stdin-close` ends it with the process that holds its standard input)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import threading
from typing import Any, List, Mapping, Optional, Sequence, Tuple

from ._control import MockAPNsError

INSTALL_HINT = (
    "install it (in a mock-apns checkout: scripts/install, which puts it in ~/.local/bin) or name it with "
    "MOCK_APNS_BIN=/path/to/mock-apns (or --mock-apns-bin)"
)


class BinaryMissing(MockAPNsError):
    """The mock-apns binary is not where the options say."""


def find_binary(binary: Optional[str]) -> str:
    """The executable to start: `binary` (a path, or a name looked up on PATH), else `mock-apns` on PATH."""
    name = binary or "mock-apns"
    if os.sep in name:
        if os.path.isfile(name) and os.access(name, os.X_OK):
            return os.path.abspath(name)
        why = "is not an executable file" if os.path.exists(name) else "does not exist"
        raise BinaryMissing(f"the mock-apns binary {name} {why}: {INSTALL_HINT}")
    found = shutil.which(name)
    if not found:
        raise BinaryMissing(f"no {name} on PATH: {INSTALL_HINT}")
    return found


class ServerProcess:
    """A running `mock-apns serve`, started by `start` and stopped by `stop` (or when this process dies)."""

    def __init__(self, process: subprocess.Popen, ready: Mapping[str, Any], log_path: str, owns_log: bool):
        self.process = process
        self.ready = dict(ready)
        self.log_path = log_path
        self._owns_log = owns_log

    @classmethod
    def start(
        cls,
        binary: Optional[str] = None,
        scenario: Optional[str] = None,
        environment: Optional[str] = None,
        control_token: Optional[str] = None,
        extra_args: Sequence[str] = (),
        start_timeout: float = 30.0,
        log_path: Optional[str] = None,
        cwd: Optional[str] = None,
    ) -> "ServerProcess":
        """Starts the binary on free ports and waits for its ready line; `MockAPNsError` with the exit status and
        the log's tail when it ends first, or when `start_timeout` seconds pass."""
        executable = find_binary(binary)
        arguments: List[str] = [
            executable, "serve", "--port", "0", "--control-port", "0", "--ready-json", "--exit-on-stdin-close",
        ]
        if scenario:
            arguments += ["--scenario", scenario]
        if environment:
            arguments += ["--environment", environment]
        if control_token:
            arguments += ["--control-token", control_token]
        arguments += list(extra_args)
        owns_log = log_path is None
        if log_path is None:
            handle, log_path = tempfile.mkstemp(prefix="mock-apns-", suffix=".log")
            os.close(handle)
        log = open(log_path, "ab")
        try:
            process = subprocess.Popen(
                arguments, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, cwd=cwd, close_fds=True,
            )
        except OSError as error:
            log.close()
            raise BinaryMissing(f"cannot start {executable}: {error.strerror}: {INSTALL_HINT}") from None
        finally:
            if not log.closed:
                log.close()
        line, ended = _read_line(process, start_timeout)
        if line is None:
            try:
                # Its standard output ended: it is exiting. A timeout leaves it running.
                status = process.wait(5 if ended else 0)
            except subprocess.TimeoutExpired:
                status = None
            if status is None:
                _end(process)
                why = f"did not print its ready line within {start_timeout:g}s"
            elif status < 0:
                why = f"was ended by signal {-status} before it was ready"
            else:
                why = f"exited with status {status} before it was ready"
            raise MockAPNsError(
                f"mock-apns ({' '.join(arguments[1:])}) {why}. The end of its log ({log_path}):\n"
                + _tail(log_path)
            )
        try:
            ready = json.loads(line)
        except ValueError:
            _end(process)
            raise MockAPNsError(
                f"{executable} printed {line[:200]!r} instead of a JSON ready line: is it a mock-apns with "
                "serve --ready-json?"
            ) from None
        return cls(process, ready, log_path, owns_log)

    def log_tail(self, lines: int = 20) -> str:
        return _tail(self.log_path, lines)

    def stop(self, grace: float = 5.0) -> None:
        """Closes its standard input (it shuts down gracefully), then SIGTERM, then SIGKILL; safe to call twice."""
        _end(self.process, grace)
        if self._owns_log and self.process.returncode in (0, -15):
            try:
                os.unlink(self.log_path)
            except OSError:
                pass


def _read_line(process: subprocess.Popen, timeout: float) -> Tuple[Optional[str], bool]:
    """The first line of its standard output (None when there is none), and whether the output ended (rather
    than `timeout` passing)."""
    result: List[bytes] = []
    reader = threading.Thread(target=lambda: result.append(process.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    if not result:
        return None, False
    line = result[0].decode(errors="replace").strip()
    return (line or None), not result[0].endswith(b"\n")


def _end(process: subprocess.Popen, grace: float = 5.0) -> None:
    if process.poll() is None:
        try:
            process.stdin.close()
        except OSError:
            pass
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            process.terminate()
            try:
                process.wait(grace)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    for stream in (process.stdin, process.stdout):
        try:
            if stream:
                stream.close()
        except OSError:
            pass


def _tail(path: str, lines: int = 20) -> str:
    try:
        with open(path, "rb") as log:
            log.seek(0, os.SEEK_END)
            log.seek(max(0, log.tell() - 16384))
            text = log.read().decode(errors="replace")
    except OSError as error:
        return f"  (cannot read it: {error.strerror})"
    kept = text.splitlines()[-lines:]
    return "\n".join("  " + line for line in kept) if kept else "  (empty)"

