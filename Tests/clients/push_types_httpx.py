"""The push types beyond alert, background and VoIP, sent with httpx over HTTP/2 as a provider writes them.

One push each of pushtotalk, location, complication, widgets, controls, fileprovider and mdm to one device token,
with the apns-push-type and topic suffix Apple documents for it (apns-reference.md §3) and a provider token made with
PyJWT from the test key. Only host, port and the trusted CA differ from production use (api.sandbox.push.apple.com).
One JSON line per case, with the apns-id the mock answered; exit 0 only when every push got 200. The test that runs
this script reads what the simulated phone did with each push from the mock's journal.
"""

import json
import time

from _common import Report, httpx_apns_client, httpx_provider_parser, post_push, provider_token

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
    parser = httpx_provider_parser(__doc__, topic=APP)
    parser.add_argument("--mdm-topic", default="com.apple.mgmt.External.5f3a4a0e-1c1f-4a8e-9b6e-0f2c3d4e5f60",
                        help="the MDM push certificate's topic (its UID)")
    return parser.parse_args()


def main():
    args = arguments()
    report = Report()
    bearer = provider_token(args, time.time())
    url = f"https://localhost:{args.port}/3/device/{args.token}"
    pushes = [(name, kind, args.topic + suffix, priority, payload) for name, kind, suffix, priority, payload in PUSHES]
    pushes.append(("mdm", "mdm", args.mdm_topic, "10", {"mdm": "8F1D2A5B-PUSHMAGIC"}))
    with httpx_apns_client(args) as client:
        for name, kind, topic, priority, payload in pushes:
            post_push(client, report, name, url, json.dumps(payload), {
                "authorization": f"bearer {bearer}", "apns-push-type": kind, "apns-topic": topic,
                "apns-priority": priority, "apns-expiration": str(int(time.time()) + 3600)})
    report.exit()


if __name__ == "__main__":
    main()
