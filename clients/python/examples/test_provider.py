"""The plugin's five-line test, with a real Python APNs client (aioapns 4.0) as the provider; docs/testing-python.md
explains each line. Run: pytest clients/python/examples (mock-apns on PATH, or MOCK_APNS_BIN)."""

import asyncio
import ssl

import aioapns.connection
from aioapns import APNs, NotificationRequest


def send_order_ready(apns_host, apns_port, key_file, key_id, team_id, ca_file, token):
    """The provider code under test: an order-ready alert over aioapns (which takes no host or port option)."""
    aioapns.connection.APNsDevelopmentClientProtocol.APNS_SERVER = apns_host
    aioapns.connection.APNsDevelopmentClientProtocol.APNS_PORT = apns_port

    async def send():
        with open(key_file) as key:
            apns = APNs(key=key.read(), key_id=key_id, team_id=team_id, topic="com.example.app", use_sandbox=True,
                        ssl_context=ssl.create_default_context(cafile=ca_file))
        return await apns.send_notification(
            NotificationRequest(device_token=token, message={"aps": {"alert": {"title": "Order ready"}}}))

    return asyncio.run(send())


def test_order_ready_is_pushed(mock_apns, mock_apns_token):
    host, port = mock_apns.apns_url.removeprefix("https://").rsplit(":", 1)
    send_order_ready(host, int(port), mock_apns.key_file, mock_apns.key_id, mock_apns.team_id, mock_apns.ca_file,
                     mock_apns_token)
    [push] = mock_apns.expect_push(token=mock_apns_token, topic="com.example.app", push_type="alert")
    assert push["payloadJSON"]["aps"]["alert"]["title"] == "Order ready"
