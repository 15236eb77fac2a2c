"""kalyke (PyPI `kalyke-apns`, imported as `kalyke`) against mock-apns, used as its README shows.

kalyke opens a new httpx2 HTTP/2 connection (ALPN h2) for every push, signs a fresh JWT each time with `iat`
as a numeric *string*, returns the `apns-id` response header on success and raises the exception class named
by the `reason` string otherwise (an unknown reason would be an AttributeError).

Note: the PyPI name `kalyke` is an unrelated project (Jupyter graphing helpers); the APNs client is
`kalyke-apns`.

What differs from production use:
- the CA: kalyke takes no TLS option, but its HTTP client (httpx2) trusts `SSL_CERT_FILE` from the
  environment; this script sets it to --ca (the same as `export SSL_CERT_FILE=certs/ca.pem`).
- host and port (--route direct, the default): kalyke has no option for them; `ApnsClient._base_url` is a
  read-only property returning `https://api.sandbox.push.apple.com` or `https://api.push.apple.com`. This
  script uses subclasses of `ApnsClient` / `LiveActivityClient` that override only `_base_url`.
- --route proxy changes no code at all: it sets `HTTPS_PROXY` (honoured by httpx2) to a local CONNECT proxy
  that tunnels to the mock, so kalyke keeps `https://api.sandbox.push.apple.com` as URL, SNI and authority.
"""

import asyncio
import os

from kalyke import (
    ApnsClient,
    ApnsConfig,
    ApnsPushType,
    LiveActivityApnsConfig,
    LiveActivityClient,
    LiveActivityEvent,
    LiveActivityPayload,
    Payload,
    PayloadAlert,
    exceptions,
)

from _common import LIVE_TOKEN, MALFORMED_TOKEN, Report, expect_timestamp, parse_arguments, start_connect_proxy

# A Live Activity update token: they are 160 hex characters, not 64.
ACTIVITY_TOKEN = "bfde7bcbca29718f" * 10


def is_uuid(text):
    import uuid
    try:
        uuid.UUID(text)
        return len(text) == 36
    except (TypeError, ValueError):
        return False


async def main():
    args = parse_arguments(__doc__.splitlines()[0])
    report = Report()

    os.environ["SSL_CERT_FILE"] = args.ca
    if args.route == "direct":
        base_url = f"https://{args.host}:{args.port}"

        class Client(ApnsClient):
            @property
            def _base_url(self):
                return base_url

        class ActivityClient(LiveActivityClient):
            @property
            def _base_url(self):
                return base_url
    else:
        tunnel = start_connect_proxy("127.0.0.1", args.port)
        os.environ["HTTPS_PROXY"] = f"http://127.0.0.1:{tunnel.server_address[1]}"
        os.environ.pop("NO_PROXY", None)
        os.environ.pop("no_proxy", None)
        Client, ActivityClient = ApnsClient, LiveActivityClient

    client = Client(use_sandbox=True, team_id=args.team, auth_key_id=args.key_id, auth_key_filepath=args.p8)
    config = ApnsConfig(topic=args.topic, push_type=ApnsPushType.ALERT)
    payload = Payload(alert=PayloadAlert(title="Order ready", body="Your food is on its way"), badge=1, sound="default")

    async def send(token, client=client, config=config, payload=payload):
        return await asyncio.wait_for(
            client.send_message(device_token=token, payload=payload, apns_config=config), args.timeout)

    # (a) A valid alert: kalyke returns the apns-id the mock answered with.
    try:
        apns_id = await send(LIVE_TOKEN)
        report.case("success", is_uuid(apns_id), apns_id=apns_id)
    except Exception as exc:
        report.error("success", exc)

    # (b) A malformed device token: kalyke raises kalyke.exceptions.BadDeviceToken. (A bad priority cannot be
    # sent: kalyke's priority is an enum.)
    try:
        apns_id = await send(MALFORMED_TOKEN)
        report.case("bad-device-token", False, apns_id=apns_id, message="no exception")
    except exceptions.BadDeviceToken as exc:
        report.case("bad-device-token", True, exception=type(exc).__name__, error=exc.error)
    except Exception as exc:
        report.error("bad-device-token", exc)

    # (c) An uninstalled app: kalyke raises Unregistered; its `error` holds the rest of the JSON body.
    try:
        apns_id = await send(args.dead_token)
        report.case("unregistered", False, apns_id=apns_id, message="no exception")
    except exceptions.Unregistered as exc:
        report.case("unregistered", expect_timestamp(exc.error.get("timestamp")),
                    exception=type(exc).__name__, error=exc.error)
    except Exception as exc:
        report.error("unregistered", exc)

    # (d) A Live Activity update to a 160-character activity token, with kalyke's Live Activity client.
    try:
        activity = ActivityClient(use_sandbox=True, team_id=args.team, auth_key_id=args.key_id,
                                  auth_key_filepath=args.p8)
        activity_config = LiveActivityApnsConfig(topic=f"{args.topic}.push-type.liveactivity")
        activity_payload = LiveActivityPayload(
            event=LiveActivityEvent.UPDATE, content_state={"status": "on the way", "minutesLeft": 7})
        apns_id = await send(ACTIVITY_TOKEN, client=activity, config=activity_config, payload=activity_payload)
        report.case("live-activity-update", is_uuid(apns_id), apns_id=apns_id)
    except Exception as exc:
        report.error("live-activity-update", exc)

    if args.route == "proxy":
        report.case("proxied", bool(tunnel.requests) and all(
            line.startswith("CONNECT api.sandbox.push.apple.com:443 ") for line in tunnel.requests),
            connects=tunnel.requests)
    report.exit()


if __name__ == "__main__":
    asyncio.run(main())
