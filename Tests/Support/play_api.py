"""The Google Play Developer API (v3) as lookup_server.py serves it: routes, Google's error
envelopes and the faults tests need, with counters so a test can assert what was sent.

Paths are /<token>/<scenario>/androidpublisher/v3/applications/<package>/...:

  GET    .../tracks/<track>/releases      the edit-free list (opens nothing)
  POST   .../edits                        opens an edit: {"id": ..., "expiryTimeSeconds": ...}
  GET    .../edits/<id>/tracks            {"kind": ..., "tracks": [...]}
  GET    .../edits/<id>/tracks/<track>    one track ({"track": NAME} without "releases" when it has
                                          none); a track the app does not have is 404 notFound
                                          "Track not found: NAME."
  GET    .../edits/<id>/countryAvailability/<track>   the track's countries (an app's fixture may
                                          give them under "countryAvailability"; else production
                                          is every country, restOfWorld, and other tracks sync
                                          with production)
  DELETE .../edits/<id>                   204
  PUT    .../edits/<id>/tracks/<track>    edits.tracks.update: the body (a Track, checked against the
                                          contract) replaces the track in the edit, and is answered;
                                          400 INVALID_ARGUMENT for a body that breaks the contract,
                                          names another track, a userFraction outside (0, 1) or on
                                          a release that is not inProgress or halted, a halted
                                          release without one ("HALTED release must have
                                          fraction"), a halted release that was not in progress
                                          (releaseToHaltNotFound), a completed release made
                                          inProgress again, two completed releases ("Too many
                                          completed releases specified") or two staged ones
                                          (inProgress or halted: "Too many staged releases
                                          specified"); each rule names its source beside it
  POST   .../edits/<id>:commit            the edit's tracks become the app's (for this token: every
                                          token starts from the fixtures and keeps its own state),
                                          the edit is closed; 500 INTERNAL "Internal error
                                          encountered." when a track that served users would serve
                                          nobody (no release inProgress or completed left), as Play
                                          answers a halt of the last release serving; with
                                          ?changesNotSentForReview=true on an app whose changes are
                                          reviewed automatically, 400 "Changes are sent for review
                                          automatically. The query parameter changesNotSentForReview
                                          must not be set."; the edit stays open after a refusal
  GET    .../appRecoveries?versionCode=N  App Recovery's list (GET, as the 2026 discovery document
                                          has it): {"recoveryActions": [...]} targeting N ({} when
                                          none); 400 without versionCode
  POST   .../appRecoveries                create: a CreateDraftAppRecoveryRequest (checked; one
                                          criterion of regions | androidSdks | allUsers and one of
                                          versionList | versionRange, remoteInAppUpdate requested)
                                          becomes an action RECOVERY_STATUS_DRAFT; anything else,
                                          an empty body among them, is 400 (a POST is never a list)
  POST   .../appRecoveries/<id>:deploy    DRAFT -> ACTIVE, {}; from any other status 400
                                          FAILED_PRECONDITION
  POST   .../appRecoveries/<id>:cancel    -> CANCELED, {}; a canceled one 400 FAILED_PRECONDITION

An app's fixture may carry "appRecoveries": [AppRecoveryAction…], the actions it starts with.

The apps are Tests/Fixtures/play-api/<package>.json ({"tracks": [...]} in the edits shape); any
other package is 404 "Package not found". Track names are free text, percent-decoded from the path
("Pre-release testing"). Every request needs "Authorization: Bearer <token>" (else 401). Every JSON
body is checked against Google's discovery document (contract.py) as it is sent, except the
deliberate faults below, which are marked as such. Scenarios:

  ok            the fixtures
  401           401 UNAUTHENTICATED every time
  403scope      403 with details[].reason ACCESS_TOKEN_SCOPE_INSUFFICIENT
  403disabled   403 "Google Play Android Developer API has not been used in project ..."
  403permission 403 "The caller does not have permission", reason permissionDenied
  403forbidden  403 reason forbidden, as gradle-play-publisher #805 got it
  403insufficient 403 reason forbidden, "The current user has insufficient permissions…" (#837)
  403forged     403 PERMISSION_DENIED whose message carries what a store must not inject: an ANSI
                colour, a newline and a forged line, a table pipe, an HTML image, a Markdown link
                (a fault: Google's messages are plain sentences)
  401permission 401 reason permissionDenied: the account was never invited to the app
  trackEmptyV2  an existing track without releases answers the old v2 404 trackEmpty (PR #169)
  editDeleted   the first read of an edit's tracks is 410 editDeleted, then ok
  editDeleted400  every read of an edit's tracks is 400 "This Edit has been deleted."
  429once       the token's first request is 429 with Retry-After: 1, then ok
  500once       the token's first request is 500, then ok
  409once       the token's first request is 409 concurrentUpdate, then ok
  500tracks     every read of an edit's tracks is 500
  slow          reads of an edit's tracks wait 5 s before answering
  badjson       reads of an edit's tracks answer a release whose userFraction is "half" (a fault)
  html          reads of an edit's tracks answer 200 with an HTML page (a fault)
  publishing    the edit-free list says IN_REVIEW for the token's first 2 requests, then PUBLISHED
  commitlost500 a commit is applied, then answered 500 INTERNAL (a retry of it would find the edit closed:
                400 "This Edit has been deleted.")
  commitlostslow a commit is applied, then answered after 5 s (past a short client timeout)
  reviewheld    the app has changes Play will not send for review automatically: a commit without
                ?changesNotSentForReview=true is 400 FAILED_PRECONDITION "Changes cannot be sent
                for review automatically. Please set the query parameter changesNotSentForReview
                to true. Once committed, the changes in this edit can be sent for review from the
                Google Play Console UI."
  timeline-NAME the timeline's package, its production track as the round's step says (timeline.py):
                each edit the token opens is the next round
  echostart     every request answers 200 text/plain that starts with the bearer token (a fault: a
                proxy echoing what it got)
  echomiddle    every request answers 200 text/html with the bearer token after 30 characters (a fault)
  echoprefix    every request answers 200 text/plain that starts with the token's first half (a fault)
  echoerror     every request answers 401 whose envelope's message quotes the bearer token

Path segments are percent-decoded as Google decodes them ("wear%3Aproduction" is the track
"wear:production"), and, as Google's URL scheme has it, a literal ":" in the last segment starts a
custom method ("tracks/wear:production" asks the method "production" of the track "wear"): the
only one served is an edit's ":commit"; any other is 404 NOT_FOUND "Method not found.". Every
request's raw path (after /<token>/<scenario>) is recorded in the token's "paths", in order.

GET /<token>/playstats returns the token's counters: requests, unauthorized, bearer (the
distinct tokens seen), editsInserted, editsDeleted, editsCommitted (commits that took),
editRequests (every request under /edits), releasesRequests, openEdits (inserted and neither
deleted nor committed), paths (every raw path), writes (every request that asks for a change,
taken or refused: track updates, commits, App Recovery creates, deploys and cancels),
tracksUpdated, commitsRefused, recoveriesCreated, recoveriesDeployed, recoveriesCanceled,
methods (each request's verb and raw path, "PUT /…"). GET /<token>/playstate returns the token's
apps as they stand now: {package: {"tracks": [...], "appRecoveries": [...]}} (those it touched).
"""
import copy
import json
import os
import threading
import time

