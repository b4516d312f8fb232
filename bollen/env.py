"""Small helpers to read typed settings from the environment, the settings file and the
generated secret key file, and to find the data folder (``BOLLEN_DATA_DIR``)."""

from __future__ import annotations

import os
import secrets
from importlib.util import find_spec
from pathlib import Path

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, *, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, *, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError(f"Environment variable {name}={raw!r} is not a yes/no value (use 1 or 0).")


def env_list(name: str, *, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_file_load(path: Path | None) -> bool:
    """Read ``KEY=VALUE`` lines from ``path`` into the environment; a variable that is already
    set in the real environment wins. Returns whether the file was there."""
    if path is None or not path.is_file():
        return False
    from dotenv import load_dotenv

    load_dotenv(path, override=False, encoding="utf-8")
    return True


class SecretKeyFileError(Exception):
    """The secret key file could not be read or written (the message says what to do)."""


def secret_key_from_file(path: Path) -> str:
    """The key kept in ``path``; made on first use (readable only by its owner).

    Written to a temporary file beside it and then linked into place, so a half-written file
    is never read and two commands starting at once end up with the same key.
    """
    try:
        key = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        key = ""
    except (OSError, UnicodeDecodeError) as error:
        raise SecretKeyFileError(f"Cannot read the secret key file {path}: {error}.") from error
    if key:
        return key
    if path.exists():
        raise SecretKeyFileError(
            f"The secret key file {path} is empty. Delete it to have a new key made "
            "(everyone is then signed out), or set SECRET_KEY."
        )
    new_key = secrets.token_urlsafe(50)
    temporary = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="ascii") as handle:
            handle.write(new_key + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(temporary, path)  # fails if another command made the key first
        except FileExistsError:
            pass
        except OSError:  # a file system without hard links
            if not path.exists():
                os.replace(temporary, path)
    except OSError as error:
        raise SecretKeyFileError(
            f"Cannot write the secret key file {path}: {error}. Make the folder writable for "
            "this user, or set SECRET_KEY (in the environment or in .env), or SECRET_KEY_FILE "
            "to a writable place."
        ) from error
    finally:
        temporary.unlink(missing_ok=True)
    return secret_key_from_file(path)


class DataDirError(Exception):
    """The data folder could not be made (the message says what to do, in Dutch and English:
    it is shown before the site's translations can be loaded)."""


def data_dir_find(*, code_dir: Path) -> Path:
    """The data folder: ``BOLLEN_DATA_DIR`` from the environment, else the checkout when
    ``code_dir`` (the folder holding ``bollen/``) is one (``manage.py`` beside ``bollen/``:
    ``make run``, the tests), else, for an installed package, the user's data folder
    (``~/.local/share/bollen`` on Linux). Only found here, not made (``data_dir_ensure``)."""
    chosen = os.environ.get("BOLLEN_DATA_DIR", "").strip()
    if chosen:
        return Path(chosen).expanduser().absolute()
    if (code_dir / "manage.py").is_file():
        return code_dir
    from platformdirs import user_data_path

    return user_data_path("bollen", appauthor=False).absolute()


def data_dir_ensure(path: Path) -> Path:
    """``path``, made on first use (readable by its owner only) when it is not there yet."""
    if path.is_dir():
        return path
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as error:
        reason = error.strerror or str(error)
        raise DataDirError(
            f"De gegevensmap {path} kan niet worden gemaakt ({reason}). Zet BOLLEN_DATA_DIR op "
            "een map waarin deze gebruiker mag schrijven.\n"
            f"Cannot create the data folder {path} ({reason}). Set BOLLEN_DATA_DIR to a folder "
            "this user may write to."
        ) from error
    return path


def module_installed(name: str) -> bool:
    """Whether ``name`` can be imported, without importing it."""
    try:
        return find_spec(name) is not None
    except (ImportError, ValueError):  # ValueError: blocked (``sys.modules[name] = None``)
        return False
