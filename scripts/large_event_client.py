"""The browser of scripts/large-event-check.sh: plain HTTP with a cookie jar, standard library
only (it runs before and beside the checkout's virtualenv).

    large_event_client.py wait URL
    large_event_client.py login BASE JAR USERNAME PASSWORD
    large_event_client.py new-link BASE JAR SLUG ROUND TABLE      -> prints the token
    large_event_client.py save-deal BASE TOKEN                    -> enters deal 1 via the link
    large_event_client.py download BASE JAR SLUG FILE
    large_event_client.py get URL [--jar JAR] [--status N] [--text TEXT]

Each prints what it found and exits 1 with a plain message when the site does not answer as
expected.
"""

from __future__ import annotations

import argparse
import contextlib
import http.cookiejar
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

DEALS = 11


class Failed(Exception):
    pass


def opener(jar_path: str | None):
    jar = http.cookiejar.MozillaCookieJar(jar_path) if jar_path else None
    if jar is not None:
        with contextlib.suppress(FileNotFoundError):  # the first call makes the jar
            jar.load(ignore_discard=True, ignore_expires=True)
    handlers = [urllib.request.HTTPCookieProcessor(jar)] if jar is not None else []
    return urllib.request.build_opener(*handlers), jar


def fetch(open_, url: str, data: dict[str, str] | None = None, headers=None):
    """``(status, final url, text)``; HTTP errors are answers too."""
    if not url.startswith(("http://", "https://")):
        raise Failed(f"not a web address: {url}")
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    request = urllib.request.Request(url, data=body, headers=headers or {})  # noqa: S310
    try:
        with open_.open(request, timeout=30) as response:
            return response.status, response.geturl(), response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, url, error.read().decode("utf-8", "replace")


def save(jar) -> None:
    if jar is not None:
        jar.save(ignore_discard=True, ignore_expires=True)


def csrf_of(jar, text: str) -> str:
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', text)
    if match:
        return match.group(1)
    for cookie in jar or []:
        if cookie.name == "csrftoken":
            return cookie.value
    raise Failed("no CSRF token on the page")


def wait(url: str) -> None:
    open_, _jar = opener(None)
    deadline = time.monotonic() + 60
    while True:
        try:
            status, _url, _text = fetch(open_, url)
        except OSError as error:
            if time.monotonic() > deadline:
                raise Failed(f"{url} does not answer after 60 s: {error}") from error
            time.sleep(0.5)
            continue
        print(f"{url} answers ({status})")
        return


def login(base: str, jar_path: str, username: str, password: str) -> None:
    open_, jar = opener(jar_path)
    status, _url, text = fetch(open_, f"{base}/login/")
    if status != 200:
        raise Failed(f"the sign-in page answers {status}")
    data = {"csrfmiddlewaretoken": csrf_of(jar, text), "username": username, "password": password}
    status, final, text = fetch(open_, f"{base}/login/", data, {"Referer": f"{base}/login/"})
    if status != 200 or "/login/" in urllib.parse.urlsplit(final).path:
        raise Failed(f"signing in as {username} failed (HTTP {status}, at {final})")
    if 'action="/logout/"' not in text:
        raise Failed("after signing in the page shows no sign-out button")
    save(jar)
    print(f"signed in as {username}; landed on {final}")


def new_link(base: str, jar_path: str, slug: str, round_: str, table: str) -> None:
    open_, jar = opener(jar_path)
    page = f"{base}/t/{slug}/rounds/{round_}/tables/{table}/link/"
    status, _url, text = fetch(open_, page)
    if status != 200:
        raise Failed(f"{page} answers {status}")
    data = {"csrfmiddlewaretoken": csrf_of(jar, text)}
    status, _final, text = fetch(open_, page + "new/", data, {"Referer": page})
    if status != 200:
        raise Failed(f"making the link answers {status}")
    match = re.search(r"/s/([A-Za-z0-9_-]{16,})/", text)
    if not match:
        raise Failed("the link page shows no /s/<token>/ link")
    save(jar)
    print(match.group(1))


