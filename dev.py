#!/usr/bin/env python3
"""Set up and run corefkit on a machine that has only Python 3 and pip.

    python3 dev.py demo    # virtualenv + install + score the bundled example
    python3 dev.py test    # virtualenv + install with test extras + the whole test suite
    python3 dev.py docs    # virtualenv + install with the docs extra + the site, built into site/

The virtual environment lives in ``.venv`` beside this file and is reused on later runs
(reinstalled when ``pyproject.toml`` changes). Only the standard library is used here.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")


def run(*args: str | os.PathLike[str]) -> None:
    print("+", " ".join(str(a) for a in args), flush=True)
    subprocess.run([str(a) for a in args], check=True, cwd=ROOT)


def ensure_env(extras: str) -> None:
    """Create the virtualenv and install corefkit (editable) with ``extras`` if needed."""
    if not PYTHON.exists():
        venv.EnvBuilder(with_pip=True).create(VENV)
    stamp = VENV / f".installed-{extras or 'base'}"
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == digest:
        return
    run(PYTHON, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    target = f".[{extras}]" if extras else "."
    run(PYTHON, "-m", "pip", "install", "--quiet", "-e", target)
    stamp.write_text(digest)


def demo() -> int:
    ensure_env("")
    example = ROOT / "examples" / "conll2012"
    return subprocess.run([str(BIN / "corefkit"), "score", str(example / "key.conll"),
                           str(example / "response.conll")], cwd=ROOT).returncode


def test(extra_args: list[str]) -> int:
    ensure_env("dev")
    code = subprocess.run([str(PYTHON), "-m", "pytest", *extra_args], cwd=ROOT).returncode
    if code == 5:  # pytest: no tests were collected — never a silent pass
        print("dev.py: pytest collected no tests", file=sys.stderr)
        return 1
    return code


def docs(extra_args: list[str]) -> int:
    """Build the documentation into ``site/`` with ``--strict`` (offline: nothing is fetched)."""
    ensure_env("docs")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # Material's banner about its successor
    return subprocess.run([str(PYTHON), "-m", "mkdocs", "build", "--strict", *extra_args],
                          cwd=ROOT, env=env).returncode


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in ("demo", "test", "docs"):
        print(__doc__, file=sys.stderr)
        return 2
    if sys.argv[1] == "demo":
        return demo()
    if sys.argv[1] == "docs":
        return docs(sys.argv[2:])
    return test(sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
