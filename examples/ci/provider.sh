#!/bin/sh
# A stand-in provider: sends the order alert to both phones of a customer, the way a backend would after
# checkout. It reads nothing but what `mock-apns run` puts in its environment: `mock-apns push` takes the
# URL, CA, signing key and topic (MOCK_APNS_URL, _CA_FILE, _KEY_FILE, _KEY_ID, _TEAM_ID, _BUNDLE_ID) from it.
# A real provider reads the same variables into its own APNs client.
set -eu

PHONE=5984de83fef02c9ae624a1a84d3c486cceb0ea1086f6bf8c39efad11ec251979
OLD_PHONE=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa

for token in "$PHONE" "$OLD_PHONE"; do
    # Exit 1 is APNs' error answer: 410 means the app is gone, so forget the token and never push to it again.
    if ! mock-apns push "$token" --payload - <<'JSON'
{"aps":{"alert":{"title":"Order ready","body":"Your order #1042 is ready for pickup"}}}
JSON
    then
        echo "provider: dropping $token"
    fi
done
