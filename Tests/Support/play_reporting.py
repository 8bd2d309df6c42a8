"""The Google Play Developer Reporting API (v1beta1) as lookup_server.py serves it: the vitals that
`storerelease health` reads, Google's error envelopes and the traps people have met, with counters.

Paths are /<token>/<scenario>/v1beta1/apps/<package>...:

  GET  .../crashRateMetricSet           {name, freshnessInfo}: DAILY data ends (exclusive) on
  GET  .../anrRateMetricSet             FRESH (2021-02-04, Los Angeles), HOURLY at 2021-02-04T07:00Z
  POST .../crashRateMetricSet:query     the rows of userPerceivedCrashRate (or userPerceivedAnrRate)
  POST .../anrRateMetricSet:query       and distinctUsers per versionCode per day; at most 500 rows a
                                        page (pageSize caps it lower), nextPageToken to the rest
  GET  .../errorIssues:search           the filter's versionCode's issues, largest first
  GET  apps/<package>:fetchReleaseFilterOptions   the serving releases' names and versionCodes

The traps (as the reference lists them):
  - a DAILY query whose startTime has no timeZone {id: America/Los_Angeles} answers {} (200, no rows);
  - FULL_RANGE (or anything but DAILY and HOURLY) is 400 INVALID_ARGUMENT for these metric sets;
  - DAILY with hours, minutes, seconds or nanos set is 400;
  - an endTime after the freshness is 400 "end_date should be at most 2021-02-04";
  - a POST to errorIssues:search is Google's generic 404 HTML page;
  - distinctUsers is rounded to the nearest 10 (below 1,000), 100 (below 100,000), 1,000 (below
    10 million) or 1,000,000, while the rate is the true one;
  - more than 12 requests of a token within one second is 429 RESOURCE_EXHAUSTED (the API's quota
    is 10 a second; counted as overRate).

Every request body is checked against the discovery document's request schema (a violation is 400
and is logged with the contract checks), every JSON answer against the response schema, as sent.
Every request needs "Authorization: Bearer <token>" (else 401). Scenarios pick the data and faults:

  firstday     8.0.9 (80) ten days from 2021-01-20, its first day 2 crashed of 90 users, then
               about 0.4% of 2,000; 8.0.10 (81) one day, 2021-02-03: 3 crashed of 130 users
               (the first-day spike); both serving
  regressed    80: ten days from 2021-01-25 of 7,013 users, 0.6% crashes, 0.2% ANRs; 81: three
               days from 2021-02-01 of 7,013 users, 2.1% crashes and 0.9% ANRs; only 81 serving,
               so 80 has no name
  healthy      as regressed, but 81 crashes 0.5% and sees 0.15% ANRs
  bench        50 versionCodes (1..50, names 1.0.N) × 90 days of 10,000 users each
  badrate      regressed, but one row's userPerceivedCrashRate is "n/a"
  403quality   403 PERMISSION_DENIED "The caller does not have permission": the service account may
               not view app quality information
  403scope     403 with details[].reason ACCESS_TOKEN_SCOPE_INSUFFICIENT (an androidpublisher-only token)
  403forged    403 PERMISSION_DENIED whose message is play_api.py's FORGED_MESSAGE: an ANSI colour, a
               newline and a forged line, a pipe, an HTML image, a Markdown link, a code span (a fault)
  429once      the token's first request is 429, then regressed
  heldout      as firstday, but 81's one day is Play's held-out case: a rate of 0.023 (2.30%) over 90
               distinct users (2.07 users: Play keeps the rate, it does not round users)
  anrstale     as healthy, but 81 sees 3.0% ANRs (80 0.2%) and the ANR metric set's DAILY freshness is
               a day behind the crash set's (2021-02-03): each metric set has its own freshnessInfo
  anrlag       as healthy, but the ANR metric set's DAILY freshness is a day behind the crash set's
  anrnone      as healthy, but the ANR query answers no rows ({}, as for an app without ANR data)
  duplicaterows  as healthy, but every crash row of 81 is sent twice, alike
  conflictrows as healthy, but 81's crash row of 2021-02-02 is sent twice, the second at 3.0%
  hostileissue as regressed, but the top issue's cause is text an app's exception carries: Markdown
               (a bold "healthy", an image, a link), a line break and ANSI escapes

Any other package is 404 "Requested entity was not found.". GET /<token>/reportingstats returns the
token's counters: requests, queries (per metric set), pages, noTimeZone, fullRange, pastFreshness,
issueSearches, issuePosts, filterOptions, overRate, bodies (every query body), paths.
"""
import json
import threading
import time
from urllib.parse import parse_qs