def save_deal(base: str, token: str) -> None:
    """Enter deal 1 (one card) through the table link, as a phone does."""
    jar = http.cookiejar.CookieJar()  # a phone of its own, not signed in
    open_ = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    url = f"{base}/s/{token}/"
    status, _url, text = fetch(open_, url)
    if status != 200:
        raise Failed(f"the table link answers {status}")
    total = re.search(r'name="cell-TOTAL_FORMS"[^>]*value="(\d+)"', text) or re.search(
        r'value="(\d+)"[^>]*name="cell-TOTAL_FORMS"', text
    )
    if not total:
        raise Failed("the table link's page has no sheet form")
    n_seats = int(total.group(1)) // DEALS
    data = {
        "csrfmiddlewaretoken": csrf_of(jar, text),
        "base_version": "0",
        "idempotency_key": str(uuid.uuid4()),
        "cell-TOTAL_FORMS": str(DEALS * n_seats),
        "cell-INITIAL_FORMS": str(DEALS * n_seats),
        "cell-MIN_NUM_FORMS": "0",
        "cell-MAX_NUM_FORMS": "1000",
        "penalty-TOTAL_FORMS": "1",
        "penalty-INITIAL_FORMS": "0",
        "penalty-MIN_NUM_FORMS": "0",
        "penalty-MAX_NUM_FORMS": "1000",
        "penalty-0-seat": "",
        "penalty-0-deal": "",
    }
    for index in range(DEALS * n_seats):
        data[f"cell-{index}-bid"] = data[f"cell-{index}-tricks"] = ""
    for seat in range(n_seats):  # deal 1: everyone bids 0, the first seat takes the trick
        data[f"cell-{seat}-bid"] = "0"
        data[f"cell-{seat}-tricks"] = "1" if seat == 0 else "0"
    headers = {"X-Requested-With": "XMLHttpRequest", "Accept": "application/json", "Referer": url}
    status, _url, text = fetch(open_, url, data, headers)
    if status != 200 or not re.search(r'"version":\s*1\b', text):
        raise Failed(f"saving deal 1 through the link answers {status}: {text[:200]}")
    print(f"deal 1 saved through the link ({n_seats} seats): version 1")


def download(base: str, jar_path: str, slug: str, path: str) -> None:
    open_, _jar = opener(jar_path)
    status, _url, text = fetch(open_, f"{base}/t/{slug}/export/")
    if status != 200 or '"bollen-tournament"' not in text:
        raise Failed(f"the backup download answers {status}")
    with open(path, "w", encoding="utf-8") as stream:
        stream.write(text)
    print(f"backup downloaded: {len(text)} characters")


def get(url: str, jar_path: str | None, status: int, text: str | None) -> None:
    open_, _jar = opener(jar_path)
    got, _url, body = fetch(open_, url)
    if got != status:
        raise Failed(f"{url} answers {got}, expected {status}: {body[:300]}")
    if text is not None and text not in body:
        raise Failed(f"{url} answers {got} but without the text {text!r}: {body[:300]}")
    print(f"{url} answers {got}" + (f" with {text!r}" if text else ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("wait").add_argument("url")
    for name, args in (
        ("login", ["base", "jar", "username", "password"]),
        ("new-link", ["base", "jar", "slug", "round", "table"]),
        ("save-deal", ["base", "token"]),
        ("download", ["base", "jar", "slug", "file"]),
    ):
        command = sub.add_parser(name)
        for arg in args:
            command.add_argument(arg)
    command = sub.add_parser("get")
    command.add_argument("url")
    command.add_argument("--jar")
    command.add_argument("--status", type=int, default=200)
    command.add_argument("--text")
    args = parser.parse_args()
    try:
        if args.command == "wait":
            wait(args.url)
        elif args.command == "login":
            login(args.base, args.jar, args.username, args.password)
        elif args.command == "new-link":
            new_link(args.base, args.jar, args.slug, args.round, args.table)
        elif args.command == "save-deal":
            save_deal(args.base, args.token)
        elif args.command == "download":
            download(args.base, args.jar, args.slug, args.file)
        else:
            get(args.url, args.jar, args.status, args.text)
    except Failed as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
