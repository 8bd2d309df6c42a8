#!/usr/bin/env python3
"""Walks every scenario of the Play and App Store Connect fakes (the Developer API, the Developer
Reporting API, App Store Connect and its Analytics Reports) over real HTTP and checks every JSON
body they serve, and every query body sent to the Reporting API, against the vendors' contracts
(contract.py).

    python3 contract_walk.py FIXTURES_DIR
    python3 contract_walk.py --self-test

Starts lookup_server.py's server in this process on 127.0.0.1, asks each scenario every route a
client uses (each app, each track and a missing one, each platform with and without include=,
following links.next), then prints one line of counts and exits 0 when every body validated, or
prints each violation (and each developer-API answer sent without a contract) and exits 1.
Bodies a scenario sends outside the contract on purpose (HTML, a wrong type, a state Apple may
add later) are counted as faults, not checked. `slow` is left out: it serves ok's bodies, later.

--self-test checks the validator itself: each body in BROKEN must give the violation named beside
it (so a validator that accepts everything fails), and prints "self-test: N broken bodies caught".
"""
import json
import os
import re
import sys
import threading
import urllib.error
import urllib.request
from urllib.parse import quote, urlparse

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import asc_analytics  # noqa: E402
import asc_api  # noqa: E402
import lookup_server  # noqa: E402
import play_api  # noqa: E402
import play_reporting  # noqa: E402
import timeline  # noqa: E402


def scenarios(module, marker="Scenarios:"):
    """The scenario names a fake's header lists, one a line after `marker`; timeline-NAME is
    each timeline loaded."""
    text = module.__doc__.split(marker, 1)[1]
    names = []
    for line in text.splitlines()[1:]:
        if line and not line.startswith(" "):
            break
        match = re.match(r"^  ([^\s,]+(?:, [^\s,]+)*)\s", line)
        if match:
            names += [n.strip() for n in match.group(1).split(",")]
    return [t for n in names for t in (["timeline-" + k for k in sorted(timeline.TIMELINES)]
                                       if n == "timeline-NAME" else [n])]


def rounds(scenario):
    """How many times to walk a scenario: each step of a timeline, once otherwise."""
    played = timeline.named(scenario)
    return len(played["steps"]) + 1 if played else 1


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


OPENER = urllib.request.build_opener(NoRedirect)


