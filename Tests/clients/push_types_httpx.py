"""The push types beyond alert, background and VoIP, sent with httpx over HTTP/2 as a provider writes them.

One push each of pushtotalk, location, complication, widgets, controls, fileprovider and mdm to one device token,
with the apns-push-type and topic suffix Apple documents for it (apns-reference.md §3) and a provider token made with
PyJWT from the test key. Only host, port and the trusted CA differ from production use (api.sandbox.push.apple.com).
One JSON line per case, with the apns-id the mock answered; exit 0 only when every push got 200. The test that runs
this script reads what the simulated phone did with each push from the mock's journal.
"""

import argparse
import json
import os
import ssl
import time

import httpx
import jwt

from _common import Report, post_push

APP = "com.example.app"

# (case, apns-push-type, topic suffix, priority, payload), as Apple's pages give them.
PUSHES = [
    ("pushtotalk", "pushtotalk", ".voip-ptt", "10", {"aps": {}, "activeSpeaker": "Ana"}),
    ("location", "location", ".location-query", "10", {"aps": {}}),
    ("complication", "complication", ".complication", "10", {"aps": {}, "score": "2-1"}),
    ("widgets", "widgets", ".push-type.widgets", "5", {"aps": {"content-changed": True}}),
    ("controls", "controls", ".push-type.controls", "5", {"aps": {"content-changed": True}}),
    ("fileprovider", "fileprovider", ".pushkit.fileprovider", "10",
     {"container-identifier": "NSFileProviderWorkingSetContainerItemIdentifier", "domain": "work"}),
]


def arguments():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True, help="the mock's APNs port")
    parser.add_argument("--token", required=True, help="the device token to push to")
    parser.add_argument("--ca", default=os.path.join(root, "certs/ca.pem"))
    parser.add_argument("--p8", default=os.path.join(root, "certs/AuthKey_TESTKEY001.p8"))
    parser.add_argument("--team", default="TESTTEAM01", help="team id (iss)")
    parser.add_argument("--key-id", default="TESTKEY001", help="key id (kid)")
    parser.add_argument("--topic", default=APP, help="the app's bundle id")
    parser.add_argument("--mdm-topic", default="com.apple.mgmt.External.5f3a4a0e-1c1f-4a8e-9b6e-0f2c3d4e5f60",
                        help="the MDM push certificate's topic (its UID)")
    return parser.parse_args()


def main():
    args = arguments()
    report = Report()
    with open(args.p8) as key:
        bearer = jwt.encode({"iss": args.team, "iat": int(time.time())}, key.read(), algorithm="ES256",
                            headers={"kid": args.key_id})
    trust = ssl.create_default_context(cafile=args.ca)
    url = f"https://localhost:{args.port}/3/device/{args.token}"
    pushes = [(name, kind, args.topic + suffix, priority, payload) for name, kind, suffix, priority, payload in PUSHES]
    pushes.append(("mdm", "mdm", args.mdm_topic, "10", {"mdm": "8F1D2A5B-PUSHMAGIC"}))
    with httpx.Client(http2=True, verify=trust, timeout=20) as client:
        for name, kind, topic, priority, payload in pushes:
            post_push(client, report, name, url, json.dumps(payload), {
                "authorization": f"bearer {bearer}", "apns-push-type": kind, "apns-topic": topic,
                "apns-priority": priority, "apns-expiration": str(int(time.time()) + 3600)})
    report.exit()


if __name__ == "__main__":
    main()