import contract
from play_api import FORGED_MESSAGE

PACKAGE = "com.example.health"
FRESH = (2021, 2, 4)
LA = "America/Los_Angeles"
STATS = {}
LOCK = threading.Lock()


def stats(token):
    with LOCK:
        return STATS.setdefault(token, {
            "requests": 0, "queries": {}, "pages": 0, "noTimeZone": 0, "fullRange": 0, "pastFreshness": 0,
            "issueSearches": 0, "issuePosts": 0, "filterOptions": 0, "overRate": 0, "bodies": [], "paths": [],
            "times": []})


def snapshot(token):
    s = stats(token)
    with LOCK:
        return {k: v for k, v in s.items() if k != "times"}


def day_number(y, m, d):
    """Days since 1970-01-01."""
    import datetime
    return (datetime.date(y, m, d) - datetime.date(1970, 1, 1)).days


def civil(n):
    import datetime
    day = datetime.date(1970, 1, 1) + datetime.timedelta(days=n)
    return day.year, day.month, day.day


def rounded(users):
    """distinctUsers as Google rounds it."""
    step = 10 if users < 1000 else 100 if users < 100000 else 1000 if users < 10000000 else 1000000
    return int(round(users / step) * step)


def series(start, days, users, crash, anr):
    """Days from `start` (y, m, d): (day number, users, crashed, anr users), the rates as fractions."""
    first = day_number(*start)
    return [(first + i, users, round(users * crash), round(users * anr)) for i in range(days)]


def data(scenario):
    """{versionCode: (name or None when not serving, [(day, users, crashed, anr), ...])}."""
    if scenario in ("firstday", "heldout"):
        baseline = [(day_number(2021, 1, 20), 90, 2, 0)] + [
            (day_number(2021, 1, 21) + i, 2000, 8, 2) for i in range(9)]
        first = (day_number(2021, 2, 3), 90, 2.07, 0) if scenario == "heldout" else (day_number(2021, 2, 3), 130, 3, 0)
        return {80: ("8.0.9", baseline), 81: ("8.0.10", [first])}
    if scenario == "bench":
        first = day_number(*FRESH) - 90
        return {code: (f"1.0.{code}", [(first + i, 10000, 40 + code % 7, 10) for i in range(90)])
                for code in range(1, 51)}
    healthy = scenario in ("healthy", "anrlag", "anrnone", "duplicaterows", "conflictrows")
    candidate = (0.005, 0.03) if scenario == "anrstale" else (0.005, 0.0015) if healthy else (0.021, 0.009)
    return {80: (None, series((2021, 1, 25), 10, 7013, 0.006, 0.002)),
            81: ("8.0.10", series((2021, 2, 1), 3, 7013, *candidate))}


def envelope(code, status, message, detail_reason=None):
    error = {"code": code, "message": message, "status": status}
    if detail_reason:
        error["details"] = [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": detail_reason,
                             "domain": "googleapis.com"}]
    return {"error": error}


def reply(handler, method, status, body):
    schema = contract.reporting_response(method, status)
    return handler.send(status, json.dumps(body), contract=("reporting", schema))


def date_time(n):
    y, m, d = civil(n)
    return {"year": y, "month": m, "day": d, "timeZone": {"id": LA}}


def freshness(scenario, name):
    """The day (exclusive) a metric set's DAILY data end: anrstale's and anrlag's ANR set lags a day."""
    if scenario in ("anrstale", "anrlag") and name == "anrRateMetricSet":
        return civil(day_number(*FRESH) - 1)
    return FRESH


