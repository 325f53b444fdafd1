"""Reading a server-rendered page in the public pages' tests: its HTML, title, canonical address,
JSON-LD blocks and meta tags."""

import json
import re


def html(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def title_of(page: str) -> str:
    return re.search(r"<title>(.*?)</title>", page, re.S).group(1).strip()


def canonical_of(page: str) -> str:
    return re.search(r'<link rel="canonical" href="([^"]+)"', page).group(1)


def json_ld(page: str) -> list[dict]:
    return [
        json.loads(block) for block in re.findall(r'<script type="application/ld\+json">(.*?)</script>', page, re.S)
    ]


def meta(page: str, name: str) -> str:
    match = re.search(rf'<meta (?:name|property)="{re.escape(name)}" content="([^"]*)"', page)
    return match.group(1) if match else ""
