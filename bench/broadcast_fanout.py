#!/usr/bin/env python3
"""Fan-out of one broadcast to N subscribed Live Activities (issue 24), and device pushes meanwhile.

Starts `mock-apns serve` on free ports with scenarios/taxi-ride.yaml, creates a policy-0 channel on the channels
port, starts N taxi activities subscribed to it (POST /v1/activities with "channel"), then:

1. sends ROUNDS broadcasts one after another (curl --http2) and prints, for each, the time from the broadcast's
   receive to its fan-out record (the two records' receivedAt, on the server's clock) and the fan-out's counts;
   issue 24 asks for under 100 ms at N = 10,000;
2. runs h2load (PUSHES device alert pushes, 1 connection x 100 streams) alone, then again while a broadcast to
   the N activities is sent every EVERY seconds (default 0.25; 0: back to back), and prints both rates and mean
   latencies: device pushes must not slow down while a fan-out runs.

Usage: python3 bench/broadcast_fanout.py [N]     (from the repository root; N defaults to 10000)
Needs: h2load (nghttp2-client), curl, and a build of mock-apns (MOCK_APNS=path; the default is the release build in
.build-release: swift build -c release --product mock-apns --scratch-path .build-release).
"""

import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime

from checks import number_setting, whole_setting  # bench/checks.py

# The argument alone, never an N in the environment (bench/run.sh's).
COUNT = whole_setting("N", 10_000, 1, 1_000_000, text=sys.argv[1] if len(sys.argv) > 1 else "")
ROUNDS = whole_setting("ROUNDS", 5, 1, 50)
PUSHES = whole_setting("PUSHES", 200_000, 1000, 100_000_000)
# Seconds between broadcasts while device pushes run; 0 sends them back to back.
EVERY = number_setting("EVERY", 0.25, 0, 60)
BINARY = os.environ.get("MOCK_APNS", ".build-release/release/mock-apns")
if not os.access(BINARY, os.X_OK):
    sys.exit(f"broadcast_fanout.py: MOCK_APNS={BINARY} is not an executable file; give a mock-apns build (swift build "
             "-c release --product mock-apns --scratch-path .build-release)")
APP = "com.example.app"


