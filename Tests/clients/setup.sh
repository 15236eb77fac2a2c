#!/usr/bin/env bash
# Creates .venv-clients/ at the repository root with the third-party Python APNs clients that
# Tests/clients/*.py drive against mock-apns (and ThirdPartyClientTests runs). Idempotent: a venv whose
# recorded requirements match is left alone. Needs Python 3.11+ with the venv module (Debian 12:
# `apt-get install -y python3-venv`) and access to PyPI.
#
#   Tests/clients/setup.sh            # create or update the venv
#   PYTHON=python3.12 Tests/clients/setup.sh
#
# The clients, each pinned to the version checked against mock-apns:
#   aioapns 4.0          asyncio + h2, no ALPN, `host` header, matches answers by apns-id
#   kalyke-apns 1.5.0    httpx2, a new connection per push, iat as a string (the PyPI name `kalyke` is an
#                        unrelated project)
#   apns2-up 0.9.0       the PyAPNs2 API (`import apns2`) on hyper-up; the original `apns2` 0.7.2 no longer
#                        imports on Python 3.10+ (hyper uses collections.Iterable)
#   pyapns_client 2.0.6  httpx, synchronous, iat as a float
# and requests 2.34.2, which the Python examples of README.md and docs/ use (DocSnippetTests runs them).
# Their dependencies are pinned too, so every machine gets the same bytes on the wire.
# Tests/clients/attacks.py (the hostile clients of AttackTests) uses hpack, PyJWT and pyOpenSSL from this list.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="$root/.venv-clients"
python="${PYTHON:-python3}"

requirements="aioapns==4.0
kalyke-apns==1.5.0
apns2-up==0.9.0
pyapns_client==2.0.6
requests==2.34.2
anyio==4.16.0
certifi==2026.10.18
cffi==2.1.1
charset-normalizer==3.5.2
cryptography==50.0.2
h11==0.16.0
h2==4.4.1
hpack==4.2.0
httpcore==1.0.9
httpcore2==2.16.2
httpx==0.28.1
httpx2==2.16.2
hyper-up==0.9.0
hyperframe==6.1.0
idna==3.20
pycparser==3.12
PyJWT==2.15.1
pyOpenSSL==26.4.0
pytz==2026.6
truststore==0.10.5
typing_extensions==4.16.0
urllib3==2.8.0"

# shellcheck source=scripts/lib/venv.sh
source "$root/scripts/lib/venv.sh"
imports="aioapns, kalyke, apns2.client, pyapns_client, requests"
if venv_up_to_date "$venv" "$requirements" "$imports"; then
    echo "clients venv up to date: $venv"
    exit 0
fi
if command -v "$python" >/dev/null 2>&1 &&
    ! "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
    echo "setup.sh: $("$python" --version 2>&1) is too old; kalyke-apns needs Python 3.11 or later (set PYTHON=...)" >&2
    exit 1
fi
venv_install "$venv" "$python" "$requirements" "$imports"
echo "installed into $venv: aioapns 4.0, kalyke-apns 1.5.0, apns2-up 0.9.0, pyapns_client 2.0.6, requests 2.34.2 (dependencies pinned)"
