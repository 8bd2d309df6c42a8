"""The App Store Connect API as lookup_server.py serves it: JSON:API documents with pagination,
Apple's error documents, X-Rate-Limit, and a check of every token's structure, with counters.

Paths are /<token>/<scenario>/v1/...:

  GET .../v1/apps?filter[bundleId]=ID            apps whose bundle id starts with ID (as Apple's filter
                                                  has been seen to answer), so clients must match exactly
  GET .../v1/apps/<id>/appStoreVersions?...      two versions a page, links.next to the rest, with
                                                  include=appStoreVersionPhasedRelease honoured

The data is Tests/Fixtures/asc/worlds.json: each world is a list of apps. Scenarios:

  complete, phased, paused, approved, ahead, legacy, future   that world
  401once        the token's first request is 401 NOT_AUTHORIZED, then the complete world
  401            401 every time
  403            403 FORBIDDEN_ERROR every time
  429once        the token's first request is 429 RATE_LIMIT_EXCEEDED, then complete
  500once        the token's first request is 500, then complete
  ratelow        complete, with X-Rate-Limit saying 100 of 3600 requests are left
  evilnext       complete, but links.next points at another host

Every request needs "Authorization: Bearer <token>" (else 401). A token with three dot-separated
parts is checked as Apple checks an ES256 JWT's shape: header alg ES256, kid, typ JWT; payload iss,
iat, exp, aud appstoreconnect-v1, exp - iat at most 1200 s; a 64-byte signature. One that fails is
401 and counted as malformed (the signature itself is checked by the Swift tests with openssl).

GET /<token>/ascstats returns the token's counters: requests, unauthorized, jwts (valid JWTs
seen), malformed, opaque (tokens that are not JWTs), tokens (the distinct tokens), kids, pages.
"""
import base64
import json
import os
import threading
from urllib.parse import parse_qs, urlparse

WORLDS = {}
STATS = {}
LOCK = threading.Lock()
WORLD_SCENARIOS = {"complete", "phased", "paused", "approved", "ahead", "legacy", "future"}


def load(folder):
    path = os.path.join(folder, "worlds.json")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            WORLDS.update(json.load(f)["worlds"])


def stats(token):
    with LOCK:
        return STATS.setdefault(token, {"requests": 0, "unauthorized": 0, "jwts": 0, "malformed": 0, "opaque": 0,
                                        "tokens": [], "kids": [], "pages": 0})


def snapshot(token):
    s = stats(token)
    with LOCK:
        return dict(s)


def b64(part):
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


def check_jwt(token):
    """None when the token is a well-formed App Store Connect JWT, else what is wrong."""
    parts = token.split(".")
    try:
        header = json.loads(b64(parts[0]))
        payload = json.loads(b64(parts[1]))
        signature = b64(parts[2])
    except Exception as error:  # noqa: BLE001
        return f"not base64url JSON: {error}"
    if header != {"alg": "ES256", "kid": header.get("kid"), "typ": "JWT"} or not header.get("kid"):
        return f"header {header}"
    if set(payload) != {"iss", "iat", "exp", "aud"} or payload["aud"] != "appstoreconnect-v1":
        return f"payload {payload}"
    if not isinstance(payload["iat"], int) or not isinstance(payload["exp"], int):
        return "iat and exp must be integers"
    if not 0 < payload["exp"] - payload["iat"] <= 1200:
        return f"lifetime {payload['exp'] - payload['iat']}"
    if len(signature) != 64:
        return f"signature of {len(signature)} bytes"
    return None


def error(handler, status, code, title, detail, headers=()):
    body = {"errors": [{"id": "e1", "status": str(status), "code": code, "title": title, "detail": detail}]}
    return handler.send(status, json.dumps(body), headers=list(headers))


