"""The same alert twice on one HTTP/2 connection, with the mock's clock moved between them (httpx, PyJWT).

A provider keeps one connection open and sends the same payload push after push; the mock remembers per connection
what the phone did with a payload like it. Between the two pushes this script moves the mock's clock with the control
API (`POST /v1/clock {"advance": …}`), as a test of an App Clip's 8 hours does, so that the second push must be
judged at the new time (with a provider token issued at the mock's new time, as a provider renews it within the
hour). One JSON line per case with the apns-id the mock answered; exit 0 only when both pushes got 200 and the clock
moved. The test that runs this script reads the outcomes, and the connection each push came on, from the mock's
journal.
"""

import json
import time

import httpx

from _common import ALERT, Report, httpx_apns_client, httpx_provider_parser, post_push, provider_token


def arguments():
    parser = httpx_provider_parser(__doc__)
    parser.add_argument("--control-url", required=True, help="the mock's control API, http://127.0.0.1:PORT")
    parser.add_argument("--advance", default="9h", help="how far to move the mock's clock between the pushes")
    return parser.parse_args()


def main():
    args = arguments()
    report = Report()
    bearer = provider_token(args, time.time())
    url = f"https://localhost:{args.port}/3/device/{args.token}"
    body = json.dumps(ALERT)
    with httpx_apns_client(args) as client:
        for name in ["before", "after"]:
            if name == "after":
                moved = httpx.post(f"{args.control_url}/v1/clock", json={"advance": args.advance}, timeout=20)
                report.case("clock", moved.status_code == 200, status=moved.status_code, body=moved.text)
                # The old token is hours old on the mock's clock now: a provider makes a new one, as it must
                # within the hour, issued at the mock's time.
                bearer = provider_token(args, moved.json()["unix"])
            post_push(client, report, name, url, body, {
                "authorization": f"bearer {bearer}", "apns-push-type": "alert", "apns-topic": args.topic,
                "apns-priority": "10"})
    report.exit()


if __name__ == "__main__":
    main()