from urllib.parse import parse_qs, urlparse

import contract
import timeline

APPS = {}
COUNTRIES = {}
RECOVERIES = {}
STATS = {}
# The 403forged scenario's message: what a store's text must never do on a terminal, in a CI log
# (a line of its own: `::error::`), in Markdown or in a Slack message.
FORGED_MESSAGE = ("bad \u001b[31mRED\u001b[0m\nFORGED LINE | <img src=x onerror=alert(1)> [link](http://evil) "
                  "`code`")
LOCK = threading.Lock()


def load(folder):
    if not os.path.isdir(folder):
        return
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                data = json.load(f)
            APPS[name[:-5]] = data["tracks"]
            RECOVERIES[name[:-5]] = data.get("appRecoveries", [])
            COUNTRIES[name[:-5]] = data.get("countryAvailability", {})


def stats(token):
    with LOCK:
        s = STATS.setdefault(token, {
            "requests": 0, "unauthorized": 0, "bearer": [], "editsInserted": 0, "editsDeleted": 0,
            "editsCommitted": 0, "editRequests": 0, "releasesRequests": 0, "open": [], "trackReads": 0,
            "paths": [], "writes": 0, "tracksUpdated": 0, "commitsRefused": 0, "recoveriesCreated": 0,
            "recoveriesDeployed": 0, "recoveriesCanceled": 0, "methods": [], "apps": {}, "edits": {}})
        return s


