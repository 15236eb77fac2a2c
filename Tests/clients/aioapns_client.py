"""aioapns (PyPI `aioapns`) against mock-apns, used as its README shows.

aioapns connects without ALPN, sends `host` instead of `:authority`, and matches each answer to its request by
the `apns-id` response header, so a missing or altered `apns-id` makes it hang (caught here by a timeout).

What differs from production use:
- the CA: aioapns takes `ssl_context=` (documented), made here from --ca;
- host and port (--route direct, the default): aioapns has no option for them. Its connection classes hold
  them in the class attributes `APNS_SERVER` and `APNS_PORT`, so this script sets those two attributes on
  `aioapns.connection.APNsDevelopmentClientProtocol` (the sandbox class `use_sandbox=True` picks). The `host`
  header aioapns sends comes from `APNS_SERVER` too.
- --route proxy changes no attribute at all: it uses aioapns' documented `proxy_host=`/`proxy_port=` options
  with a local CONNECT proxy that tunnels to the mock; aioapns then keeps `api.development.push.apple.com:443`
  as host, SNI and `host` header.
"""

import asyncio
import ssl
import uuid

import aioapns.connection
from aioapns import APNs, NotificationRequest, PushType

from _common import ALERT, LIVE_TOKEN, MALFORMED_TOKEN, Report, expect_timestamp, parse_arguments, start_connect_proxy


async def main():
    args = parse_arguments(__doc__.splitlines()[0])
    report = Report()

    ssl_context = ssl.create_default_context(cafile=args.ca)
    proxy = {}
    if args.route == "direct":
        aioapns.connection.APNsDevelopmentClientProtocol.APNS_SERVER = args.host
        aioapns.connection.APNsDevelopmentClientProtocol.APNS_PORT = args.port
    else:
        tunnel = start_connect_proxy("127.0.0.1", args.port)
        proxy = {"proxy_host": "127.0.0.1", "proxy_port": tunnel.server_address[1]}

    with open(args.p8) as key_file:
        key = key_file.read()
    apns = APNs(
        key=key,
        key_id=args.key_id,
        team_id=args.team,
        topic=args.topic,
        use_sandbox=True,
        ssl_context=ssl_context,
        max_connection_attempts=1,
        **proxy,
    )

    async def send(request):
        return await asyncio.wait_for(apns.send_notification(request), args.timeout)

    def summary(request, result):
        return {"sent_apns_id": request.notification_id, "apns_id": result.notification_id,
                "status": result.status, "reason": result.description, "timestamp": result.timestamp}

    # (a) A valid alert: 200, answered under the request's own apns-id.
    try:
        request = NotificationRequest(device_token=LIVE_TOKEN, message=ALERT, push_type=PushType.ALERT)
        result = await send(request)
        report.case("success", result.is_successful and result.notification_id == request.notification_id,
                    **summary(request, result))
    except Exception as exc:  # a timeout here is the hang aioapns shows without a matching apns-id
        report.error("success", exc)

    # (b) A malformed device token: 400 BadDeviceToken.
    try:
        request = NotificationRequest(device_token=MALFORMED_TOKEN, message=ALERT, push_type=PushType.ALERT)
        result = await send(request)
        report.case("bad-device-token", result.status == "400" and result.description == "BadDeviceToken",
                    **summary(request, result))
    except Exception as exc:
        report.error("bad-device-token", exc)

    # (b') A priority APNs does not know: 400 BadPriority.
    try:
        request = NotificationRequest(device_token=LIVE_TOKEN, message=ALERT, push_type=PushType.ALERT, priority=7)
        result = await send(request)
        report.case("bad-priority", result.status == "400" and result.description == "BadPriority",
                    **summary(request, result))
    except Exception as exc:
        report.error("bad-priority", exc)

    # (c) An uninstalled app: 410 Unregistered with an integer millisecond timestamp.
    try:
        request = NotificationRequest(device_token=args.dead_token, message=ALERT, push_type=PushType.ALERT)
        result = await send(request)
        report.case("unregistered", result.status == "410" and result.description == "Unregistered"
                    and expect_timestamp(result.timestamp), **summary(request, result))
    except Exception as exc:
        report.error("unregistered", exc)

    # (d) Many pushes at once on the pooled connection, as aioapns is meant to be used: every answer must
    # reach its own request (matched by apns-id), after the mock lowered MAX_CONCURRENT_STREAMS for the
    # rejected pushes above and raised it again.
    try:
        requests = [NotificationRequest(device_token=LIVE_TOKEN, message=ALERT, push_type=PushType.ALERT,
                                        notification_id=str(uuid.uuid4()).upper() if i % 2 else None)
                    for i in range(20)]
        results = await asyncio.wait_for(
            asyncio.gather(*(apns.send_notification(r) for r in requests)), args.timeout)
        good = [r for q, r in zip(requests, results) if r.is_successful and r.notification_id == q.notification_id]
        report.case("concurrent", len(good) == len(requests), sent=len(requests), succeeded=len(good),
                    statuses=sorted({r.status for r in results}))
    except Exception as exc:
        report.error("concurrent", exc)

    apns.pool.close()
    if args.route == "proxy":
        report.case("proxied", bool(tunnel.requests) and all(
            line.startswith("CONNECT api.development.push.apple.com:443 ") for line in tunnel.requests),
            connects=tunnel.requests)
    report.exit()


if __name__ == "__main__":
    asyncio.run(main())
