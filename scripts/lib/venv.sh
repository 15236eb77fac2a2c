# scripts/lib/venv.sh — one pinned Python venv, made once and kept while its requirements stay the same. Sourced
# by the setup scripts of the Python suites (Tests/clients/setup.sh, Tests/browser/setup.sh, clients/setup.sh);
# each names its venv, its pinned requirements (every dependency, so every machine runs the same test code) and the
# modules that must import. Needs `set -euo pipefail` in the script that sources it.

# venv_up_to_date VENV REQUIREMENTS IMPORTS — whether VENV was made from exactly REQUIREMENTS and IMPORTS (a
# comma-separated module list, as `import` takes it) import in it.
venv_up_to_date() {
    local venv=$1 requirements=$2 imports=$3
    [[ -x "$venv/bin/python" && -f "$venv/.requirements" ]] &&
        [[ "$(cat "$venv/.requirements")" == "$requirements" ]] &&
        "$venv/bin/python" -c "import $imports" 2>/dev/null
}

# venv_install VENV PYTHON REQUIREMENTS IMPORTS — creates VENV with PYTHON when it has none, installs REQUIREMENTS
# into it from the package index, checks that IMPORTS import, and records the requirements (venv_up_to_date).
# Exits 1 with what to install when PYTHON or its venv module is missing.
venv_install() {
    local venv=$1 python=$2 requirements=$3 imports=$4 constraints
    if ! command -v "$python" >/dev/null 2>&1; then
        echo "setup.sh: $python not found; install Python 3 (Debian 12: apt-get install -y python3 python3-venv)" >&2
        exit 1
    fi
    if [[ ! -x "$venv/bin/python" ]]; then
        rm -rf "$venv"
        if ! "$python" -m venv "$venv" >/dev/null 2>&1; then
            rm -rf "$venv"
            echo "setup.sh: '$python -m venv' failed; on Debian/Ubuntu run: apt-get install -y python3-venv" >&2
            exit 1
        fi
        echo "created venv $venv ($("$venv/bin/python" --version 2>&1))"
    fi
    constraints="$(mktemp)"
    printf '%s\n' "$requirements" >"$constraints"
    if ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$constraints"; then
        rm -f "$constraints"
        echo "setup.sh: pip could not install the pinned requirements into $venv" >&2
        exit 1
    fi
    rm -f "$constraints"
    "$venv/bin/python" -c "import $imports"
    printf '%s' "$requirements" >"$venv/.requirements"
}
