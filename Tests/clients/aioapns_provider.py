"""A provider for `mock-apns run` tests: aioapns (PyPI), configured only from the variables `run` sets.

    mock-apns run SCENARIO -- .venv-clients/bin/python Tests/clients/aioapns_provider.py TOKEN... [--rounds N]

Sends the order alert to every TOKEN, `--rounds` times (default 1), and stops pushing to a token once APNs
answered it 410, as a provider must. `--keep-pushing` leaves that out: the provider bug the check
`stops-after-unregistered` exists to catch. Exits 0 whatever APNs answered (the verdict is run's to give), and
non-zero only when the client itself fails (no connection, a timeout).

Read from the environment: MOCK_APNS_HOST, MOCK_APNS_PORT, MOCK_APNS_CA_FILE, MOCK_APNS_KEY_FILE,
MOCK_APNS_KEY_ID, MOCK_APNS_TEAM_ID, MOCK_APNS_BUNDLE_ID. aioapns has no option for host and port: as in
aioapns_client.py, they go into the sandbox protocol class's `APNS_SERVER` and `APNS_PORT`.
"""

import argparse
import asyncio
import os
import ssl
import sys

import aioapns.connection
from aioapns import APNs, NotificationRequest, PushType

from _common import ALERT


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tokens", nargs="+", help="device tokens to push to")
    parser.add_argument("--rounds", type=int, default=1, help="how many times to push to each token")
    parser.add_argument("--keep-pushing", action="store_true", help="push on after a 410 (a provider bug)")
    args = parser.parse_args()
    environment = os.environ

    aioapns.connection.APNsDevelopmentClientProtocol.APNS_SERVER = environment["MOCK_APNS_HOST"]
    aioapns.connection.APNsDevelopmentClientProtocol.APNS_PORT = int(environment["MOCK_APNS_PORT"])
    with open(environment["MOCK_APNS_KEY_FILE"]) as key_file:
        key = key_file.read()
    apns = APNs(
        key=key,
        key_id=environment["MOCK_APNS_KEY_ID"],
        team_id=environment["MOCK_APNS_TEAM_ID"],
        topic=environment.get("MOCK_APNS_BUNDLE_ID", "com.example.app"),
        use_sandbox=True,
        ssl_context=ssl.create_default_context(cafile=environment["MOCK_APNS_CA_FILE"]),
        max_connection_attempts=1,
    )
    gone = set()
    for _ in range(args.rounds):
        for token in args.tokens:
            if token in gone and not args.keep_pushing:
                continue
            request = NotificationRequest(device_token=token, message=ALERT, push_type=PushType.ALERT)
            result = await asyncio.wait_for(apns.send_notification(request), 20)
            print(f"provider: {token[:6]}… {result.status} {result.description or ''}".rstrip())
            if result.status == "410":
                gone.add(token)


if __name__ == "__main__":
    asyncio.run(main())
    sys.exit(0)
