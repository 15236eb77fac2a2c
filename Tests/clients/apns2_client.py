"""PyAPNs2's API (module `apns2`) against mock-apns, from PyPI `apns2-up`, used as its README shows.

The original PyAPNs2 (PyPI `apns2`, 0.7.2, 2020) no longer imports on Python 3.10+: its HTTP/2 library
`hyper` does `from collections import Iterable`. `apns2-up` is a maintained fork with the same `apns2` module
and API on `hyper-up`. It negotiates ALPN h2 through hyper, sends `iat` as a *float* (`time.time()`), and
maps each `reason` to an exception class; `send_notification_batch` reads the server's
MAX_CONCURRENT_STREAMS to decide how many streams to open at once.

What differs from production use:
- the CA: `TokenCredentials` takes no TLS option, but hyper's default context calls
  `set_default_verify_paths()`, which honours `SSL_CERT_FILE`; this script sets it to --ca.
- host and port: no option (only `use_sandbox` and `use_alternative_port`); they are the class attributes
  `SANDBOX_SERVER` and `DEFAULT_PORT` of `APNsClient`, so this script uses a subclass that overrides those
  two. (`proxy_host`/`proxy_port` exist, but hyper refuses a proxy for HTTPS.)
"""

import os

from apns2.client import APNsClient, Notification
from apns2.credentials import TokenCredentials
from apns2.errors import BadDeviceToken, Unregistered
from apns2.payload import Payload, PayloadAlert

from _common import LIVE_TOKEN, MALFORMED_TOKEN, Report, expect_timestamp, make_timed, parse_arguments


def main():
    args = parse_arguments(__doc__.splitlines()[0], routes=("direct",))
    report = Report()
    timed = make_timed(args.timeout)

    os.environ["SSL_CERT_FILE"] = args.ca

    class Client(APNsClient):
        SANDBOX_SERVER = args.host
        DEFAULT_PORT = args.port

    credentials = TokenCredentials(auth_key_path=args.p8, auth_key_id=args.key_id, team_id=args.team)
    client = Client(credentials=credentials, use_sandbox=True)
    payload = Payload(alert=PayloadAlert(title="Order ready", body="Your food is on its way"), sound="default", badge=1)

    # (a) A valid alert: send_notification returns None on success and raises otherwise.
    try:
        timed(client.send_notification, LIVE_TOKEN, payload, topic=args.topic)
        report.case("success", True)
    except Exception as exc:
        report.error("success", exc)

    # (b) A malformed device token: apns2.errors.BadDeviceToken. (Priority is an enum: no bad value possible.)
    try:
        timed(client.send_notification, MALFORMED_TOKEN, payload, topic=args.topic)
        report.case("bad-device-token", False, message="no exception")
    except BadDeviceToken as exc:
        report.case("bad-device-token", True, exception=type(exc).__name__)
    except Exception as exc:
        report.error("bad-device-token", exc)

    # (c) An uninstalled app: apns2.errors.Unregistered carrying the timestamp.
    try:
        timed(client.send_notification, args.dead_token, payload, topic=args.topic)
        report.case("unregistered", False, message="no exception")
    except Unregistered as exc:
        report.case("unregistered", expect_timestamp(exc.timestamp), exception=type(exc).__name__,
                    timestamp=exc.timestamp)
    except Exception as exc:
        report.error("unregistered", exc)

    # (d) A batch on one connection, streams opened up to the server's MAX_CONCURRENT_STREAMS.
    try:
        live = [f"{i:02x}" * 32 for i in range(1, 11)]
        notifications = [Notification(token=t, payload=payload) for t in live + [args.dead_token, MALFORMED_TOKEN]]
        results = timed(client.send_notification_batch, notifications=notifications, topic=args.topic)
        dead = results.get(args.dead_token)
        ok = (all(results.get(t) == "Success" for t in live) and results.get(MALFORMED_TOKEN) == "BadDeviceToken"
              and isinstance(dead, tuple) and dead[0] == "Unregistered" and expect_timestamp(dead[1]))
        report.case("batch", ok, results=results)
    except Exception as exc:
        report.error("batch", exc)

    report.exit()


if __name__ == "__main__":
    main()
