"""The App Store Connect API as lookup_server.py serves it: JSON:API documents with pagination,
Apple's error documents, X-Rate-Limit, and a check of every token's structure, with counters.

Paths are /<token>/<scenario>/v1/...:

  GET .../v1/apps?filter[bundleId]=ID            apps whose bundle id starts with ID (as Apple's filter
                                                  has been seen to answer), so clients must match exactly
  GET .../v1/apps/<id>/appAvailabilityV2          the app's availability (availableInNewTerritories), its
                                                  territoryAvailabilities as a related link
  GET .../v2/appAvailabilities/<id>/territoryAvailabilities?include=territory
                                                  every App Store territory, 50 a page with links.next:
                                                  available or not, with contentStatuses; the apps of
                                                  worlds.json's "availability" are sold only where it
                                                  says (one removed with CANNOT_SELL), the others
                                                  everywhere
  GET .../v1/apps/<id>/appStoreVersions?...      two versions a page of the filter[platform]
                                                  (default IOS), links.next to the rest; relationships
                                                  carry only links unless include= asks for the
                                                  phased release, then its identifier, and included
  PATCH .../v1/appStoreVersionPhasedReleases/<id>  the phased release's state (the body an
                                                  AppStoreVersionPhasedReleaseUpdateRequest, checked
                                                  against the analytics subset's contract): ACTIVE ->
                                                  PAUSED, PAUSED -> ACTIVE, ACTIVE or PAUSED ->
                                                  COMPLETE, answered 200 with the phased release; any
                                                  other change is 409 STATE_ERROR (resuming a pause of
                                                  30 days or more among them), a body that breaks the
                                                  contract or names another id 409 ENTITY_ERROR, an
                                                  unknown id 404. Every token keeps its own copy of a
                                                  world, so a PATCH shows in its later reads.

The data is Tests/Fixtures/asc/worlds.json: each world is a list of apps. Scenarios:

  complete, phased, paused, approved, ahead, legacy, future   that world (future: a state
                 Apple may add later, so its version pages are marked as outside the contract)
  rolling, rollingpaused, pausedlong   8.0.10 live in a phased release on day 3: ACTIVE, PAUSED
                 for 4 days, PAUSED for 30 days (the most Apple allows)
  rollingreadonly the rolling world, read by a key whose role may not change it: every PATCH of a
                 phased release is 403 FORBIDDEN_ERROR "The API key in use does not allow this request"
  removed        8.0.2 READY_FOR_DISTRIBUTION with appStoreState DEVELOPER_REMOVED_FROM_SALE
  removedlegacy  8.0.2 with only appStoreState REMOVED_FROM_SALE
  drafts         8.2 PREPARE_FOR_SUBMISSION and 8.1 REJECTED above the live 8.0.2
  draftandpending 8.2 METADATA_REJECTED above 8.1 WAITING_FOR_EXPORT_COMPLIANCE above 8.0.2
  platforms      a version for each of IOS, MAC_OS, TV_OS and VISION_OS (1.6 in review there)
  noversion      a version without versionString and one without attributes, above 8.0.2
  401once        the token's first request is 401 NOT_AUTHORIZED, then the complete world
  401            401 every time
  403            403 FORBIDDEN_ERROR every time
  429once        the token's first request is 429 RATE_LIMIT_EXCEEDED, then complete
  500once        the token's first request is 500, then complete
  ratelow        complete, with X-Rate-Limit saying 100 of 3600 requests are left
  evilnext       complete, but links.next points at another host
  relativenext   complete, with links.next a path relative to the host (/<token>/<scenario>/v1/…)
  schemenext     complete, with links.next protocol-relative to another host (//example.com/…)
  timeline-NAME  the timeline's app and its versions as the round's step says (timeline.py): each
                 first page of the app's versions the token asks is the next round
  colonids       complete, but an app's availability id is "<app id>:v2" (ids are opaque strings), so
                 a client must percent-encode it in the territories' path
  echostart      every request answers 200 text/plain that starts with the bearer token (a fault: a
                 proxy echoing what it got)
  echomiddle     every request answers 200 text/html with the bearer token after 30 characters (a fault)
  echoprefix     every request answers 200 text/plain that starts with the token's first half (a fault)
  echoerror      every request answers 401 whose error detail quotes the bearer token

Path segments are percent-decoded, as Apple decodes them; every request's raw path and query (after
/<token>/<scenario>) is recorded in the token's "paths", in order.

Every request needs "Authorization: Bearer <token>" (else 401). A token with three dot-separated
parts is checked as Apple checks an ES256 JWT's shape: header alg ES256, kid, typ JWT; payload iss,
iat, exp, aud appstoreconnect-v1, exp - iat at most 1200 s; a 64-byte signature. One that fails is
401 and counted as malformed (the signature itself is checked by the Swift tests with openssl).

GET /<token>/ascstats returns the token's counters: requests, unauthorized, jwts (valid JWTs
seen), malformed, opaque (tokens that are not JWTs), tokens (the distinct tokens), kids, pages,
platforms (the filter[platform] values asked, in order), paths (every raw path and query), writes
(every PATCH, taken or refused, and every POST and DELETE, refused), phasedPatched (those taken),
methods ("PATCH /v1/…" for each request), and asc_analytics.py's counters for the Analytics Reports
it serves under the same paths (analytics, segments, expired, authorized).
"""
import base64
import copy
import json
import os
import threading
from urllib.parse import parse_qs, quote, urlparse