def fetch(url, method="GET", token="walk-token", body=None):
    """The status and body of one request (errors included); a POST or PUT sends `body` as JSON ({})."""
    data = json.dumps(body if body is not None else {}).encode() if method in ("POST", "PUT") else None
    request = urllib.request.Request(url, method=method, data=data)
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with OPENER.open(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def walk_play(base, scenario):
    root = f"{base}/walk-play-{scenario}/{scenario}/androidpublisher/v3/applications"
    fetch(root + "/com.example.completed/edits", "POST", token=None)
    played = timeline.named(scenario)
    apps = [(played["app"]["package"], [{"track": "production"}])] if played else []
    for package, tracks in list(play_api.APPS.items()) + apps + [("com.example.unknown", [])]:
        names = [t["track"] for t in tracks] + ["prodution"]
        for name in names:
            fetch(f"{root}/{package}/tracks/{quote(name)}/releases")
        status, body = fetch(f"{root}/{package}/edits", "POST")
        try:
            edit = json.loads(body).get("id") if status == 200 else "missing"
        except ValueError:  # a scenario that answers 200 with a body that is not JSON, on purpose
            edit = "missing"
        fetch(f"{root}/{package}/edits/{edit}/tracks")
        for name in names:
            fetch(f"{root}/{package}/edits/{edit}/tracks/{quote(name)}")
            fetch(f"{root}/{package}/edits/{edit}/countryAvailability/{quote(name)}")
        fetch(f"{root}/{package}/edits/{edit}", "DELETE")
        fetch(f"{root}/{package}/edits/{edit}/tracks")


# The track updates Play refuses, each with its rule's source (play_api.py says it beside the
# rule): their answers are Google's error envelope, checked like every other body, and the walk
# fails if the fake stops refusing one.
def release(code, status, fraction=None):
    out = {"name": str(code), "versionCodes": [str(code)], "status": status}
    if fraction is not None:
        out["userFraction"] = fraction
    return out


REFUSED_TRACKS = [
    # fastlane/fastlane #15772
    ([release(80, "completed"), release(81, "completed")], "Too many completed releases specified"),
    # fastlane/fastlane PR #29134
    ([release(80, "completed"), release(81, "inProgress", 0.2), release(82, "inProgress", 0.1)],
     "Too many staged releases specified"),
    # fastlane/fastlane PR #29594
    ([release(80, "completed"), release(81, "halted")], "HALTED release must have fraction"),
    # Triple-T/gradle-play-publisher #547 (the 2025 halt of a completed release has no published request)
    ([release(80, "halted", 0.5), release(81, "inProgress", 0.2)],
     "Cannot halt release, no matching in progress release found."),
]


def walk_play_writes(base, scenario):
    """Every refusal of a track update, then a halt that is taken and committed twice (the second
    commit finds the edit closed), on com.example.rollout; the answers are checked as sent."""
    root = f"{base}/walk-write-{scenario}/{scenario}/androidpublisher/v3/applications/com.example.rollout"
    status, body = fetch(root + "/edits", "POST")
    edit = json.loads(body)["id"]
    track = f"{root}/edits/{edit}/tracks/production"
    for releases, message in REFUSED_TRACKS:
        status, body = fetch(track, "PUT", body={"track": "production", "releases": releases})
        if status != 400 or message not in body.decode():
            raise SystemExit(f"{scenario}: the fake took a track Play refuses ({message}): {status} {body[:200]}")
    halted = [release(80, "completed"), release(81, "halted", 0.2)]
    status, _ = fetch(track, "PUT", body={"track": "production", "releases": halted})
    if status != 200:
        raise SystemExit(f"{scenario}: the fake refused a halt Play takes: {status}")
    fetch(f"{root}/edits/{edit}:commit", "POST")
    status, _ = fetch(f"{root}/edits/{edit}:commit", "POST")
    if status != 400:
        raise SystemExit(f"{scenario}: a second commit of one edit was {status}, not 400 editDeleted")


def next_of(status, body):
    """A JSON:API page's links.next, or None (an error, or a body that is not JSON on purpose)."""
    try:
        return json.loads(body).get("links", {}).get("next") if status == 200 else None
    except ValueError:
        return None


def walk_asc(base, scenario):
    root = f"{base}/walk-asc-{scenario}/{scenario}"
    fetch(root + "/v1/apps?filter%5BbundleId%5D=com.tencent.xin", token=None)
    fetch(root + "/v1/apps?filter%5BbundleId%5D=com.tencent.xin")
    for app in ("414478124", "999000999", "1"):
        fetch(f"{root}/v1/apps/{app}/appAvailabilityV2")
        url = f"{root}/v2/appAvailabilities/{app}/territoryAvailabilities?include=territory&limit=50"
        for _ in range(10):
            status, body = fetch(url)
            url = next_of(status, body)
            if not url:
                break
        for platform in ("IOS", "MAC_OS", "TV_OS", "VISION_OS"):
            for include in ("", "&include=appStoreVersionPhasedRelease"):
                url = f"{root}/v1/apps/{app}/appStoreVersions?filter%5Bplatform%5D={platform}{include}"
                for _ in range(10):
                    status, body = fetch(url)
                    next_link = next_of(status, body)
                    if not next_link or urlparse(next_link).netloc != urlparse(base).netloc:
                        break
                    url = next_link


def day(year, month, date, zone=True):
    return {"year": year, "month": month, "day": date, **({"timeZone": {"id": play_reporting.LA}} if zone else {})}


def walk_reporting(base, scenario):
    """Every route `storerelease health` reads, and the traps a client may fall into (no time zone,
    FULL_RANGE, an end past freshness, a POST to errorIssues:search), each under a token of its own
    so the fake's 12-a-second burst limit answers only where a scenario asks for it."""
    serial = iter(range(1000))

    def root():
        return f"{base}/walk-rep-{scenario}-{next(serial)}/{scenario}/v1beta1/apps"

    for package in (play_reporting.PACKAGE, "com.example.unknown"):
        fetch(f"{root()}/{package}:fetchReleaseFilterOptions")
        for metric_set, rate in (("crashRateMetricSet", "userPerceivedCrashRate"),
                                 ("anrRateMetricSet", "userPerceivedAnrRate")):
            fetch(f"{root()}/{package}/{metric_set}")
            spec = {"aggregationPeriod": "DAILY", "startTime": day(2020, 11, 1), "endTime": day(2021, 2, 4)}
            traps = [{**spec, "startTime": day(2020, 11, 1, zone=False)}, {**spec, "aggregationPeriod": "FULL_RANGE"},
                     {**spec, "endTime": day(2021, 2, 20)}]
            for timeline_spec in [spec] + traps:
                query = {"timelineSpec": timeline_spec, "dimensions": ["versionCode"],
                         "metrics": [rate, "distinctUsers"], "pageSize": 500}
                url = f"{root()}/{package}/{metric_set}:query"
                for _ in range(20):
                    status, body = fetch(url, "POST", body=query)
                    try:
                        token = json.loads(body).get("nextPageToken") if status == 200 else None
                    except ValueError:
                        token = None
                    if not token:
                        break
                    query = {**query, "pageToken": token}
        interval = ("interval.startTime.year=2021&interval.startTime.month=1&interval.startTime.day=1"
                    "&interval.startTime.timeZone.id=America/Los_Angeles&interval.endTime.year=2021"
                    "&interval.endTime.month=2&interval.endTime.day=4&interval.endTime.timeZone.id=America/Los_Angeles")
        for code in (80, 81):
            fetch(f"{root()}/{package}/errorIssues:search?filter=versionCode%3D{code}&pageSize=5&{interval}")
        fetch(f"{root()}/{package}/errorIssues:search", "POST")


def walk_analytics(base, scenario):
    """An app's ONGOING report requests, their two reports, every page of their DAILY instances and
    each instance's segments (the segment files are gzip, not JSON, and are not walked)."""
    root = f"{base}/walk-ana-{scenario}/{scenario}/v1"
    for app in ("414478124", "999000999"):
        status, body = fetch(f"{root}/apps/{app}/analyticsReportRequests?filter%5BaccessType%5D=ONGOING")
        requests = json.loads(body).get("data", []) if status == 200 else []
        for request in requests:
            for name in asc_analytics_names():
                status, body = fetch(f"{root}/analyticsReportRequests/{request['id']}/reports?filter%5Bname%5D="
                                     f"{quote(name)}&filter%5Bcategory%5D=APP_USAGE")
                for report in (json.loads(body).get("data", []) if status == 200 else []):
                    url = f"{root}/analyticsReports/{report['id']}/instances?filter%5Bgranularity%5D=DAILY&limit=200"
                    for _ in range(20):
                        status, body = fetch(url)
                        for instance in (json.loads(body).get("data", []) if status == 200 else []):
                            fetch(f"{root}/analyticsReportInstances/{instance['id']}/segments")
                        url = next_of(status, body)
                        if not url:
                            break


def asc_analytics_names():
    return ("App Crashes", "App Sessions Standard")


VERSIONS = ("asc", "/v1/apps/{id}/appStoreVersions", 200)
TRACK = ("play", "edits.tracks.get", 200)
BROKEN = [
    (TRACK, {"track": "beta", "releases": [{"versionCodes": [81]}]}, "is not a string"),
    (TRACK, {"track": "beta", "releases": [{"versionCodes": ["8x"]}]}, "is not an int64"),
    (TRACK, {"track": "beta", "releases": [{"status": "rolling"}]}, "not one of the contract's values"),
    (TRACK, {"track": "beta", "releases": [{"userFraction": "half"}]}, "is not a number"),
    (TRACK, {"track": "beta", "releases": None}, "null"),
    (TRACK, {"track": "beta", "rollout": 1}, "key 'rollout' is not in the contract"),
    (("play", "edits.tracks.get", 404), {"error": {"code": "404"}}, "is not an integer"),
    (VERSIONS, {"data": []}, "required key 'links' missing"),
    (VERSIONS, {"data": [{"type": "appStoreVersions"}], "links": {"self": "x"}}, "required key 'id' missing"),
    (VERSIONS, {"data": [{"type": "apps", "id": "1"}], "links": {"self": "x"}}, "not one of the contract's values"),
    (VERSIONS, {"data": [{"type": "appStoreVersions", "id": "1", "attributes": {"platform": "WATCH_OS"}}],
                "links": {"self": "x"}}, "not one of the contract's values"),
    (VERSIONS, {"data": [{"type": "appStoreVersions", "id": "1", "relationships": {
        "appStoreVersionPhasedRelease": {"data": None}}}], "links": {"self": "x"}}, "null"),
    (VERSIONS, {"data": [], "links": {"self": "x"}, "included": [
        {"type": "appStoreVersionPhasedReleases", "id": "p", "attributes": {"startDate": "2021-02-02"}}]},
     "is not a date-time"),
    (VERSIONS, {"data": [], "links": {"self": "x"}, "included": [{"type": "nonsense", "id": "p"}]},
     "none of the oneOf's types"),
    (("asc", "/v1/apps", 401), {"errors": [{"code": "NOT_AUTHORIZED", "status": 401, "title": "t"}]},
     "is not a string"),
]


def self_test():
    import contract
    missed = []
    for (api, where, status), body, expected in BROKEN:
        schema = contract.play_response(where, status) if api == "play" else contract.asc_response(where, status)
        found = contract.check(api, schema, json.dumps(body))
        if not any(expected in line for line in found):
            missed.append(f"{json.dumps(body)}: expected {expected!r}, got {found}")
    for line in missed:
        print("missed: " + line)
    print(f"self-test: {len(BROKEN) - len(missed)} of {len(BROKEN)} broken bodies caught")
    return 1 if missed else 0


def main():
    if len(sys.argv) != 2:
        print("usage: contract_walk.py FIXTURES_DIR | --self-test", file=sys.stderr)
        return 2
    if sys.argv[1] == "--self-test":
        return self_test()
    fixtures = sys.argv[1]
    lookup_server.FIXTURES_DIR[0] = os.path.join(fixtures, "appstore")
    lookup_server.load(os.path.join(fixtures, "appstore"))
    play_api.load(os.path.join(fixtures, "play-api"))
    asc_api.load(os.path.join(fixtures, "asc"))
    timeline.load(os.path.join(fixtures, "timeline"))
    server = lookup_server.Server(("127.0.0.1", 0), lookup_server.Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d" % server.server_address[1]
    play = [s for s in scenarios(play_api) if s != "slow"]
    asc = scenarios(asc_api)
    reporting = scenarios(play_reporting, "Scenarios pick the data and faults:")
    analytics = scenarios(asc_analytics)
    for scenario in play:
        for _ in range(rounds(scenario)):
            walk_play(base, scenario)
    for scenario in ("ok", "commitlost500"):
        walk_play_writes(base, scenario)
    for scenario in asc:
        for _ in range(rounds(scenario)):
            walk_asc(base, scenario)
    for scenario in reporting:
        walk_reporting(base, scenario)
    for scenario in analytics:
        walk_analytics(base, scenario)
    logs = lookup_server.CONTRACT
    checked = sum(log["checked"] for log in logs.values())
    faults = sum(log["faults"] for log in logs.values())
    problems = [v for log in logs.values() for v in log["violations"]]
    unchecked = [u for log in logs.values() for u in log["unchecked"]]
    server.shutdown()
    for line in problems:
        print("violation: " + line)
    for line in unchecked:
        print("unchecked: " + line)
    print(f"contract: {checked} bodies checked over {len(play)} Play, {len(asc)} App Store Connect, "
          f"{len(reporting)} Play Reporting and {len(analytics)} Analytics Reports scenarios, "
          f"{len(problems)} violations, {len(unchecked)} unchecked, {faults} deliberate faults")
    return 1 if problems or unchecked or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
