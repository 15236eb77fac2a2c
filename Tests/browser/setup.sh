#!/usr/bin/env bash
# Creates .venv-browser/ at the repository root with what Tests/browser (the inspector's journeys in a real
# headless Chromium) needs: pytest and selenium from PyPI. The browser itself is Debian's: `apt-get install -y
# chromium chromium-driver` (.ci/run does it); selenium drives /usr/bin/chromedriver and never downloads one
# (SE_OFFLINE=true). Idempotent: a venv whose recorded requirements match is left alone.
#
#   Tests/browser/setup.sh
#   PYTHON=python3.12 Tests/browser/setup.sh
#
# selenium 4.51.0 (4.52 needs a certifi this machine's PyPI mirror does not have); dependencies pinned, so every
# machine runs the same test code.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="$root/.venv-browser"
python="${PYTHON:-python3}"

requirements="pytest==9.2.0
selenium==4.51.0
attrs==26.1.0
certifi==2026.10.19.post1
h11==0.16.0
idna==3.20
iniconfig==2.3.1
outcome==1.3.0.post0
packaging==26.4
pluggy==1.7.0
Pygments==2.21.0
PySocks==1.7.1
sniffio==1.3.1
sortedcontainers==2.4.0
trio==0.35.0
trio-websocket==0.12.2
typing_extensions==4.16.0
urllib3==2.8.0
websocket-client==1.9.2
wsproto==1.3.2"

# shellcheck source=scripts/lib/venv.sh
source "$root/scripts/lib/venv.sh"
if venv_up_to_date "$venv" "$requirements" "pytest, selenium"; then
    echo "browser venv up to date: $venv"
    exit 0
fi
venv_install "$venv" "$python" "$requirements" "pytest, selenium"
echo "installed into $venv: pytest 9.2.0, selenium 4.51.0 (dependencies pinned)"
if [[ ! -x /usr/bin/chromium || ! -x /usr/bin/chromedriver ]]; then
    echo "setup.sh: the browser is missing: apt-get install -y chromium chromium-driver" >&2
fi