def timestamp(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def main():
    work = tempfile.mkdtemp()
    banner_path = os.path.join(work, "banner")
    banner = open(banner_path, "w")
    server = subprocess.Popen(
        [BINARY, "serve", "--scenario", "scenarios/taxi-ride.yaml", "--port", "0", "--control-port", "0",
         "--channels-port", "0", "--log-level", "warning", "--journal-capacity", "100000"],
        stdout=banner, stderr=subprocess.STDOUT)
    try:
        run(server, banner_path, work)
    finally:
        server.terminate()
        server.wait(timeout=10)


def run(server, banner_path, work):
    for _ in range(600):
        text = open(banner_path).read()
        if re.search(r"^ready", text, re.M):
            break
        if server.poll() is not None:
            sys.exit("mock-apns exited:\n" + text)
        time.sleep(0.1)
    urls = re.findall(r"(https?)://127\.0\.0\.1:(\d+)", open(banner_path).read())
    https_ports = [int(port) for scheme, port in urls if scheme == "https"]
    control_port = next(int(port) for scheme, port in urls if scheme == "http")
    control = http.client.HTTPConnection("127.0.0.1", control_port)
    info = call(control, "GET", "/v1/info")
    apns_port = int(info["apnsURL"].rsplit(":", 1)[1])
    channels_port = int(info["channelsURL"].rsplit(":", 1)[1])
    assert apns_port in https_ports and channels_port in https_ports, (info, https_ports)
    token = subprocess.check_output([BINARY, "token"], text=True).strip()
    ca = "certs/ca.pem"

    created = subprocess.run(
        ["curl", "-sS", "--http2", "--cacert", ca, "-D", "-", "-o", "/dev/null",
         "-H", f"authorization: bearer {token}", "-d", '{"message-storage-policy": 0, "push-type": "LiveActivity"}',
         f"https://127.0.0.1:{channels_port}/1/apps/{APP}/channels"],
        check=True, capture_output=True, text=True).stdout
    channel = re.search(r"(?im)^apns-channel-id: *(\S+)", created).group(1)

    started = time.perf_counter()
    body = json.dumps({"attributesType": "mpushTaxiAttributes", "attributes": {"appName": "Taxi", "appLogo": "l"},
                       "contentState": {"status": "1"}, "channel": channel})
    for _ in range(COUNT):
        call(control, "POST", "/v1/activities", body)
    print(f"{COUNT} activities subscribed in {time.perf_counter() - started:.1f} s")

    def broadcast(status):
        payload = json.dumps({"aps": {"event": "update", "timestamp": int(time.time()) + status,
                                      "content-state": {"status": str(status)}}})
        subprocess.run(
            ["curl", "-sS", "--http2", "--cacert", ca, "-o", "/dev/null", "-w", "%{http_code}",
             "-H", f"authorization: bearer {token}", "-H", f"apns-channel-id: {channel}",
             "-H", "apns-push-type: liveactivity", "-H", "apns-priority: 10", "-H", "apns-expiration: 0",
             "-d", payload, f"https://127.0.0.1:{apns_port}/4/broadcasts/apps/{APP}"],
            check=True, capture_output=True, text=True)

    took = []
    for round in range(ROUNDS):
        since = call(control, "GET", "/v1/requests?limit=1")["records"][-1]["sequence"]
        broadcast(round + 1)
        sent = call(control, "GET", f"/v1/requests?q=kind:broadcast&since={since}")["records"][0]
        fan_out = call(control, "GET", f"/v1/requests/wait?q=kind:fan-out&since={sent['sequence']}&timeout=60s")
        record = fan_out["records"][0]
        milliseconds = (timestamp(record["receivedAt"]) - timestamp(sent["receivedAt"])) * 1000
        took.append(milliseconds)
        print(f"broadcast {round + 1}: fan-out to {record['subscribers']} in {milliseconds:.1f} ms "
              f"({record['summary']})")
    print(f"fan-out to {COUNT}: median {statistics.median(took):.1f} ms, max {max(took):.1f} ms")

    device = "0123456789abcdef" * 4
    with open(os.path.join(work, "body.json"), "w") as file:
        file.write('{"aps":{"alert":{"title":"Order ready","body":"On its way"},"badge":1}}')

    def h2load():
        output = subprocess.run(
            ["h2load", "-t", "1", "-c", "1", "-m", "100", "-n", str(PUSHES), "-d", os.path.join(work, "body.json"),
             "-H", "apns-topic: com.example.app", "-H", "apns-push-type: alert",
             "-H", f"authorization: bearer {token}", f"https://127.0.0.1:{apns_port}/3/device/{device}"],
            check=True, capture_output=True, text=True).stdout
        rate = float(re.search(r"finished in [\d.]+\w+, ([\d.]+) req/s", output).group(1))
        mean = re.search(r"time for request: +\S+ +\S+ +(\S+)", output).group(1)
        codes = re.search(r"status codes: (.*)", output).group(1)
        return rate, mean, codes

    alone = h2load()
    stop = threading.Event()
    fanned = [0]

    def keep_broadcasting():
        status = 100
        while not stop.is_set():
            status += 1
            broadcast(status)
            fanned[0] += 1
            stop.wait(EVERY)

    broadcaster = threading.Thread(target=keep_broadcasting)
    broadcaster.start()
    time.sleep(0.2)
    during = h2load()
    stop.set()
    broadcaster.join()
    print(f"device pushes alone:            {alone[0]:.0f} req/s, mean {alone[1]} ({alone[2]})")
    print(f"device pushes during fan-outs:  {during[0]:.0f} req/s, mean {during[1]} ({during[2]}); "
          f"{fanned[0]} broadcasts to {COUNT} sent meanwhile, one every {EVERY} s")


def call(connection, method, path, body=None):
    connection.request(method, path, body=body, headers={"content-type": "application/json"} if body else {})
    response = connection.getresponse()
    data = response.read()
    if response.status >= 400:
        sys.exit(f"{method} {path}: {response.status} {data[:300]!r}")
    return json.loads(data) if data else None


if __name__ == "__main__":
    main()
