"""Probes mock-apns's connection limits with raw TLS and HTTP/2 frames (ssl, hyperframe, hpack).

Run by Tests/MockAPNsTests/EndToEnd/ConnectionLimitsTests.swift against a server with short limits. Each case
prints one JSON line {"case": ..., "ok": ..., "detail": {...}}; "ok" only says the probe ran to its end, the
Swift test asserts on the detail (times, frames, counts).

    python connection_probe.py CASE --port PORT [--token JWT] [--count N] [--seconds S]
"""

import argparse
import json
import os
import select
import socket
import ssl
import time

import hpack
from hyperframe.frame import DataFrame, Frame, GoAwayFrame, HeadersFrame, PingFrame, SettingsFrame

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
LIVE_TOKEN = "0123456789abcdef" * 4


def report(case, ok=True, **detail):
    print(json.dumps({"case": case, "ok": ok, "detail": detail}), flush=True)


def context(ca):
    ctx = ssl.create_default_context(cafile=ca)
    ctx.set_alpn_protocols(["h2"])
    return ctx


def connect_tls(args):
    raw = socket.create_connection(("127.0.0.1", args.port), timeout=10)
    return context(args.ca).wrap_socket(raw, server_hostname="localhost")


def wait_closed(sock, limit):
    """Seconds until the peer closes (EOF, reset, or TLS close), or None after `limit` seconds."""
    start = time.monotonic()
    sock.settimeout(0.2)
    while time.monotonic() - start < limit:
        try:
            data = sock.recv(65536)
            if not data:
                return time.monotonic() - start
        except (socket.timeout, ssl.SSLWantReadError):
            continue
        except (ConnectionError, ssl.SSLError, OSError):
            return time.monotonic() - start
    return None


def read_frames(sock, limit, until=None):
    """Frames the server sends within `limit` seconds (or until `until(frame)`), and whether it closed."""
    buffer = b""
    frames = []
    start = time.monotonic()
    sock.settimeout(0.2)
    while time.monotonic() - start < limit:
        try:
            data = sock.recv(65536)
        except (socket.timeout, ssl.SSLWantReadError):
            continue
        except (ConnectionError, ssl.SSLError, OSError):
            return frames, True, time.monotonic() - start
        if not data:
            return frames, True, time.monotonic() - start
        buffer += data
        while len(buffer) >= 9:
            frame, length = Frame.parse_frame_header(memoryview(buffer[:9]))
            if len(buffer) < 9 + length:
                break
            frame.parse_body(memoryview(buffer[9:9 + length]))
            buffer = buffer[9 + length:]
            frames.append(frame)
            if until and until(frame):
                return frames, False, time.monotonic() - start
    return frames, False, time.monotonic() - start


def goaway_detail(frames):
    for frame in frames:
        if isinstance(frame, GoAwayFrame):
            return {"goaway": True, "code": frame.error_code, "debug": frame.additional_data.decode("utf-8", "replace")}
    return {"goaway": False}


def start_http2(sock):
    sock.sendall(PREFACE + SettingsFrame(0).serialize())
    frames, _, _ = read_frames(sock, 2, until=lambda f: isinstance(f, SettingsFrame) and "ACK" not in f.flags)
    sock.sendall(SettingsFrame(0, flags=["ACK"]).serialize())
    return frames


def request_frames(encoder, stream_id, token, payload=b'{"aps":{"alert":"hi"}}', end=True):
    headers = [(":method", "POST"), (":scheme", "https"), (":path", "/3/device/" + LIVE_TOKEN),
               (":authority", "localhost"), ("apns-topic", "com.example.app"), ("authorization", "bearer " + token)]
    block = encoder.encode(headers)
    out = HeadersFrame(stream_id, block, flags=["END_HEADERS"]).serialize()
    if end:
        out += DataFrame(stream_id, payload, flags=["END_STREAM"]).serialize()
    return out


def slow_hello(args):
    """`count` connections each send a ClientHello one byte every 0.2 s: when does the server close them?"""
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    engine = context(args.ca).wrap_bio(incoming, outgoing, server_hostname="localhost")
    try:
        engine.do_handshake()
    except ssl.SSLWantReadError:
        pass
    hello = outgoing.read()
    socks = [socket.create_connection(("127.0.0.1", args.port), timeout=5) for _ in range(args.count)]
    closed = [None] * len(socks)
    start = time.monotonic()
    sent = 0
    while time.monotonic() - start < args.seconds and None in closed:
        for index, sock in enumerate(socks):
            if closed[index] is not None or sent >= len(hello):
                continue
            try:
                sock.send(hello[sent:sent + 1])
            except OSError:
                closed[index] = time.monotonic() - start
        sent += 1
        readable, _, _ = select.select([s for i, s in enumerate(socks) if closed[i] is None], [], [], 0.2)
        for sock in readable:
            index = socks.index(sock)
            try:
                if not sock.recv(4096):
                    closed[index] = time.monotonic() - start
            except OSError:
                closed[index] = time.monotonic() - start
    for sock in socks:
        sock.close()
    report("slow-hello", closedAfter=closed, helloBytes=len(hello), sentBytes=min(sent, len(hello)))