def handle(handler, token, scenario, rest, query, base):
    """rest: the path after /<token>/<scenario>/v1/; base: http://host:port/<token>/<scenario>."""
    s = stats(token)
    auth = handler.headers.get("Authorization", "")
    bearer = auth[7:] if auth.startswith("Bearer ") else ""
    with LOCK:
        s["requests"] += 1
        count = s["requests"]
        if bearer and bearer not in s["tokens"]:
            s["tokens"].append(bearer)
    rate = [("X-Rate-Limit", "user-hour-lim:3600;user-hour-rem:%d;" % (100 if scenario == "ratelow" else 3500))]
    if not bearer:
        with LOCK:
            s["unauthorized"] += 1
        return error(handler, 401, "NOT_AUTHORIZED", "Authentication credentials are missing or invalid.",
                     "Provide a properly configured and signed bearer token, and make sure that it has not expired.")
    if bearer.count(".") == 2:
        problem = check_jwt(bearer)
        with LOCK:
            if problem:
                s["malformed"] += 1
            else:
                s["jwts"] += 1
                kid = json.loads(b64(bearer.split(".")[0]))["kid"]
                if kid not in s["kids"]:
                    s["kids"].append(kid)
        if problem:
            return error(handler, 401, "NOT_AUTHORIZED", "Authentication credentials are missing or invalid.",
                         f"The token is malformed: {problem}")
    else:
        with LOCK:
            s["opaque"] += 1
    if scenario == "401" or (scenario == "401once" and count == 1):
        return error(handler, 401, "NOT_AUTHORIZED", "Authentication credentials are missing or invalid.",
                     "Provide a properly configured and signed bearer token, and make sure that it has not expired.")
    if scenario == "403":
        return error(handler, 403, "FORBIDDEN_ERROR", "This request is forbidden for security reasons",
                     "The API key in use does not allow this request")
    if scenario == "429once" and count == 1:
        return error(handler, 429, "RATE_LIMIT_EXCEEDED", "The request rate limit has been reached.",
                     "We've received too many requests for this API. Please wait and try again or slow down your "
                     "request rate.", rate)
    if scenario == "500once" and count == 1:
        return error(handler, 500, "UNEXPECTED_ERROR", "An unexpected error occurred.",
                     "An unexpected error occurred on the server side.")
    world = WORLDS.get(scenario if scenario in WORLD_SCENARIOS else "complete", [])

    if rest == ["apps"]:
        wanted = query.get("filter[bundleId]", [""])[0]
        data = [{"type": "apps", "id": app["id"], "attributes": {"bundleId": app["bundleId"], "name": "App"}}
                for app in world if app["bundleId"].startswith(wanted)]
        return handler.send(200, json.dumps({"data": data, "links": {"self": base + "/v1/apps"}}), headers=rate)

    if len(rest) == 3 and rest[0] == "apps" and rest[2] == "appStoreVersions":
        app = next((a for a in world if a["id"] == rest[1]), None)
        if app is None:
            return error(handler, 404, "NOT_FOUND", "The specified resource does not exist",
                         f"There is no resource of type 'apps' with id '{rest[1]}'")
        with LOCK:
            s["pages"] += 1
        start = int(query.get("cursor", ["0"])[0])
        page = app["versions"][start:start + 2]
        include = "appStoreVersionPhasedRelease" in query.get("include", [""])[0]
        data, included = [], []
        for version in page:
            attributes = {k: version[k] for k in ("versionString", "releaseType", "createdDate", "earliestReleaseDate",
                                                  "appVersionState", "appStoreState") if k in version}
            attributes["platform"] = query.get("filter[platform]", ["IOS"])[0]
            item = {"type": "appStoreVersions", "id": version["id"], "attributes": attributes,
                    "relationships": {"appStoreVersionPhasedRelease": {"data": None}}}
            if "phasedRelease" in version:
                pid = "p-" + version["id"]
                item["relationships"]["appStoreVersionPhasedRelease"]["data"] = {
                    "type": "appStoreVersionPhasedReleases", "id": pid}
                if include:
                    included.append({"type": "appStoreVersionPhasedReleases", "id": pid,
                                     "attributes": version["phasedRelease"]})
            data.append(item)
        document = {"data": data, "links": {"self": base + "/v1/apps/" + rest[1] + "/appStoreVersions"},
                    "meta": {"paging": {"total": len(app["versions"]), "limit": 2}}}
        if included:
            document["included"] = included
        if start + 2 < len(app["versions"]):
            host = "http://example.com" if scenario == "evilnext" else base
            document["links"]["next"] = (host + "/v1/apps/" + rest[1] + "/appStoreVersions?filter%5Bplatform%5D=IOS"
                                         "&include=appStoreVersionPhasedRelease&cursor=" + str(start + 2))
        return handler.send(200, json.dumps(document), headers=rate)
    return error(handler, 404, "NOT_FOUND", "The specified resource does not exist", "No such path")