def app_state(s, package):
    """The token's own copy of an app (call with LOCK held): its tracks and recovery actions."""
    if package not in s["apps"]:
        s["apps"][package] = {"tracks": copy.deepcopy(APPS[package]),
                              "appRecoveries": copy.deepcopy(RECOVERIES.get(package, []))}
    return s["apps"][package]


def state_snapshot(token):
    s = stats(token)
    with LOCK:
        return copy.deepcopy(s["apps"])


def snapshot(token):
    s = stats(token)
    with LOCK:
        out = {k: v for k, v in s.items() if k not in ("open", "apps", "edits")}
        out["openEdits"] = len(s["open"])
        return out


def envelope(code, status, message, reason=None, detail_reason=None, domain="androidpublisher"):
    error = {"code": code, "message": message}
    if status:
        error["status"] = status
    if reason:
        error["errors"] = [{"domain": domain, "reason": reason, "message": message}]
    if detail_reason:
        error["details"] = [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": detail_reason,
                             "domain": "googleapis.com"}]
    return {"error": error}


def fixture_error(name):
    """A real error body from Tests/Fixtures/real/play."""
    with open(os.path.join(REAL, name), encoding="utf-8") as f:
        return json.load(f)


REAL = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Fixtures", "real", "play")


def reply(handler, method, status, body, headers=()):
    """Sends a JSON body, checked against the contract of `method`'s answer."""
    schema = contract.play_response(method, status)
    name = contract.play_method(method)[0] if status < 400 else "play"
    return handler.send(status, json.dumps(body), headers=list(headers), contract=(name, schema))


def fault(handler, status, text, content_type="application/json; charset=UTF-8"):
    """Sends a body the API would not send, on purpose (a scenario's fault)."""
    return handler.send(status, text, content_type, contract="fault")


def summaries(track):
    out = []
    for release in track["releases"]:
        state = "RELEASE_LIFECYCLE_STATE_DRAFT" if release["status"] == "draft" else "RELEASE_LIFECYCLE_STATE_PUBLISHED"
        out.append({"releaseName": release.get("name", ""), "track": track["track"],
                    "activeArtifacts": [{"versionCode": int(c)} for c in release.get("versionCodes", [])],
                    "releaseLifecycleState": state})
    return out


def method_of(http, rest):
    """The discovery document's method id for a request, from its verb and path."""
    if http == "GET" and len(rest) == 3 and rest[0] == "tracks" and rest[2] == "releases":
        return "applications.tracks.releases.list"
    if http == "POST" and rest == ["edits"]:
        return "edits.insert"
    if len(rest) >= 2 and rest[0] == "edits":
        if http == "DELETE" and len(rest) == 2:
            return "edits.delete"
        if http == "GET" and len(rest) == 3 and rest[2] == "tracks":
            return "edits.tracks.list"
        if http == "GET" and len(rest) == 4 and rest[2] == "tracks":
            return "edits.tracks.get"
        if http == "GET" and len(rest) == 4 and rest[2] == "countryAvailability":
            return "edits.countryavailability.get"
        if http == "GET" and len(rest) == 2:
            return "edits.get"
        if http == "PUT" and len(rest) == 4 and rest[2] == "tracks":
            return "edits.tracks.update"
        if http == "POST" and len(rest) == 2 and rest[1].endswith(":commit"):
            return "edits.commit"
    if rest == ["appRecoveries"]:
        return {"GET": "apprecovery.list", "POST": "apprecovery.create"}.get(http, "edits.get")
    if http == "POST" and len(rest) == 2 and rest[0] == "appRecoveries" and ":" in rest[1]:
        return {"deploy": "apprecovery.deploy", "cancel": "apprecovery.cancel"}.get(rest[1].split(":", 1)[1],
                                                                                   "edits.get")
    return "edits.get"  # any other path answers an error, whose shape is the same for every method


