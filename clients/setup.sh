#!/usr/bin/env bash
# Creates .venv-helpers/ at the repository root for the test helpers' suites (scripts/test-helpers): pytest,
# pytest-xdist, httpx with h2 and aioapns from PyPI (pinned, so every machine runs the same test code), then
# `pip install ./clients/python` (the pytest plugin, as its users install it). Same shape as Tests/browser/setup.sh.
# Idempotent: a venv whose recorded requirements match is left alone, but the plugin is installed again each time
# (it is this checkout's code).
#
#   clients/setup.sh
#   PYTHON=python3.12 clients/setup.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv-helpers"
python="${PYTHON:-python3}"

requirements="pytest==9.2.0
pytest-xdist==3.8.0
execnet==2.1.2
iniconfig==2.3.1
packaging==26.4
pluggy==1.7.0
Pygments==2.21.0
httpx==0.28.1
h2==4.4.1
hpack==4.2.0
hyperframe==6.1.0
httpcore==1.0.9
h11==0.16.0
anyio==4.16.0
certifi==2026.10.18
idna==3.20
typing_extensions==4.16.0
aioapns==4.0
PyJWT==2.15.1
cryptography==50.0.2
cffi==2.1.1
pycparser==3.12
pyOpenSSL==26.4.0"

install_plugin() {
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input --force-reinstall --no-deps \
        "$root/clients/python"
    "$venv/bin/python" -c 'import mock_apns.plugin'
}

# shellcheck source=scripts/lib/venv.sh
source "$root/scripts/lib/venv.sh"
imports="pytest, xdist, httpx, h2, aioapns"
if venv_up_to_date "$venv" "$requirements" "$imports"; then
    install_plugin
    echo "helpers venv up to date: $venv (the plugin reinstalled from clients/python)"
    exit 0
fi
venv_install "$venv" "$python" "$requirements" "$imports"
install_plugin
echo "installed into $venv: pytest 9.2.0, pytest-xdist 3.8.0, httpx 0.28.1 with h2, aioapns 4.0, and clients/python"
