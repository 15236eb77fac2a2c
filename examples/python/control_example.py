"""Drive mock-apns from Python with `requests`: reset, push, wait, query, steer the world.

Start the mock first (from the repository root):

    mock-apns serve            # APNs on https://127.0.0.1:2197, control API on http://127.0.0.1:2190

then run:

    python3 examples/python/control_example.py [--control http://127.0.0.1:2190] [--apns-port 2197]

The pushes themselves need HTTP/2, which `requests` does not speak, so this example sends them with curl, as a
provider under test would send them with its own HTTP/2 client. Everything else uses `requests` only.
"""

import argparse
import shutil
import subprocess
import sys
import threading

import requests

TOKEN = "0123456789abcdef" * 4
OTHER = "fedcba9876543210" * 4


def push(apns_port, ca_file, provider_token, device, topic="com.example.app", title="Hello"):
    """Sends one alert over HTTP/2 with curl and returns the HTTP status."""
    result = subprocess.run(
        [
            "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--http2", "--cacert", ca_file,
            "-H", f"apns-topic: {topic}", "-H", "apns-push-type: alert",
            "-H", f"authorization: bearer {provider_token}",
            "-d", '{"aps":{"alert":{"title":"%s","body":"from Python"}}}' % title,
            f"https://localhost:{apns_port}/3/device/{device}",
        ],
        capture_output=True, text=True, check=True,
    )
    return int(result.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--control", default="http://127.0.0.1:2190", help="the control API URL")
    parser.add_argument("--apns-port", type=int, default=2197, help="the APNs (TLS) port")
    parser.add_argument("--ca", default="certs/ca.pem", help="the CA file the mock's certificate chains to")
    parser.add_argument("--mock-apns", default=shutil.which("mock-apns") or ".build/debug/mock-apns",
                        help="the mock-apns executable (to mint a provider token)")
    args = parser.parse_args()
    control = args.control
    session = requests.Session()

    def check(response, status=200):
        if response.status_code != status:
            sys.exit(f"{response.request.method} {response.url}: {response.status_code} {response.text}")
        return response.json() if response.content else None

    print("healthz:", check(session.get(f"{control}/healthz")))
    print("reset:", check(session.post(f"{control}/v1/reset")))
    original = session.get(f"{control}/v1/scenario").text  # a scenario document, to load back at the end
    provider_token = subprocess.run([args.mock_apns, "token"], capture_output=True, text=True, check=True).stdout.strip()

    # Wait for a push that has not been sent yet: the answer comes as soon as it is recorded.
    waited = {}

    def wait():
        waited["answer"] = session.get(f"{control}/v1/requests/wait",
                                       params={"token": TOKEN, "count": 1, "timeout": "5s"})

    waiter = threading.Thread(target=wait)
    waiter.start()
    print("push:", push(args.apns_port, args.ca, provider_token, TOKEN))
    waiter.join()
    found = check(waited["answer"])
    print("wait: found", found["found"], "- title:", found["records"][0]["payloadJSON"]["aps"]["alert"]["title"])

    # Query with filters.
    push(args.apns_port, args.ca, provider_token, OTHER, topic="com.example.other")
    listed = check(session.get(f"{control}/v1/requests", params={"topic": "com.example.other"}))
    print("requests?topic=com.example.other:", [r["sequence"] for r in listed["records"]])
    first = check(session.get(f"{control}/v1/requests/{listed['records'][0]['sequence']}"))
    print("one record: token", first["token"][:8], "status", first["response"]["status"])

    # A wait that cannot succeed answers 408 and names the nearest misses.
    missed = session.get(f"{control}/v1/requests/wait",
                         params={"token": OTHER, "topic": "com.example.app", "timeout": "300ms"})
    print("wait (408):", missed.status_code, missed.json()["error"])

    # Bad input is refused with a message, and nothing changes.
    bad = session.get(f"{control}/v1/requests", params={"tokn": TOKEN})
    print("bad filter:", bad.status_code, bad.json()["error"])

    # Steer the world: a device that uninstalled the app answers 410 from now on.
    check(session.post(f"{control}/v1/devices", json={"token": OTHER, "app": "com.example.app"}), 201)
    check(session.post(f"{control}/v1/devices/{OTHER}/unregister"))
    print("push to the unregistered device:", push(args.apns_port, args.ca, provider_token, OTHER))

    # A scripted rule at run time: the next push to TOKEN gets 429 TooManyRequests.
    check(session.post(f"{control}/v1/rules",
                       json={"name": "busy", "match": {"token": TOKEN}, "times": 1,
                             "respond": {"reason": "TooManyRequests"}}), 201)
    print("push under the rule:", push(args.apns_port, args.ca, provider_token, TOKEN))
    print("rules removed:", check(session.delete(f"{control}/v1/rules"))["removed"])

    stats = check(session.get(f"{control}/v1/stats"))
    print("stats: by status", stats["byStatus"], "by reason", stats["byReason"])
    metrics = session.get(f"{control}/metrics").text
    print("metrics:", next(line for line in metrics.splitlines() if line.startswith("mock_apns_requests_total")))

    # Load another scenario (this clears the journal); an invalid one is refused with its line, column and field.
    refused = session.put(f"{control}/v1/scenario", data="environment: moon\n")
    print("invalid scenario:", refused.status_code, refused.json()["error"])
    loaded = check(session.put(f"{control}/v1/scenario", data="name: from-python\nenvironment: production\n"))
    print("scenario now:", loaded["name"], loaded["environment"])

    check(session.put(f"{control}/v1/scenario", data=original))
    print("scenario restored:", check(session.get(f"{control}/v1/scenario"))["name"])


if __name__ == "__main__":
    main()