def metric_set(package, name, scenario):
    y, m, d = freshness(scenario, name)
    return {"name": f"apps/{package}/{name}", "freshnessInfo": {"freshnesses": [
        {"aggregationPeriod": "DAILY", "latestEndTime": {"year": y, "month": m, "day": d, "timeZone": {"id": LA}}},
        {"aggregationPeriod": "HOURLY", "latestEndTime": {"year": y, "month": m, "day": d, "hours": 7,
                                                          "timeZone": {"id": "UTC"}}}]}}


def day_of(spec):
    """The day number of a DateTime, or a problem text."""
    try:
        return day_number(spec["year"], spec["month"], spec["day"]), None
    except (KeyError, TypeError, ValueError) as error:
        return None, f"invalid date: {error}"


def query(handler, token, scenario, package, name, body):
    method = {"crashRateMetricSet": "vitals.crashrate.query", "anrRateMetricSet": "vitals.anrrate.query"}[name]
    s = stats(token)
    with LOCK:
        s["queries"][name] = s["queries"].get(name, 0) + 1
        s["bodies"].append(body)
    try:
        request = json.loads(body or "{}")
    except ValueError as error:
        return reply(handler, method, 400, envelope(400, "INVALID_ARGUMENT", f"Invalid JSON payload received. {error}"))
    problems = contract.violations("reporting", contract.reporting_request(method), request)
    if problems:
        handler.log_violations(token, [f"request {method}: {p}" for p in problems])
        return reply(handler, method, 400, envelope(400, "INVALID_ARGUMENT",
                                                    "Invalid JSON payload received. " + "; ".join(problems)))
    spec = request.get("timelineSpec", {})
    period = spec.get("aggregationPeriod", "AGGREGATION_PERIOD_UNSPECIFIED")
    if period not in ("DAILY", "HOURLY"):
        with LOCK:
            s["fullRange"] += 1
        return reply(handler, method, 400, envelope(
            400, "INVALID_ARGUMENT", f"Aggregation period {period} is not supported for metric set "
            f"apps/{package}/{name}; supported: DAILY, HOURLY."))
    if period != "DAILY":
        return reply(handler, method, 400, envelope(400, "INVALID_ARGUMENT", "This fake serves DAILY rows only."))
    start, end = spec.get("startTime", {}), spec.get("endTime", {})
    if start.get("timeZone", {}).get("id") != LA:
        with LOCK:
            s["noTimeZone"] += 1
        return reply(handler, method, 200, {})
    if end.get("timeZone", {}).get("id") != LA:
        return reply(handler, method, 400, envelope(400, "INVALID_ARGUMENT",
                                                    "end_time time zone must be equal to start_time time zone"))
    for part in ("hours", "minutes", "seconds", "nanos"):
        if part in start or part in end:
            return reply(handler, method, 400, envelope(
                400, "INVALID_ARGUMENT", f"DAILY aggregation must leave {part} unset in start_time and end_time"))
    first, problem = day_of(start)
    last, other = day_of(end)
    if problem or other:
        return reply(handler, method, 400, envelope(400, "INVALID_ARGUMENT", problem or other))
    fresh = day_number(*freshness(scenario, name))
    if last > fresh:
        with LOCK:
            s["pastFreshness"] += 1
        return reply(handler, method, 400, envelope(
            400, "INVALID_ARGUMENT", "end_date should be at most %04d-%02d-%02d" % freshness(scenario, name)))
    metrics = request.get("metrics", [])
    rate_name = "userPerceivedCrashRate" if name == "crashRateMetricSet" else "userPerceivedAnrRate"
    for metric in metrics:
        if metric not in (rate_name, "distinctUsers"):
            return reply(handler, method, 400, envelope(400, "INVALID_ARGUMENT", f"Unknown metric: {metric}"))
    if request.get("dimensions", []) not in ([], ["versionCode"]):
        return reply(handler, method, 400, envelope(400, "INVALID_ARGUMENT", "This fake serves versionCode only."))
    rows = []
    for code, (_, days) in sorted(data(scenario).items()):
        for n, users, crashed, anr in days:
            if not first <= n < last:
                continue
            events = crashed if name == "crashRateMetricSet" else anr
            rate = events / users
            values = {rate_name: repr(round(rate, 6) if scenario == "heldout" else rate),
                      "distinctUsers": str(rounded(users))}
            if scenario == "badrate" and code == 81 and rate_name == "userPerceivedCrashRate":
                values[rate_name] = "n/a"

            def row(values):
                made = {"aggregationPeriod": "DAILY", "startTime": date_time(n),
                        "metrics": [{"metric": m, "decimalValue": {"value": values[m]}} for m in metrics]}
                if request.get("dimensions"):
                    made["dimensions"] = [{"dimension": "versionCode", "int64Value": str(code),
                                           "valueLabel": str(code)}]
                return made
            rows.append(row(values))
            crash_row = name == "crashRateMetricSet" and code == 81
            if scenario == "duplicaterows" and crash_row:
                rows.append(row(values))
            if scenario == "conflictrows" and crash_row and n == day_number(2021, 2, 2):
                rows.append(row({**values, rate_name: "0.03"}))
    if scenario == "anrnone" and name == "anrRateMetricSet":
        rows = []
    size = min(int(request.get("pageSize") or 1000), 500)
    offset = int(request.get("pageToken") or 0)
    answer = {"rows": rows[offset:offset + size]} if rows else {}
    if offset + size < len(rows):
        answer["nextPageToken"] = str(offset + size)
    with LOCK:
        s["pages"] += 1
    return reply(handler, method, 200, answer)


