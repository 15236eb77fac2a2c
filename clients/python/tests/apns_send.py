"""A provider's push, sent the way a Python provider sends it: httpx over HTTP/2, a provider token signed with
PyJWT (ES256), the mock's CA trusted. Imported by the inner test files the suite writes."""

import ssl
import time

import httpx
import jwt


def provider_token(mock):
    with open(mock.key_file) as key:
        return jwt.encode({"iss": mock.team_id, "iat": int(time.time())}, key.read(), algorithm="ES256",
                          headers={"kid": mock.key_id})


def send_push(mock, token, topic="com.example.app", payload=None, push_type="alert"):
    context = ssl.create_default_context(cafile=mock.ca_file)
    with httpx.Client(http2=True, verify=context) as client:
        return client.post(
            f"{mock.apns_url}/3/device/{token}",
            json=payload or {"aps": {"alert": {"title": "Hello", "body": "from the provider"}}},
            headers={"apns-topic": topic, "apns-push-type": push_type,
                     "authorization": f"bearer {provider_token(mock)}"},
        )
