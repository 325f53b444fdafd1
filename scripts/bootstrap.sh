#!/usr/bin/env bash
# Create .venv with the pinned Python (pyenv if present, else python3.12 on PATH) and install dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(cat .python-version)
python=""
if command -v pyenv >/dev/null 2>&1 && [ -x "$(pyenv root)/versions/$version/bin/python" ]; then
  python="$(pyenv root)/versions/$version/bin/python"
elif command -v "python${version%.*}" >/dev/null 2>&1; then
  python="$(command -v "python${version%.*}")"
elif [ -x "$HOME/.pyenv/versions/$version/bin/python" ]; then
  python="$HOME/.pyenv/versions/$version/bin/python"
fi
if [ -z "$python" ]; then
  echo "Python $version is needed (pyenv install $version, or a python${version%.*} on PATH)." >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -r requirements-dev.txt