def issues(handler, token, scenario, package, query_text):
    s = stats(token)
    with LOCK:
        s["issueSearches"] += 1
    asked = parse_qs(query_text)
    wanted = asked.get("filter", [""])[0].replace(" ", "")
    if not asked.get("interval.startTime.timeZone.id") or not asked.get("interval.endTime.timeZone.id"):
        return reply(handler, "vitals.errors.issues.search", 400, envelope(
            400, "INVALID_ARGUMENT", "interval time zones must be set"))
    found = []
    for code in data(scenario):
        if wanted != f"versionCode={code}":
            continue
        name = f"apps/{package}/errorIssues/{code}a"
        version = {"versionCode": str(code)}
        cause = "java.lang.IllegalStateException"
        if scenario == "hostileissue":
            cause = ("java.lang.IllegalStateException: **healthy** ![pixel](https://evil.example/p.png) "
                     "[details](https://evil.example/x) <img src=x>\n- Google Play: \x1b[2J\x1b[32mhealthy\x1b[0m")
        found = [
            {"name": name, "type": "CRASH", "cause": cause,
             "location": "com.example.health.Feed.load", "distinctUsers": "96", "errorReportCount": "311",
             "firstAppVersion": version, "lastAppVersion": version,
             "issueUri": f"https://play.google.com/console/developers/app/vitals/crashes/{code}a",
             "distinctUsersPercent": {"value": "0.0137"}},
            {"name": f"apps/{package}/errorIssues/{code}b", "type": "APPLICATION_NOT_RESPONDING",
             "cause": "Input dispatching timed out", "location": "com.example.health.Sync.run",
             "distinctUsers": "40", "errorReportCount": "52", "firstAppVersion": version,
             "lastAppVersion": version}]
    size = int(asked.get("pageSize", ["50"])[0])
    return reply(handler, "vitals.errors.issues.search", 200, {"errorIssues": found[:size]} if found else {})


def filter_options(handler, token, scenario):
    s = stats(token)
    with LOCK:
        s["filterOptions"] += 1
    releases = [{"displayName": name, "versionCodes": [str(code)]}
                for code, (name, _) in sorted(data(scenario).items()) if name]
    return reply(handler, "apps.fetchReleaseFilterOptions", 200, {"tracks": [
        {"displayName": "Production", "type": "production", "servingReleases": releases}]})