import asc_analytics
import contract
import timeline

WORLDS = {}
AVAILABILITY = {}
TERRITORIES = []
STATS = {}
LOCK = threading.Lock()
WORLD_SCENARIOS = {"complete", "phased", "paused", "approved", "ahead", "legacy", "future", "removed",
                   "removedlegacy", "drafts", "draftandpending", "platforms", "noversion", "rolling",
                   "rollingpaused", "pausedlong"}
PHASED = "/v1/appStoreVersionPhasedReleases/{id}"
VERSIONS = "/v1/apps/{id}/appStoreVersions"


def load(folder):
    path = os.path.join(folder, "worlds.json")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        WORLDS.update(data["worlds"])
        AVAILABILITY.update(data.get("availability", {}))
    TERRITORIES[:] = contract.spec("asc")["components"]["schemas"]["TerritoryCode"]["enum"]


def stats(token):
    with LOCK:
        return STATS.setdefault(token, {"requests": 0, "unauthorized": 0, "jwts": 0, "malformed": 0, "opaque": 0,
                                        "tokens": [], "kids": [], "pages": 0, "platforms": [],
                                        "paths": [], "writes": 0, "phasedPatched": 0, "methods": [],
                                        "worlds": {}, "analytics": 0, "segments": 0, "expired": 0,
                                        "authorized": 0})


def snapshot(token):
    s = stats(token)
    with LOCK:
        return {k: v for k, v in s.items() if k != "worlds"}


def own_world(s, scenario):
    """The token's own copy of a world (call with LOCK held), so its PATCHes show in its reads."""
    scenario = "rolling" if scenario == "rollingreadonly" else scenario
    name = scenario if scenario in WORLD_SCENARIOS else "complete"
    if name not in s["worlds"]:
        s["worlds"][name] = copy.deepcopy(WORLDS.get(name, []))
    return s["worlds"][name]


TRANSITIONS = {("ACTIVE", "PAUSED"), ("PAUSED", "ACTIVE"), ("ACTIVE", "COMPLETE"), ("PAUSED", "COMPLETE")}