def stall(args, preface_bytes):
    """Finishes the TLS handshake, sends `preface_bytes` of the preface, then nothing."""
    sock = connect_tls(args)
    if preface_bytes:
        sock.sendall(PREFACE[:preface_bytes])
    closed = wait_closed(sock, args.seconds)
    report("stall" if not preface_bytes else "half-preface", closedAfter=closed, alpn=sock.selected_alpn_protocol())


def idle(args, ping_every=None, half_request=False):
    """A whole preface (and maybe half a request), then silence (or only PINGs): GOAWAY IdleTimeout?"""
    sock = connect_tls(args)
    start_http2(sock)
    if half_request:
        sock.sendall(request_frames(hpack.Encoder(), 1, args.token, end=False))
    last_sent = time.monotonic()
    if ping_every:
        pinged_until = time.monotonic() + args.seconds
        while time.monotonic() < pinged_until:
            sock.sendall(PingFrame(0, opaque_data=b"12345678").serialize())
            last_sent = time.monotonic()
            frames, closed, _ = read_frames(sock, ping_every, until=lambda f: isinstance(f, GoAwayFrame))
            if closed or any(isinstance(f, GoAwayFrame) for f in frames):
                report("idle-ping", ok=False, closedWhilePinging=True, **goaway_detail(frames))
                return
    frames, closed, _ = read_frames(sock, args.seconds + 5, until=lambda f: isinstance(f, GoAwayFrame))
    goaway_at = time.monotonic() - last_sent
    closed_after = wait_closed(sock, 5)
    report("half-request" if half_request else ("idle-ping" if ping_every else "idle"), goawayAfter=goaway_at,
           closedAfterGoaway=closed_after, **goaway_detail(frames))


def never_read(args):
    """Pushes and never reads an answer until its writes block (the server stopped reading) or `seconds` pass;
    then, once told to, reads and counts every answer."""
    # Cleartext HTTP/2: a write that times out leaves a TLS socket unusable for reading in Python, a plain one not.
    # The server's back-pressure is the same on both ports.
    sock = socket.create_connection(("127.0.0.1", args.port), timeout=10)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    start_http2(sock)
    encoder = hpack.Encoder()
    # Bursts of 50 requests a few milliseconds apart: the server answers each burst before the next arrives, so
    # the stream limit holds although this client never reads an answer.
    sent = 0
    stream_id = 1
    sock.settimeout(2)
    start = time.monotonic()
    try:
        while time.monotonic() - start < args.seconds:
            sock.sendall(b"".join(request_frames(encoder, stream_id + 2 * i, args.token) for i in range(50)))
            stream_id += 100
            sent += 50
            time.sleep(0.002)
    except socket.timeout:
        pass
    except OSError as error:
        frames, _, _ = read_frames(sock, 5, until=lambda f: isinstance(f, GoAwayFrame))
        report("never-read-drained", ok=False, error=str(error), sent=sent, **goaway_detail(frames))
        return
    blocked_after = time.monotonic() - start
    status = json.dumps({"sent": sent, "blockedAfter": blocked_after, "blocked": blocked_after < args.seconds})
    with open(args.blocked + ".tmp", "w") as out:
        out.write(status)
    os.rename(args.blocked + ".tmp", args.blocked)
    # The Swift test checks the journal and another connection now, then tells us (a file) to read.
    until = time.monotonic() + 60
    while not os.path.exists(args.go) and time.monotonic() < until:
        time.sleep(0.05)
    answers = 0
    buffer = b""
    # A 4 KiB receive buffer would let the answers through at a few KiB a second.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    # After seconds of a zero window the server's kernel learns of the open window only from its next zero-window
    # probe (the persist timer backs off exponentially: 12.8 s apart after about 12 s): a quiet gap that long is
    # TCP's, not the server's, so wait out up to 30 s of silence before taking the connection as done.
    sock.settimeout(30)
    reading = time.monotonic()
    last_data = reading
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            data = sock.recv(1 << 20)
        except OSError:
            break
        if not data:
            break
        last_data = time.monotonic()
        buffer += data
        offset = 0
        while len(buffer) - offset >= 9:
            frame, length = Frame.parse_frame_header(memoryview(buffer[offset:offset + 9]))
            if len(buffer) - offset < 9 + length:
                break
            if isinstance(frame, HeadersFrame):
                answers += 1
            offset += 9 + length
        buffer = buffer[offset:]
    report("never-read-drained", answers=answers, sent=sent, blockedAfter=blocked_after,
           drainSeconds=last_data - reading)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("case")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--token", default="")
    parser.add_argument("--count", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--go", help="never-read: start reading once this file exists")
    parser.add_argument("--blocked", help="never-read: write the sending outcome to this file")
    args, _ = parser.parse_known_args()
    cases = {
        "slow-hello": lambda: slow_hello(args),
        "stall": lambda: stall(args, 0),
        "half-preface": lambda: stall(args, 10),
        "idle": lambda: idle(args),
        "idle-ping": lambda: idle(args, ping_every=args.seconds / 6),
        "half-request": lambda: idle(args, half_request=True),
        "never-read": lambda: never_read(args),
    }
    cases[args.case]()


if __name__ == "__main__":
    main()