NOT_FOUND_PAGE = ("<!DOCTYPE html>\n<html lang=en>\n  <meta charset=utf-8>\n  <title>Error 404 (Not Found)!!1</title>\n"
                  "  <p><b>404.</b> <ins>That's an error.</ins>\n  <p>The requested URL <code>{}</code> was not found "
                  "on this server.  <ins>That's all we know.</ins>\n")


def handle(handler, method, token, scenario, parts, query_text, body):
    """parts: the path after /<token>/<scenario>/v1beta1/, decoded."""
    s = stats(token)
    now = time.monotonic()
    with LOCK:
        s["requests"] += 1
        count = s["requests"]
        s["paths"].append(method + " /" + "/".join(parts) + (("?" + query_text) if query_text else ""))
        s["times"] = [t for t in s["times"] if t > now - 1.0] + [now]
        burst = len(s["times"])
        if burst > 12:
            s["overRate"] += 1
    path = "/" + "/".join(parts)
    method_id = "apps.fetchReleaseFilterOptions"
    if len(parts) >= 3 and parts[2].startswith("crashRateMetricSet"):
        method_id = "vitals.crashrate.query" if parts[2].endswith(":query") else "vitals.crashrate.get"
    elif len(parts) >= 3 and parts[2].startswith("anrRateMetricSet"):
        method_id = "vitals.anrrate.query" if parts[2].endswith(":query") else "vitals.anrrate.get"
    elif len(parts) >= 3 and parts[2].startswith("errorIssues"):
        method_id = "vitals.errors.issues.search"

    def error(code, status, message, reason=None):
        return reply(handler, method_id, code, envelope(code, status, message, reason))

    auth = handler.headers.get("Authorization", "")
    if not (auth.startswith("Bearer ") and len(auth) > 7):
        return error(401, "UNAUTHENTICATED", "Request had invalid authentication credentials. Expected OAuth 2 "
                     "access token, login cookie or other valid authentication credential.")
    if burst > 12:
        return error(429, "RESOURCE_EXHAUSTED", "Quota exceeded for quota metric 'Queries' and limit 'Queries per "
                     "second' of service 'playdeveloperreporting.googleapis.com'.")
    if method == "POST" and len(parts) == 3 and parts[2] == "errorIssues:search":
        with LOCK:
            s["issuePosts"] += 1
        return handler.send(404, NOT_FOUND_PAGE.format("/v1beta1" + path), "text/html; charset=UTF-8",
                            contract="fault")
    if scenario == "403scope":
        return error(403, "PERMISSION_DENIED", "Request had insufficient authentication scopes.",
                     "ACCESS_TOKEN_SCOPE_INSUFFICIENT")
    if scenario == "403forged":
        return error(403, "PERMISSION_DENIED", FORGED_MESSAGE)
    if scenario == "403quality":
        return error(403, "PERMISSION_DENIED", "The caller does not have permission")
    if scenario == "429once" and count == 1:
        return error(429, "RESOURCE_EXHAUSTED", "Quota exceeded.")
    if scenario == "429once":
        scenario = "regressed"
    if len(parts) < 2 or parts[0] != "apps":
        return error(404, "NOT_FOUND", "Requested entity was not found.")
    package = parts[1].split(":", 1)[0]
    if package != PACKAGE:
        return error(404, "NOT_FOUND", "Requested entity was not found.")
    if len(parts) == 2 and parts[1].endswith(":fetchReleaseFilterOptions") and method == "GET":
        return filter_options(handler, token, scenario)
    if len(parts) == 3 and parts[2] in ("crashRateMetricSet", "anrRateMetricSet") and method == "GET":
        return reply(handler, method_id, 200, metric_set(package, parts[2], scenario))
    if len(parts) == 3 and parts[2] in ("crashRateMetricSet:query", "anrRateMetricSet:query") and method == "POST":
        return query(handler, token, scenario, package, parts[2].split(":")[0], body)
    if len(parts) == 3 and parts[2] == "errorIssues:search" and method == "GET":
        return issues(handler, token, scenario, package, query_text)
    return error(404, "NOT_FOUND", "Requested entity was not found.")