def patch_phased(handler, s, world, ident, body, base, rate, readonly=False):
    """PATCH /v1/appStoreVersionPhasedReleases/<id> (see the header)."""
    def refuse(status, code, title, detail):
        body = {"errors": [{"id": "e1", "status": str(status), "code": code, "title": title, "detail": detail}]}
        return handler.send(status, json.dumps(body), headers=rate,
                            contract=("ascanalytics", contract.asc_write(PHASED, "patch", status)))

    with LOCK:
        s["writes"] += 1
    if readonly:
        return refuse(403, "FORBIDDEN_ERROR", "This request is forbidden for security reasons",
                      "The API key in use does not allow this request")
    version = next((v for app in world for v in app["versions"]
                    if "phasedRelease" in v and "p-" + v["id"] == ident), None)
    if version is None:
        return refuse(404, "NOT_FOUND", "The specified resource does not exist",
                      f"There is no resource of type 'appStoreVersionPhasedReleases' with id '{ident}'")
    try:
        value = json.loads(body.decode("utf-8"))
    except ValueError:
        value = None
    problems = (["not JSON"] if value is None else
                contract.violations("ascanalytics", contract.asc_write(PHASED, "patch"), value))
    if problems or value["data"]["id"] != ident:
        return refuse(409, "ENTITY_ERROR", "The provided entity is invalid",
                      "; ".join(problems) or f"the id {value['data']['id']!r} is not the path's {ident!r}")
    wanted = value["data"].get("attributes", {}).get("phasedReleaseState")
    with LOCK:
        phased = version["phasedRelease"]
        current = phased["phasedReleaseState"]
        allowed = (current, wanted) in TRANSITIONS and not (
            current == "PAUSED" and wanted == "ACTIVE" and phased.get("totalPauseDuration", 0) >= 30)
        if allowed:
            phased["phasedReleaseState"] = wanted
            s["phasedPatched"] += 1
        attributes = dict(phased)
    if not allowed:
        return refuse(409, "STATE_ERROR", "The request cannot be fulfilled because of the state of another resource.",
                      f"You cannot change the phased release's state from {current} to {wanted}.")
    document = {"data": {"type": "appStoreVersionPhasedReleases", "id": ident, "attributes": attributes,
                         "links": {"self": base + "/v1/appStoreVersionPhasedReleases/" + ident}},
                "links": {"self": base + "/v1/appStoreVersionPhasedReleases/" + ident}}
    return handler.send(200, json.dumps(document), headers=rate,
                        contract=("ascanalytics", contract.asc_write(PHASED, "patch", 200)))


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


def reply(handler, template, status, body, headers=(), outside=False):
    """Sends a JSON document, checked against the contract's answer to GET template with status."""
    checked = "fault" if outside else ("asc", contract.asc_response(template, status))
    return handler.send(status, json.dumps(body), headers=list(headers), contract=checked)


def error(handler, status, code, title, detail, headers=(), template="/v1/apps"):
    body = {"errors": [{"id": "e1", "status": str(status), "code": code, "title": title, "detail": detail}]}
    return reply(handler, template, status, body, headers)


def territory_availabilities(handler, app, start, base, rate):
    """One page of an app's territory availabilities, every App Store territory, 50 a page."""
    sold = AVAILABILITY.get(app)
    items, included = [], []
    for code in TERRITORIES[start:start + 50]:
        if sold is None:
            available, statuses = True, ["AVAILABLE"]
        else:
            available = code in sold["sold"]
            statuses = sold["statuses"].get(code, ["AVAILABLE"] if available else [])
        attributes = {"available": available, "contentStatuses": statuses, "preOrderEnabled": False}
        if available:
            attributes["releaseDate"] = "2021-02-01"
        items.append({"type": "territoryAvailabilities", "id": f"{app}-{code}", "attributes": attributes,
                      "relationships": {"territory": {"data": {"type": "territories", "id": code}}},
                      "links": {"self": f"{base}/v1/territoryAvailabilities/{app}-{code}"}})
        included.append({"type": "territories", "id": code, "attributes": {"currency": "USD"}})
    path = f"/v2/appAvailabilities/{app}/territoryAvailabilities"
    document = {"data": items, "included": included, "links": {"self": base + path},
                "meta": {"paging": {"total": len(TERRITORIES), "limit": 50}}}
    if start + 50 < len(TERRITORIES):
        document["links"]["next"] = f"{base}{path}?include=territory&limit=50&cursor={start + 50}"
    return reply(handler, "/v2/appAvailabilities/{id}/territoryAvailabilities", 200, document, rate)


