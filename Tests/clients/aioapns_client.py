"""aioapns (PyPI `aioapns`) against mock-apns, used as its README shows.

aioapns connects without ALPN, sends `host` instead of `:authority`, and matches each answer to its request by
the `apns-id` response header, so a missing or altered `apns-id` makes it hang (caught here by a timeout).

What differs from production use:
- the CA: aioapns takes `ssl_context=` (documented), made here from --ca;
- host and port: aioapns has no option for them. Its connection classes hold them in the class attributes
  `APNS_SERVER` and `APNS_PORT`, so this script sets those two attributes on
  `aioapns.connection.APNsDevelopmentClientProtocol` (the sandbox class `use_sandbox=True` picks). The `host`
  header aioapns sends comes from `APNS_SERVER` too.
  aioapns' own `proxy_host=`/`proxy_port=` options would avoid that, but on Python 3.11 they fail in aioapns
  itself (`loop.create_connection(sock=transport.get_extra_info("socket"))` gets asyncio's TransportSocket
  wrapper: "'TransportSocket' object has no attribute 'send'"), so there is no proxy route here.
"""

import asyncio
import os
import ssl
import tempfile
import uuid

import aioapns.connection
from aioapns import APNs, NotificationRequest, PushType

from _common import ALERT, LIVE_TOKEN, MALFORMED_TOKEN, Report, expect_timestamp, parse_arguments


async def main():
    args = parse_arguments(__doc__.splitlines()[0], routes=("direct",))
    report = Report()

    ssl_context = ssl.create_default_context(cafile=args.ca)
    aioapns.connection.APNsDevelopmentClientProtocol.APNS_SERVER = args.host
    aioapns.connection.APNsDevelopmentClientProtocol.APNS_PORT = args.port

    with open(args.p8) as key_file:
        key = key_file.read()
    apns = APNs(
        key=key,
        key_id=args.key_id,
        team_id=args.team,
        topic=args.topic,
        use_sandbox=True,
        ssl_context=ssl_context,
        # Fail at once instead of silently retrying on another connection, so that a dropped stream shows.
        max_connection_attempts=1,
    )

    async def send_with(client, request):
        return await asyncio.wait_for(client.send_notification(request), args.timeout)

    async def send(request):
        return await send_with(apns, request)

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

    # (d) Many pushes at once, as aioapns is meant to be used: every answer must reach its own request, matched by
    # apns-id (half of them upper-case ids, which must come back byte for byte).
    #
    # On a client of its own with one connection, warmed up by one push. Why: like APNs, the mock allows one stream
    # on a new token connection until a valid token has been seen, and lowers the limit to 1 after a rejected push.
    # aioapns's stream semaphore mishandles both changes (a lowered limit leaves it permanently negative, so the
    # pool opens new connections; a raised one is undercounted). On a new connection aioapns sends its burst
    # before reading the server's first SETTINGS, so the extra streams are refused (RST_STREAM REFUSED_STREAM),
    # which aioapns ignores until its 10-second idle timer closes the connection. Whether a burst meets a new
    # connection depends on packet timing, so it is kept out of this test (TransportTests pins the refusal down);
    # here the burst goes out on a connection that a valid token has already opened up to 1000 streams.
    try:
        burst_apns = APNs(key=key, key_id=args.key_id, team_id=args.team, topic=args.topic, use_sandbox=True,
                          ssl_context=ssl_context, max_connection_attempts=1, max_connections=1)
        warm_up = NotificationRequest(device_token=LIVE_TOKEN, message=ALERT, push_type=PushType.ALERT)
        warm_up_result = await send_with(burst_apns, warm_up)
        requests = [NotificationRequest(device_token=LIVE_TOKEN, message=ALERT, push_type=PushType.ALERT,
                                        notification_id=str(uuid.uuid4()).upper() if i % 2 else None)
                    for i in range(20)]
        results = await asyncio.wait_for(
            asyncio.gather(*(burst_apns.send_notification(r) for r in requests)), args.timeout)
        good = [r for q, r in zip(requests, results) if r.is_successful and r.notification_id == q.notification_id]
        report.case("concurrent", warm_up_result.is_successful and len(good) == len(requests)
                    and len(burst_apns.pool.connections) == 1,
                    sent=len(requests), succeeded=len(good), connections=len(burst_apns.pool.connections),
                    statuses=sorted({r.status for r in results}))
        burst_apns.pool.close()
    except Exception as exc:
        report.error("concurrent", exc)

    apns.pool.close()

    # (e) Certificate-based auth (mutual TLS), aioapns' other mode: `client_cert=` takes one PEM file holding
    # the certificate and its key, as exported from Keychain Access; the topic defaults to the certificate's UID.
    try:
        with tempfile.TemporaryDirectory() as folder:
            combined = os.path.join(folder, "apns-cert.pem")
            with open(combined, "w") as out:
                for part in (args.client_cert, args.client_key):
                    with open(part) as source:
                        out.write(source.read())
            cert_apns = APNs(client_cert=combined, use_sandbox=True,
                             ssl_context=ssl.create_default_context(cafile=args.ca), max_connection_attempts=1)
        request = NotificationRequest(device_token=LIVE_TOKEN, message=ALERT, push_type=PushType.ALERT)
        result = await send_with(cert_apns, request)
        gone = NotificationRequest(device_token=args.dead_token, message=ALERT, push_type=PushType.ALERT)
        gone_result = await send_with(cert_apns, gone)
        report.case("certificate-auth", result.is_successful and result.notification_id == request.notification_id
                    and gone_result.status == "410" and gone_result.description == "Unregistered"
                    and expect_timestamp(gone_result.timestamp),
                    success=summary(request, result), unregistered=summary(gone, gone_result))
        cert_apns.pool.close()
    except Exception as exc:
        report.error("certificate-auth", exc)

    report.exit()


if __name__ == "__main__":
    asyncio.run(main())
