"""Shared plumbing for the third-party client scripts in this folder.

Each script drives one real APNs client library from PyPI against a running mock-apns, through the library's
own documented API, and prints one JSON line per case:

    {"case": "success", "ok": true, "detail": {...}}

It exits 0 only when every case got the answer real APNs would give. Nothing here touches the library under
test: this module only parses the command line, prints results, and (with ``--route proxy``) runs a tiny
HTTP CONNECT proxy that sends every tunnel to the mock, so that a library can keep Apple's host name and
port and still reach it.
"""

import argparse
import json
import os
import select
import signal
import socket
import socketserver
import sys
import threading
import traceback

# The device token the test server's world marks as unregistered (410 Unregistered with a timestamp).
DEAD_TOKEN = "deadbeef" * 8
# A token any lenient world accepts.
LIVE_TOKEN = "0123456789abcdef" * 4
# A token APNs can never have issued: not hex, odd length.
MALFORMED_TOKEN = "xyz"

ALERT = {"aps": {"alert": {"title": "Order ready", "body": "Your food is on its way"}}}


def parse_arguments(description, routes=("direct", "proxy")):
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--port", type=int, required=True, help="the mock's TLS port")
    parser.add_argument("--host", default="localhost", help="the mock's host name (must be in its certificate)")
    parser.add_argument("--ca", default=os.path.join(root, "certs/ca.pem"), help="CA file to trust")
    parser.add_argument("--p8", default=os.path.join(root, "certs/AuthKey_TESTKEY001.p8"), help="signing key")
    parser.add_argument("--team", default="TESTTEAM01", help="team id (iss)")
    parser.add_argument("--key-id", default="TESTKEY001", help="key id (kid)")
    parser.add_argument("--topic", default="com.example.app", help="bundle id")
    parser.add_argument("--client-cert", default=os.path.join(root, "certs/client-sandbox.pem"),
                        help="client certificate for certificate-based (mutual TLS) cases")
    parser.add_argument("--client-key", default=os.path.join(root, "certs/client-sandbox.key"),
                        help="its private key")
    parser.add_argument("--dead-token", default=DEAD_TOKEN, help="a token the mock answers 410 Unregistered for")
    parser.add_argument(
        "--route", choices=list(routes), default="direct",
        help="direct: point the library at --host:--port; proxy (where the library can use one): keep "
        "Apple's host and port and tunnel every connection to the mock through a local HTTP CONNECT proxy")
    parser.add_argument("--timeout", type=float, default=20, help="seconds allowed for each case")
    return parser.parse_args()


class Report:
    """Collects case results, prints each as one JSON line, and gives the exit code."""

    def __init__(self):
        self.failed = 0
        self.count = 0

    def case(self, name, ok, **detail):
        self.count += 1
        if not ok:
            self.failed += 1
        print(json.dumps({"case": name, "ok": bool(ok), "detail": detail}, default=str), flush=True)

    def error(self, name, exc):
        """A case that raised where no exception was expected."""
        self.case(name, False, exception=type(exc).__name__, message=str(exc),
                  traceback=traceback.format_exc(limit=6))

    def exit(self):
        sys.exit(1 if self.failed or self.count == 0 else 0)


def expect_timestamp(value):
    """APNs sends the 410 timestamp as an integer number of milliseconds since 1970."""
    return isinstance(value, int) and not isinstance(value, bool) and value > 10**12


def httpx_provider_parser(description, topic="com.example.app"):
    """The command line the httpx provider scripts share: the mock's ``--port``, ``--token``, the app's ``--topic``,
    and the trust and signing files (``--ca``, ``--p8``, ``--team``, ``--key-id``) with the repository's test
    defaults. A script adds its own arguments to the parser it returns."""
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--port", type=int, required=True, help="the mock's APNs port")
    parser.add_argument("--token", required=True, help="the device token to push to")
    parser.add_argument("--topic", default=topic, help="the app's bundle id")
    parser.add_argument("--ca", default=os.path.join(root, "certs/ca.pem"))
    parser.add_argument("--p8", default=os.path.join(root, "certs/AuthKey_TESTKEY001.p8"))
    parser.add_argument("--team", default="TESTTEAM01", help="team id (iss)")
    parser.add_argument("--key-id", default="TESTKEY001", help="key id (kid)")
    return parser


def provider_token(args, issued_at):
    """A provider token (ES256 JWT) signed with ``args.p8`` for ``args.team`` and ``args.key_id``, issued at
    ``issued_at`` (seconds since 1970)."""
    import jwt

    with open(args.p8) as key:
        return jwt.encode({"iss": args.team, "iat": int(issued_at)}, key.read(), algorithm="ES256",
                          headers={"kid": args.key_id})


def httpx_apns_client(args):
    """An httpx client as a provider opens one to APNs, trusting the mock's CA (``args.ca``): HTTP/2, 20 s timeout."""
    import ssl

    import httpx

    return httpx.Client(http2=True, verify=ssl.create_default_context(cafile=args.ca), timeout=20)


def post_push(client, report, name, url, body, headers):
    """POSTs one push with a fresh ``apns-id`` on an httpx HTTP/2 client and reports it as the case ``name``: it
    passes when the answer came over HTTP/2, is 200, and echoes the ``apns-id``. Returns the response, or None when
    the request failed (reported as an error)."""
    import uuid

    import httpx

    apns_id = str(uuid.uuid4())
    try:
        sent = client.post(url, content=body, headers={**headers, "apns-id": apns_id})
    except httpx.HTTPError as error:
        report.error(name, error)
        return None
    report.case(name, sent.http_version == "HTTP/2" and sent.status_code == 200
                and sent.headers.get("apns-id", "").lower() == apns_id,
                status=sent.status_code, apns_id=apns_id, body=sent.text)
    return sent


class _Tunnel(socketserver.BaseRequestHandler):
    def handle(self):
        client = self.request
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = client.recv(4096)
            if not chunk:
                return
            head += chunk
        head, rest = head.split(b"\r\n\r\n", 1)
        request_line = head.split(b"\r\n", 1)[0].decode("latin-1")
        self.server.requests.append(request_line)
        if not request_line.startswith("CONNECT "):
            client.sendall(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
            return
        upstream = socket.create_connection(self.server.target)
        client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        if rest:
            upstream.sendall(rest)
        sockets = [client, upstream]
        try:
            while True:
                readable, _, _ = select.select(sockets, [], [], 60)
                if not readable:
                    return
                for source in readable:
                    data = source.recv(65536)
                    if not data:
                        return
                    (upstream if source is client else client).sendall(data)
        except OSError:
            return
        finally:
            upstream.close()


class _ProxyServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def start_connect_proxy(target_host, target_port):
    """Starts an HTTP CONNECT proxy on a free local port that tunnels every CONNECT, whatever its
    target, to ``target_host:target_port``. Returns the proxy server; ``server.server_address[1]`` is its
    port and ``server.requests`` the request lines it saw."""
    server = _ProxyServer(("127.0.0.1", 0), _Tunnel)
    server.target = (target_host, target_port)
    server.requests = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class CaseTimeout(Exception):
    """A case got no answer within --timeout seconds."""


def _on_alarm(signum, frame):
    raise CaseTimeout("no answer in time")


def make_timed(seconds):
    """Returns timed(function, *args, **kwargs): calls it, raising CaseTimeout after `seconds` (SIGALRM).

    For blocking clients only; asyncio clients use asyncio.wait_for.
    """
    signal.signal(signal.SIGALRM, _on_alarm)

    def timed(function, *arguments, **keywords):
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return function(*arguments, **keywords)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)

    return timed
