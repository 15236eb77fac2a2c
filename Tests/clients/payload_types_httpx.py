"""Pushes whose custom keys an app's code reads, and a chat message its service extension makes a communication
notification, sent with httpx over HTTP/2 as a provider writes them.

Four pushes to one phone, in this order (the VoIP push to its PushKit token, the others to its app token), each
with the apns-push-type and topic Apple documents and a provider token made with PyJWT from the test key (only host,
port and the trusted CA differ from production use):

- nested: an alert whose orderID sits under "data", where an FCM-style provider puts it, not beside "aps";
- typed: the same alert with orderID beside "aps", as the app's Codable type reads it;
- voip: a VoIP push whose callID is a number where the app reads a String;
- message: a chat message with mutable-content and alert text, from Mum.

One JSON line per case, with the apns-id the mock answered; exit 0 only when every push got 200. The test that runs
this script reads what the simulated phone did with each push from the mock's journal.
"""

import json
import time

from _common import Report, httpx_apns_client, httpx_provider_parser, post_push, provider_token

ORDER = {"alert": {"title": "Order 42", "body": "Your food is on its way"}}

# (case, apns-push-type, topic suffix, priority, payload)
PUSHES = [
    ("nested", "alert", "", "10", {"aps": ORDER, "data": {"orderID": "42"}}),
    ("typed", "alert", "", "10", {"aps": ORDER, "orderID": "42"}),
    ("voip", "voip", ".voip", "10", {"callID": 7, "callerName": "Mum"}),
    ("message", "alert", "", "10",
     {"aps": {"mutable-content": 1, "alert": {"title": "New message", "body": "Dinner at 8?"}}, "from": "Mum"}),
]


def arguments():
    parser = httpx_provider_parser(__doc__)
    parser.add_argument("--voip-token", required=True, help="the app's PushKit (VoIP) token on the same phone")
    return parser.parse_args()


def main():
    args = arguments()
    report = Report()
    bearer = provider_token(args, time.time())
    base = f"https://localhost:{args.port}/3/device/"
    with httpx_apns_client(args) as client:
        for name, kind, suffix, priority, payload in PUSHES:
            token = args.voip_token if kind == "voip" else args.token
            post_push(client, report, name, base + token, json.dumps(payload), {
                "authorization": f"bearer {bearer}", "apns-push-type": kind, "apns-topic": args.topic + suffix,
                "apns-priority": priority, "apns-expiration": str(int(time.time()) + 3600)})
    report.exit()


if __name__ == "__main__":
    main()
