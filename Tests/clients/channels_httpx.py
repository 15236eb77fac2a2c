"""Broadcast channels (iOS 18) with httpx over HTTP/2, as a provider that has no APNs library for them writes it.

Against the mock's channel management port (--channels-port) and its APNs port (--port), with the documented
requests of Apple's "Sending broadcast push notifications": create, read, list, delete, then a broadcast; a
provider token made with PyJWT from the test key; and the channel port with the sandbox client certificate.
Only host, ports and the trusted CA differ from production use (api-manage-broadcast.sandbox.push.apple.com:2195
and api.sandbox.push.apple.com:443). One JSON line per case; exit 0 only when every answer is Apple's.
"""

import argparse
import json
import os
import ssl
import time
import uuid

import httpx
import jwt

from _common import Report, httpx_apns_client

APP = "com.example.app"


def arguments():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True, help="the mock's APNs port")
    parser.add_argument("--channels-port", type=int, required=True, help="the mock's channel management port")
    parser.add_argument("--ca", default=os.path.join(root, "certs/ca.pem"))
    parser.add_argument("--p8", default=os.path.join(root, "certs/AuthKey_TESTKEY001.p8"))
    parser.add_argument("--client-cert", default=os.path.join(root, "certs/client-sandbox.pem"))
    parser.add_argument("--client-key", default=os.path.join(root, "certs/client-sandbox.key"))
    parser.add_argument("--team", default="TESTTEAM01", help="team id (iss)")
    parser.add_argument("--key-id", default="TESTKEY001", help="key id (kid)")
    parser.add_argument("--topic", default=APP, help="the app's bundle id")
    return parser.parse_args()


def token(args):
    with open(args.p8) as key:
        return jwt.encode({"iss": args.team, "iat": int(time.time())}, key.read(), algorithm="ES256",
                          headers={"kid": args.key_id})


def main():
    args = arguments()
    report = Report()
    channels = f"https://localhost:{args.channels_port}/1/apps/{args.topic}"
    auth = {"authorization": f"bearer {token(args)}"}
    with httpx_apns_client(args) as client:
        created = client.post(f"{channels}/channels", headers=auth,
                              json={"message-storage-policy": 1, "push-type": "LiveActivity"})
        channel = created.headers.get("apns-channel-id", "")
        report.case("create", created.http_version == "HTTP/2" and created.status_code == 201 and channel
                    and created.headers.get("apns-request-id") and created.content == b"",
                    status=created.status_code, headers=dict(created.headers))

        read = client.get(f"{channels}/channels", headers={**auth, "apns-channel-id": channel})
        report.case("read", read.status_code == 200
                    and read.json() == {"message-storage-policy": 1, "push-type": "LiveActivity"},
                    status=read.status_code, body=read.text)

        listed = client.get(f"{channels}/all-channels", headers=auth)
        report.case("list", listed.status_code == 200 and channel in listed.json().get("channels", []),
                    status=listed.status_code, body=listed.text)

        request_id = str(uuid.uuid4())
        sent = client.post(
            f"https://localhost:{args.port}/4/broadcasts/apps/{args.topic}",
            headers={**auth, "apns-channel-id": channel, "apns-push-type": "liveactivity", "apns-priority": "10",
                     "apns-expiration": str(int(time.time()) + 3600), "apns-request-id": request_id},
            content=json.dumps({"aps": {"event": "update", "timestamp": int(time.time()),
                                        "content-state": {"score": "2-1"}}}))
        report.case("broadcast", sent.status_code == 200 and sent.headers.get("apns-request-id") == request_id
                    and sent.headers.get("apns-unique-id"), status=sent.status_code, headers=dict(sent.headers))

        not_base64 = client.get(f"{channels}/channels", headers={**auth, "apns-channel-id": "not base64!"})
        report.case("bad-channel-id", not_base64.status_code == 400
                    and not_base64.json() == {"reason": "BadChannelId"}, status=not_base64.status_code,
                    body=not_base64.text)

        not_json = client.post(f"{channels}/channels", headers=auth, content=b"{not json")
        report.case("body-not-json", not_json.status_code == 400
                    and not_json.json() == {"reason": "BadRequestPayload"}, status=not_json.status_code,
                    body=not_json.text)

        deleted = client.delete(f"{channels}/channels", headers={**auth, "apns-channel-id": channel})
        gone = client.get(f"{channels}/channels", headers={**auth, "apns-channel-id": channel})
        report.case("delete", deleted.status_code == 204 and gone.status_code == 400
                    and gone.json() == {"reason": "ChannelNotRegistered"}, status=deleted.status_code,
                    after=gone.text)

    # The channel port takes the client certificates the APNs port takes (no provider token then).
    # httpx 0.28 takes the client certificate in the SSL context (its `cert=` argument is deprecated).
    mutual = ssl.create_default_context(cafile=args.ca)
    mutual.load_cert_chain(args.client_cert, args.client_key)
    with httpx.Client(http2=True, verify=mutual, timeout=20) as client:
        created = client.post(f"{channels}/channels",
                              json={"message-storage-policy": 0, "push-type": "LiveActivity"})
        report.case("certificate-create", created.status_code == 201 and created.headers.get("apns-channel-id"),
                    status=created.status_code, body=created.text)
    report.exit()


if __name__ == "__main__":
    main()