def served(track):
    """A track as the API serves it: no "releases" key when it has none."""
    return {k: v for k, v in track.items() if k != "releases" or v}


def track_not_found(name):
    """Play's answer for a track the app does not have."""
    message = f"Track not found: {name}."
    return envelope(404, "NOT_FOUND", message, reason="notFound", domain="global")


def custom_method(handler):
    """The custom method a literal ":" in the raw path's last segment names, or None."""
    last = urlparse(handler.path).path.rstrip("/").split("/")[-1]
    return last.split(":", 1)[1] if ":" in last else None


def echo(handler, scenario, bearer):
    """The echo scenarios' answer (see the header): True when one was sent."""
    if scenario == "echostart":
        fault(handler, 200, bearer + " is not a token this proxy accepts", "text/plain")
    elif scenario == "echomiddle":
        fault(handler, 200, "<html><body>Proxy error: token " + bearer + " refused</body></html>", "text/html")
    elif scenario == "echoprefix":
        fault(handler, 200, bearer[:len(bearer) // 2] + "... (cut)", "text/plain")
    else:
        return False
    return True


def handle(handler, method, token, scenario, parts, body=b""):
    """parts: the path after /<token>/<scenario>/androidpublisher/v3/applications/, decoded;
    body: the request's body."""
    s = stats(token)
    with LOCK:
        s["paths"].append("/" + "/".join(urlparse(handler.path).path.strip("/").split("/")[2:]))
        s["methods"].append(method + " " + s["paths"][-1])
        s["requests"] += 1
        count = s["requests"]
        auth = handler.headers.get("Authorization", "")
        if auth.startswith("Bearer ") and len(auth) > 7:
            if auth[7:] not in s["bearer"]:
                s["bearer"].append(auth[7:])
        else:
            s["unauthorized"] += 1
        if len(parts) >= 2 and parts[1].startswith("edits"):
            s["editRequests"] += 1
    api = method_of(method, parts[1:])

    def answer(status, body, headers=()):
        return reply(handler, api, status, body, headers)

    if not (auth.startswith("Bearer ") and len(auth) > 7) or scenario == "401":
        return answer(401, envelope(401, "UNAUTHENTICATED",
                                    "Request had invalid authentication credentials. Expected OAuth 2 access "
                                    "token, login cookie or other valid authentication credential."))
    if echo(handler, scenario, auth[7:]):
        return
    if scenario == "echoerror":
        return answer(401, envelope(401, "UNAUTHENTICATED", "Request had invalid authentication credentials: "
                                    + auth[7:] + " is expired."))
    method_name = custom_method(handler)
    recovery_method = len(parts) == 3 and parts[1] == "appRecoveries" and method_name in ("deploy", "cancel")
    if method_name is not None and not (method_name == "commit" and method == "POST") and not recovery_method:
        return answer(404, envelope(404, "NOT_FOUND", "Method not found."))
    if scenario == "401permission":
        return answer(401, envelope(401, None, "The current user has insufficient permissions to perform the "
                                               "requested operation.", reason="permissionDenied"))
    if scenario == "403scope":
        return answer(403, envelope(403, "PERMISSION_DENIED", "Request had insufficient authentication scopes.",
                                    detail_reason="ACCESS_TOKEN_SCOPE_INSUFFICIENT"))
    if scenario == "403disabled":
        return answer(403, envelope(403, "PERMISSION_DENIED",
                                    "Google Play Android Developer API has not been used in project 12345 "
                                    "before or it is disabled.", detail_reason="SERVICE_DISABLED"))
    if scenario == "403permission":
        return answer(403, envelope(403, "PERMISSION_DENIED", "The caller does not have permission",
                                    reason="permissionDenied"))
    if scenario == "403forbidden":
        return answer(403, fixture_error("error-403-forbidden-gpp805.json"))
    if scenario == "403insufficient":
        return answer(403, fixture_error("error-403-insufficient-gpp837.json"))
    if scenario == "403forged":
        return answer(403, envelope(403, "PERMISSION_DENIED", FORGED_MESSAGE))
    if scenario == "429once" and count == 1:
        return answer(429, envelope(429, "RESOURCE_EXHAUSTED", "Quota exceeded."), [("Retry-After", "1")])
    if scenario == "409once" and count == 1:
        return answer(409, envelope(409, "ABORTED", "The operation was aborted.", reason="concurrentUpdate"))
    if scenario == "500once" and count == 1:
        return answer(500, envelope(500, "INTERNAL", "Internal error encountered."))
    if not parts:
        return answer(404, envelope(404, "NOT_FOUND", "Not found"))
    package = parts[0]
    rest = parts[1:]
    played = timeline.named(scenario)
    if played is not None and package == played["app"]["package"]:
        if api == "edits.insert":
            timeline.advance(token, "play")
        tracks = timeline.play_tracks(played, timeline.current(token, "play"))
    elif package not in APPS or played is not None:
        return answer(404, envelope(404, "NOT_FOUND", f"Package not found: {package}.",
                                    reason="applicationNotFound"))
    else:
        with LOCK:
            tracks = app_state(s, package)["tracks"]

    # The edit-free list.
    if api == "applications.tracks.releases.list":
        with LOCK:
            s["releasesRequests"] += 1
            asked = s["releasesRequests"]
        track = next((t for t in tracks if t["track"] == rest[1]), None)
        if track is None:
            return answer(404, track_not_found(rest[1]))
        if not track.get("releases"):
            return answer(200, {})
        releases = summaries(track)
        if played is not None:
            releases = timeline.play_summaries(played, timeline.current(token, "play"))
        if scenario == "publishing" and asked <= 2:
            releases = [dict(r, releaseLifecycleState="RELEASE_LIFECYCLE_STATE_IN_REVIEW") for r in releases]
        return answer(200, {"releases": releases})

    if api.startswith("apprecovery."):
        if played is not None:
            # A timeline's actions are the step's: listed, never written.
            if api != "apprecovery.list":
                return invalid(answer, "A scripted timeline's App Recovery actions cannot be changed.")
            return recovery_list(handler, answer, timeline.play_recoveries(played, timeline.current(token, "play")))
        return recovery(handler, api, s, package, rest, body, answer)

    if api == "edits.insert":
        with LOCK:
            s["editsInserted"] += 1
            edit = f"{token[:8]}-{s['editsInserted']}"
            s["open"].append(edit)
            s["edits"][edit] = copy.deepcopy(tracks)
        return answer(200, {"id": edit, "expiryTimeSeconds": str(int(time.time()) + 3600)})

    if len(rest) >= 2 and rest[0] == "edits":
        edit = rest[1]
        if edit.endswith(":commit") and method == "POST":
            return commit(handler, s, package, edit[:-7], scenario, answer, played is not None)
        with LOCK:
            known = edit in s["open"]
            if known and played is None:
                tracks = s["edits"][edit]
        if api == "edits.tracks.update":
            return update_track(s, edit, known, rest[3], body, answer)
        if api == "edits.delete":
            if not known:
                return answer(404, envelope(404, "NOT_FOUND", "Edit not found.", reason="editNotFound"))
            with LOCK:
                s["open"].remove(edit)
                s["editsDeleted"] += 1
            handler.send_response(204)
            handler.send_header("Content-Length", "0")
            handler.end_headers()
            return
        if api == "edits.countryavailability.get":
            if not known:
                return answer(400, envelope(400, "FAILED_PRECONDITION", "This Edit has been deleted.",
                                            reason="editDeleted"))
            name = rest[3]
            if not any(t["track"] == name for t in tracks):
                return answer(404, track_not_found(name))
            given = COUNTRIES.get(package, {}).get(name)
            if given is None:
                given = {"restOfWorld": True} if name == "production" else {"syncWithProduction": True}
            return answer(200, given)
        if api in ("edits.tracks.list", "edits.tracks.get"):
            if not known:
                return answer(400, envelope(400, "FAILED_PRECONDITION", "This Edit has been deleted.",
                                            reason="editDeleted"))
            with LOCK:
                s["trackReads"] += 1
                reads = s["trackReads"]
            if scenario == "editDeleted" and reads == 1:
                return answer(410, envelope(410, "FAILED_PRECONDITION", "This Edit has been deleted.",
                                            reason="editDeleted"))
            if scenario == "editDeleted400":
                return answer(400, envelope(400, "FAILED_PRECONDITION", "This Edit has been deleted.",
                                            reason="editDeleted"))
            if scenario == "500tracks":
                return answer(500, envelope(500, "INTERNAL", "Internal error encountered."))
            if scenario == "slow":
                time.sleep(5)
            if scenario == "html":
                return fault(handler, 200, "<!DOCTYPE html><html><body>Sign in</body></html>", "text/html")
            if scenario == "badjson":
                return fault(handler, 200, json.dumps(
                    {"track": "production", "releases": [{"status": "inProgress", "userFraction": "half"}]}))
            if api == "edits.tracks.list":
                return answer(200, {"kind": "androidpublisher#tracksListResponse",
                                    "tracks": [served(t) for t in tracks]})
            track = next((t for t in tracks if t["track"] == rest[3]), None)
            if track is None:
                return answer(404, track_not_found(rest[3]))
            if not track.get("releases") and scenario == "trackEmptyV2":
                return answer(404, fixture_error("error-404-trackEmpty-gpp169.json"))
            return answer(200, served(track))
    return answer(404, envelope(404, "NOT_FOUND", "Requested entity was not found."))


SERVING = ("inProgress", "completed")
REVIEW_HELD = ("Changes cannot be sent for review automatically. Please set the query parameter "
               "changesNotSentForReview to true. Once committed, the changes in this edit can be sent for review "
               "from the Google Play Console UI.")
REVIEW_AUTOMATIC = ("Changes are sent for review automatically. The query parameter changesNotSentForReview must "
                    "not be set.")


def count_write(s, key=None):
    with LOCK:
        s["writes"] += 1
        if key:
            s[key] += 1


def invalid(answer, message, reason="badRequest"):
    return answer(400, envelope(400, "INVALID_ARGUMENT", message, reason=reason, domain="global"))


def parsed(body, api):
    """(value, problems): the request body as JSON and its violations of the method's contract."""
    try:
        value = json.loads(body.decode("utf-8")) if body else None
    except ValueError as error:
        return None, [f"not JSON ({error})"]
    if value is None:
        return None, ["no body"]
    name, schema = contract.play_request(api)
    return value, contract.violations(name, schema, value)


def release_problem(release, before):
    """What Play refuses in one release of an update, or None: (message, reason)."""
    status = release.get("status", "statusUnspecified")
    fraction = release.get("userFraction")
    if fraction is not None and status not in ("inProgress", "halted"):
        return f"Release with status {status} must not have a user fraction.", "badRequest"
    if status == "halted" and fraction is None:
        # fastlane PR #29594 (2025): a halted release sent without its fraction.
        return "HALTED release must have fraction", "badRequest"
    if status in ("inProgress", "halted") and (fraction is None or not 0 < fraction < 1):
        return f"Release with status {status} needs a user fraction in (0, 1).", "badRequest"
    codes = release.get("versionCodes", [])
    old = next((r for r in before if r.get("versionCodes", []) == codes and codes), None)
    if status == "halted" and (old is None or old.get("status") not in ("inProgress", "halted")):
        # Triple-T/gradle-play-publisher #547: halting needs an in-progress release to halt. Play
        # halts a completed release too since 2025 (support.google.com/googleplay/android-developer/
        # answer/16285429, "via the Publishing API"), but the request for it is published neither in
        # the discovery document nor in a public client: this fake answers a completed release sent
        # as halted as Play answered it before, and the tool never sends one.
        return "Cannot halt release, no matching in progress release found.", "releaseToHaltNotFound"
    if old is not None and old.get("status") == "completed" and status == "inProgress":
        return f"Release {release.get('name', codes)} is completed: it cannot be {status} again.", "badRequest"
    return None


def track_problem(releases):
    """What Play refuses in a track's release list as a whole, or None: (message, reason)."""
    statuses = [r.get("status", "statusUnspecified") for r in releases]
    if statuses.count("completed") > 1:
        # fastlane/fastlane #15772: a rollout to 100% that kept the earlier completed release.
        return "Too many completed releases specified", "releasesTooManyCompletedReleases"
    if statuses.count("inProgress") + statuses.count("halted") > 1:
        # fastlane/fastlane PR #29134 (2024-12): two staged releases. The source quotes the message
        # only; the reason is ours, by analogy with the completed one (inferred).
        return "Too many staged releases specified", "releasesTooManyStagedReleases"
    return None


def update_track(s, edit, known, name, body, answer):
    """edits.tracks.update: the body replaces the track in the edit (see the header)."""
    count_write(s, "tracksUpdated")
    if not known:
        return answer(400, envelope(400, "FAILED_PRECONDITION", "This Edit has been deleted.", reason="editDeleted"))
    value, problems = parsed(body, "edits.tracks.update")
    if problems:
        return invalid(answer, "Invalid JSON payload received. " + "; ".join(problems))
    if value.get("track") != name:
        return invalid(answer, f"Track name in the body ({value.get('track')}) does not match the path ({name}).")
    with LOCK:
        tracks = s["edits"][edit]
        current = next((t for t in tracks if t["track"] == name), None)
    if current is None:
        return answer(404, track_not_found(name))
    problems = [release_problem(r, current.get("releases", [])) for r in value.get("releases", [])]
    problem = next((p for p in problems if p), None) or track_problem(value.get("releases", []))
    if problem:
        return invalid(answer, problem[0], problem[1])
    with LOCK:
        current["releases"] = copy.deepcopy(value.get("releases", []))
    return answer(200, served(current))


def commit(handler, s, package, edit, scenario, answer, played):
    """edits.commit: the edit's tracks become the app's (see the header)."""
    count_write(s)
    query = parse_qs(urlparse(handler.path).query)
    not_sent = query.get("changesNotSentForReview", ["false"])[0] == "true"
    with LOCK:
        known = edit in s["open"]
    if not known:
        return answer(400, envelope(400, "FAILED_PRECONDITION", "This Edit has been deleted.", reason="editDeleted"))
    refusal = None
    if scenario == "reviewheld" and not not_sent:
        refusal = (400, envelope(400, "FAILED_PRECONDITION", REVIEW_HELD, reason="badRequest", domain="global"))
    elif scenario != "reviewheld" and not_sent:
        refusal = (400, envelope(400, "FAILED_PRECONDITION", REVIEW_AUTOMATIC, reason="badRequest", domain="global"))
    elif not played:
        with LOCK:
            before = {t["track"]: t for t in app_state(s, package)["tracks"]}
            after = s["edits"][edit]
        for track in after:
            old = before.get(track["track"], {"releases": []})
            served_before = any(r.get("status") in SERVING for r in old.get("releases", []))
            served_after = any(r.get("status") in SERVING for r in track.get("releases", []))
            if served_before and not served_after:
                refusal = (500, envelope(500, "INTERNAL", "Internal error encountered."))
    if refusal:
        with LOCK:
            s["commitsRefused"] += 1
        return answer(*refusal)
    with LOCK:
        if not played:
            app_state(s, package)["tracks"] = s["edits"].pop(edit)
        s["open"].remove(edit)
        s["editsCommitted"] += 1
    if scenario == "commitlost500":
        # Applied, then answered as a failure: what a client sees when Play's front end fails after
        # the edit was committed (issue 39's probe). The edit is closed: a second commit of it is
        # 400 "This Edit has been deleted." (above).
        return answer(500, envelope(500, "INTERNAL", "Internal error encountered."))
    if scenario == "commitlostslow":
        # Applied, then answered too late for a client's timeout (a deliberate fault: the answer
        # itself is Play's).
        time.sleep(5)
    return answer(200, {"id": edit, "expiryTimeSeconds": str(int(time.time()) + 3600)})


def targets(action, code):
    """Whether a recovery action's targeting names a versionCode."""
    targeting = action.get("targeting", {})
    if code in targeting.get("versionList", {}).get("versionCodes", []):
        return True
    span = targeting.get("versionRange")
    return bool(span) and int(span.get("versionCodeStart", "0")) <= int(code) <= int(span.get("versionCodeEnd", "0"))


def targeting_problem(targeting):
    """What App Recovery refuses in a create's targeting, or None."""
    criteria = [k for k in ("regions", "androidSdks", "allUsers") if k in targeting]
    selectors = [k for k in ("versionList", "versionRange") if k in targeting]
    if len(criteria) != 1:
        return "Exactly one targeting criterion (regions, androidSdks or allUsers) is required."
    if len(selectors) != 1:
        return "Exactly one version selector (versionList or versionRange) is required."
    if "allUsers" in targeting and targeting["allUsers"].get("isAllUsersRequested") is not True:
        return "allUsers.isAllUsersRequested must be true."
    if "regions" in targeting and not targeting["regions"].get("regionCode"):
        return "regions.regionCode must name at least one region."
    if "versionList" in targeting and not targeting["versionList"].get("versionCodes"):
        return "versionList.versionCodes must name at least one version code."
    return None


def recovery_list(handler, answer, actions):
    """App Recovery's list: the actions that target the query's versionCode ({} when none)."""
    codes = parse_qs(urlparse(handler.path).query).get("versionCode", [])
    if not codes or not codes[0].isdigit():
        return invalid(answer, "versionCode is required (an int64).")
    listed = [a for a in actions if targets(a, codes[0])]
    return answer(200, {"recoveryActions": listed} if listed else {})


def recovery(handler, api, s, package, rest, body, answer):
    """App Recovery's list, create, deploy and cancel (see the header)."""
    if api == "apprecovery.list":
        with LOCK:
            actions = copy.deepcopy(app_state(s, package)["appRecoveries"])
        return recovery_list(handler, answer, actions)
    if api == "apprecovery.create":
        count_write(s)
        value, problems = parsed(body, api)
        if problems:
            return invalid(answer, "Invalid JSON payload received. " + "; ".join(problems))
        if value.get("remoteInAppUpdate", {}).get("isRemoteInAppUpdateRequested") is not True:
            return invalid(answer, "remoteInAppUpdate.isRemoteInAppUpdateRequested must be true.")
        problem = targeting_problem(value.get("targeting", {}))
        if problem:
            return invalid(answer, problem)
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        with LOCK:
            app = app_state(s, package)
            s["recoveriesCreated"] += 1
            ident = str(1000 + len(app["appRecoveries"]) + 1)
            codes = value["targeting"].get("versionList", {}).get("versionCodes", [])
            action = {"appRecoveryId": ident, "status": "RECOVERY_STATUS_DRAFT", "targeting": value["targeting"],
                      "createTime": now, "lastUpdateTime": now,
                      "remoteInAppUpdateData": {"remoteAppUpdateDataPerBundle": [
                          {"versionCode": c, "recoveredDeviceCount": "0", "totalDeviceCount": "0"} for c in codes]}}
            app["appRecoveries"].append(action)
        return answer(200, copy.deepcopy(action))
    ident, verb = rest[1].split(":", 1)
    count_write(s)
    value, problems = parsed(body or b"{}", api)
    if problems:
        return invalid(answer, "Invalid JSON payload received. " + "; ".join(problems))
    with LOCK:
        action = next((a for a in app_state(s, package)["appRecoveries"] if a["appRecoveryId"] == ident), None)
    if action is None:
        return answer(404, envelope(404, "NOT_FOUND", f"App recovery action {ident} not found.", reason="notFound",
                                    domain="global"))
    wanted = {"deploy": ("RECOVERY_STATUS_DRAFT", "RECOVERY_STATUS_ACTIVE", "deployTime", "recoveriesDeployed"),
              "cancel": (None, "RECOVERY_STATUS_CANCELED", "cancelTime", "recoveriesCanceled")}[verb]
    with LOCK:
        status = action["status"]
        allowed = status == wanted[0] if wanted[0] else status != "RECOVERY_STATUS_CANCELED"
        if allowed:
            now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            action["status"] = wanted[1]
            action[wanted[2]] = now
            action["lastUpdateTime"] = now
            s[wanted[3]] += 1
    if not allowed:
        return answer(400, envelope(400, "FAILED_PRECONDITION",
                                    f"The recovery action {ident} is {status}: it cannot be {verb}ed.",
                                    reason="badRequest", domain="global"))
    return answer(200, {})