def handle(handler, token, scenario, rest, query, base, version="v1", method="GET", body=b""):
    """rest: the path after /<token>/<scenario>/<version>/; base: http://host:port/<token>/<scenario>;
    method: GET, or PATCH with its body."""
    s = stats(token)
    auth = handler.headers.get("Authorization", "")
    bearer = auth[7:] if auth.startswith("Bearer ") else ""
    with LOCK:
        s["paths"].append("/" + handler.path.lstrip("/").split("/", 2)[2])
        s["methods"].append(method + " " + s["paths"][-1])
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
    if scenario == "echostart":
        return handler.send(200, bearer + " is not a token this proxy accepts", "text/plain", contract="fault")
    if scenario == "echomiddle":
        return handler.send(200, "<html><body>Proxy error: token " + bearer + " refused</body></html>",
                            "text/html", contract="fault")
    if scenario == "echoprefix":
        return handler.send(200, bearer[:len(bearer) // 2] + "... (cut)", "text/plain", contract="fault")
    if scenario == "echoerror":
        return error(handler, 401, "NOT_AUTHORIZED", "Authentication credentials are missing or invalid.",
                     "The token " + bearer + " has expired.")
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
    if method in ("POST", "DELETE"):
        with LOCK:
            s["writes"] += 1
        return error(handler, 403, "FORBIDDEN_ERROR", "This request is forbidden for security reasons",
                     f"The fake App Store Connect API takes no {method}")
    if version == "v1" and method == "GET":
        answered = asc_analytics.handle(handler, s, LOCK, token, scenario, rest, query, base, rate)
        if answered is not None or scenario in asc_analytics.SCENARIOS:
            return answered
    with LOCK:
        world = own_world(s, scenario)
    played = timeline.named(scenario)
    if played is not None:
        first_page = len(rest) == 3 and rest[2] == "appStoreVersions" and query.get("cursor", ["0"])[0] == "0"
        if first_page:
            timeline.advance(token, "asc")
        world = timeline.asc_world(played, timeline.current(token, "asc"))

    if method == "PATCH":
        if len(rest) == 2 and rest[0] == "appStoreVersionPhasedReleases" and played is None:
            return patch_phased(handler, s, world, rest[1], body, base, rate, readonly=scenario == "rollingreadonly")
        return error(handler, 405, "METHOD_NOT_ALLOWED", "The request method is not allowed",
                     f"PATCH is not allowed on {'/'.join(rest)}")

    if version == "v2":
        if len(rest) == 3 and rest[0] == "appAvailabilities" and rest[2] == "territoryAvailabilities":
            if scenario == "colonids" and rest[1].endswith(":v2"):
                rest[1] = rest[1][:-3]
            if not any(a["id"] == rest[1] for a in world):
                return error(handler, 404, "NOT_FOUND", "The specified resource does not exist",
                             f"There is no resource of type 'appAvailabilities' with id '{rest[1]}'",
                             template="/v2/appAvailabilities/{id}/territoryAvailabilities")
            return territory_availabilities(handler, rest[1], int(query.get("cursor", ["0"])[0]), base, rate)
        return error(handler, 404, "NOT_FOUND", "The specified resource does not exist", "No such path")

    if len(rest) == 3 and rest[0] == "apps" and rest[2] == "appAvailabilityV2":
        app = next((a for a in world if a["id"] == rest[1]), None)
        if app is None:
            return error(handler, 404, "NOT_FOUND", "The specified resource does not exist",
                         f"There is no resource of type 'apps' with id '{rest[1]}'",
                         template="/v1/apps/{id}/appAvailabilityV2")
        new = AVAILABILITY.get(app["id"], {}).get("availableInNewTerritories", True)
        availability = app["id"] + (":v2" if scenario == "colonids" else "")
        document = {"data": {"type": "appAvailabilities", "id": availability,
                             "attributes": {"availableInNewTerritories": new},
                             "relationships": {"territoryAvailabilities": {"links": {
                                 "related": f"{base}/v2/appAvailabilities/{quote(availability)}/territoryAvailabilities"}}},
                             "links": {"self": f"{base}/v2/appAvailabilities/{quote(availability)}"}},
                    "links": {"self": f"{base}/v1/apps/{app['id']}/appAvailabilityV2"}}
        return reply(handler, "/v1/apps/{id}/appAvailabilityV2", 200, document, rate)

    if rest == ["apps"]:
        wanted = query.get("filter[bundleId]", [""])[0]
        data = [{"type": "apps", "id": app["id"], "attributes": {"bundleId": app["bundleId"], "name": "App"},
                 "links": {"self": base + "/v1/apps/" + app["id"]}}
                for app in world if app["bundleId"].startswith(wanted)]
        return reply(handler, "/v1/apps", 200, {"data": data, "links": {"self": base + "/v1/apps"}}, rate)

    if len(rest) == 3 and rest[0] == "apps" and rest[2] == "appStoreVersions":
        app = next((a for a in world if a["id"] == rest[1]), None)
        if app is None:
            return error(handler, 404, "NOT_FOUND", "The specified resource does not exist",
                         f"There is no resource of type 'apps' with id '{rest[1]}'", template=VERSIONS)
        with LOCK:
            s["pages"] += 1
        platform = query.get("filter[platform]", ["IOS"])[0]
        with LOCK:
            if platform not in s["platforms"]:
                s["platforms"].append(platform)
        versions = [v for v in app["versions"] if v.get("platform", "IOS") == platform]
        start = int(query.get("cursor", ["0"])[0])
        page = versions[start:start + 2]
        include = "appStoreVersionPhasedRelease" in query.get("include", [""])[0]
        data, included = [], []
        for version in page:
            own = base + "/v1/appStoreVersions/" + version["id"]
            item = {"type": "appStoreVersions", "id": version["id"], "links": {"self": own}}
            if not version.get("noAttributes"):
                attributes = {k: version[k] for k in ("versionString", "releaseType", "createdDate",
                                                      "earliestReleaseDate", "appVersionState", "appStoreState")
                              if version.get(k) is not None}
                attributes["platform"] = platform
                item["attributes"] = attributes
            relationship = {"links": {"self": own + "/relationships/appStoreVersionPhasedRelease",
                                      "related": own + "/appStoreVersionPhasedRelease"}}
            if "phasedRelease" in version and include:
                pid = "p-" + version["id"]
                relationship["data"] = {"type": "appStoreVersionPhasedReleases", "id": pid}
                included.append({"type": "appStoreVersionPhasedReleases", "id": pid,
                                 "attributes": version["phasedRelease"],
                                 "links": {"self": base + "/v1/appStoreVersionPhasedReleases/" + pid}})
            item["relationships"] = {"appStoreVersionPhasedRelease": relationship}
            data.append(item)
        document = {"data": data, "links": {"self": base + "/v1/apps/" + rest[1] + "/appStoreVersions"},
                    "meta": {"paging": {"total": len(versions), "limit": 2}}}
        if included:
            document["included"] = included
        if start + 2 < len(versions):
            query_text = ("?filter%5Bplatform%5D=" + platform + "&include=appStoreVersionPhasedRelease&cursor="
                          + str(start + 2))
            path = "/v1/apps/" + rest[1] + "/appStoreVersions" + query_text
            prefix = urlparse(base).path
            document["links"]["next"] = {
                "evilnext": "http://example.com" + prefix + path,
                "relativenext": prefix + path,
                "schemenext": "//example.com" + prefix + path,
            }.get(scenario, base + path)
        return reply(handler, VERSIONS, 200, document, rate, outside=scenario == "future")
    return error(handler, 404, "NOT_FOUND", "The specified resource does not exist", "No such path")
