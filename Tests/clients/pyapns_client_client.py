"""pyapns_client (PyPI `pyapns_client`) against mock-apns, used as its README shows.

pyapns_client is synchronous, on httpx (HTTP/2, ALPN h2). It sends `iat` as a *float* (`time.time()`), sends
no `apns-push-type` unless told, maps each `reason` to `<Reason>Exception` (an unknown reason is a
NotImplementedError), and retries a push up to three times on the "server" family of errors.

What differs from production use:
- the CA: the documented `root_cert_path=` argument, set to --ca.
- host and port (--route direct, the default): no option; the URLs are the class attribute `BASE_URLS`
  (`{'prod': 'https://api.push.apple.com:443', 'dev': 'https://api.development.push.apple.com:443'}`), so
  this script uses a subclass that overrides `BASE_URLS`.
- --route proxy changes no code: it sets `HTTPS_PROXY` (honoured by httpx) to a local CONNECT proxy that
  tunnels to the mock, so the client keeps `api.development.push.apple.com:443`.
"""

import os

from pyapns_client import (
    APNSClient,
    BadDeviceTokenException,
    BadPriorityException,
    IOSNotification,
    IOSPayload,
    IOSPayloadAlert,
    UnregisteredException,
)

from _common import (
    LIVE_TOKEN, MALFORMED_TOKEN, Report, expect_timestamp, make_timed, parse_arguments, start_connect_proxy,
)


def main():
    args = parse_arguments(__doc__.splitlines()[0])
    report = Report()
    timed = make_timed(args.timeout)

    if args.route == "direct":
        class Client(APNSClient):
            BASE_URLS = {APNSClient.MODE_DEV: f"https://{args.host}:{args.port}"}
    else:
        tunnel = start_connect_proxy("127.0.0.1", args.port)
        os.environ["HTTPS_PROXY"] = f"http://127.0.0.1:{tunnel.server_address[1]}"
        os.environ.pop("NO_PROXY", None)
        os.environ.pop("no_proxy", None)
        Client = APNSClient

    client = Client(mode=APNSClient.MODE_DEV, root_cert_path=args.ca, auth_key_path=args.p8,
                    auth_key_id=args.key_id, team_id=args.team)
    alert = IOSPayload(alert=IOSPayloadAlert(title="Order ready", body="Your food is on its way"), badge=1,
                       sound="default")
    try:
        # (a) A valid alert: push() returns None on success and raises otherwise.
        try:
            timed(client.push, notification=IOSNotification(payload=alert, topic=args.topic), device_token=LIVE_TOKEN)
            report.case("success", True)
        except Exception as exc:
            report.error("success", exc)

        # (b) A malformed device token: BadDeviceTokenException.
        try:
            timed(client.push, notification=IOSNotification(payload=alert, topic=args.topic),
                  device_token=MALFORMED_TOKEN)
            report.case("bad-device-token", False, message="no exception")
        except BadDeviceTokenException as exc:
            report.case("bad-device-token", exc.status_code == 400, exception=type(exc).__name__,
                        status=exc.status_code, apns_id=exc.apns_id)
        except Exception as exc:
            report.error("bad-device-token", exc)

        # (b') A priority APNs does not know: BadPriorityException. (httpx takes header values as strings.)
        try:
            timed(client.push, notification=IOSNotification(payload=alert, topic=args.topic, priority="7"),
                  device_token=LIVE_TOKEN)
            report.case("bad-priority", False, message="no exception")
        except BadPriorityException as exc:
            report.case("bad-priority", exc.status_code == 400, exception=type(exc).__name__,
                        status=exc.status_code, apns_id=exc.apns_id)
        except Exception as exc:
            report.error("bad-priority", exc)

        # (c) An uninstalled app: UnregisteredException with the millisecond timestamp.
        try:
            timed(client.push, notification=IOSNotification(payload=alert, topic=args.topic),
                  device_token=args.dead_token)
            report.case("unregistered", False, message="no exception")
        except UnregisteredException as exc:
            report.case("unregistered", exc.status_code == 410 and expect_timestamp(exc.timestamp),
                        exception=type(exc).__name__, status=exc.status_code, timestamp=exc.timestamp,
                        when=exc.timestamp_datetime, apns_id=exc.apns_id)
        except Exception as exc:
            report.error("unregistered", exc)
    finally:
        client.close()

    if args.route == "proxy":
        report.case("proxied", bool(tunnel.requests) and all(
            line.startswith("CONNECT api.development.push.apple.com:443 ") for line in tunnel.requests),
            connects=tunnel.requests)
    report.exit()


if __name__ == "__main__":
    main()
