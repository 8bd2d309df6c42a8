"""App Store Connect's Analytics Reports as asc_api.py serves them, and the report files behind
them, for `storerelease health --id`: read-only paths, Apple's JSON:API documents (checked against
app-store-connect-analytics.subset.json as sent), and the files as
../shared/reference/asc-analytics-crash-report.md describes them.

Paths are /<token>/<scenario>/v1/... (asc_api.py passes them on):

  GET .../v1/apps/<id>/analyticsReportRequests?filter[accessType]=ONGOING   the app's requests
  GET .../v1/analyticsReportRequests/<id>/reports?filter[name]=...          App Crashes, App Sessions Standard
  GET .../v1/analyticsReports/<id>/instances?filter[granularity]=DAILY      the daily instances, 10 a
                                                                            page with links.next
  GET .../v1/analyticsReportInstances/<id>/segments                        the instance's segments:
                                                                            url, checksum (MD5), sizeInBytes
  GET /<token>/<scenario>/segments/<instance>/<n>.csv.gz?X-Amz-Expires=300&expires=EPOCH
                                                                            the file: gzip of TAB-separated
                                                                            text with a header row

The files, as Apple's are: an instance processed on day P holds the rows of P-1 (a first count,
90% of the sessions and crashes) and of P-2 (the final count), so a client that adds instances up
counts days twice and one that keeps the oldest counts too little; the newest instance is split
into two segments, each with its header; sessions come finer than crashes (two territories, two
source types, two devices), crash rows per device; App Crashes has an unknown extra column; the
names end in .csv.gz though the content is tab-separated. A segment URL is valid for 300 s (the
`expires` query); past it, or with an Authorization header (a pre-signed URL takes none), the
storage answers 403 or 400 with its XML error.

The app is 414478124 (any other id: 404). Scenarios:

  analytics           healthy: 8.0.9 from 2021-01-20 (its first day 5 crashes in 200 sessions, the
                      spike every version has), then 20,000 sessions and 60 crashes a day; 8.0.10
                      from 2021-02-01 (3 days), 20,000 sessions and 58 crashes a day; 8.0.9's
                      2021-01-24 has sessions but no crash row (fewer than five users: missing, not zero)
  analyticsregressed  as analytics, 8.0.10 crashes 400 a day
  analyticsfirstday   as analytics, 8.0.10 only on 2021-02-03: 150 sessions, 3 crashes
  analyticsexpired    as analytics, but the first segment list of each instance has URLs that have expired
  analyticsmonthly    as analytics, but App Crashes has MONTHLY instances only
  analyticsnone       the app has no report request
  analyticsstopped    its only ONGOING request was stopped for inactivity
  analyticslarge      as analytics, but the newest App Sessions Standard instance has a third segment of
                      35 KB that inflates to 8.6 MiB: 100,000 rows of 8.0.10's 2021-02-03 with 0 sessions
                      (a file held whole costs hundreds of MiB; read row by row, none)
  analyticsoverflow   as analytics, but the newest App Sessions Standard instance counts 8.0.10's
                      2021-02-03 in three more rows of 999,999,999,999 sessions: the day's sum passes
                      any one day's users (HealthDay.maximumCount), and enough such rows would pass Int64
  analyticssegments   as analytics, but the newest App Sessions Standard instance lists 101 segments

Counters (in asc_api.py's ascstats): analytics (requests to these paths), segments (downloads),
expired (refused as expired), authorized (segment requests that carried Authorization), writes
(POST, PATCH and DELETE anywhere under /v1: a read-only client sends none).
"""
import datetime
import gzip
import hashlib
import json
import time
from urllib.parse import parse_qs, quote, urlparse

import contract

APP = "414478124"
SCENARIOS = {"analytics", "analyticsregressed", "analyticsfirstday", "analyticsexpired", "analyticsmonthly",
             "analyticsnone", "analyticsstopped", "analyticslarge", "analyticsoverflow", "analyticssegments"}
LARGE = {}
REPORTS = {"App Crashes": "crashes", "App Sessions Standard": "sessions"}
LISTED = {}


def day(text):
    return datetime.date.fromisoformat(text)


def truth(scenario):
    """{(date, version): (sessions, crashes or None)} as the final counts."""
    days = {}
    for i in range(10):
        d = day("2021-01-20") + datetime.timedelta(days=i)
        days[(d, "8.0.9")] = (200, 5) if i == 0 else (20000, None if d == day("2021-01-24") else 60)
    if scenario == "analyticsfirstday":
        days[(day("2021-02-03"), "8.0.10")] = (150, 3)
    else:
        crashes = 400 if scenario == "analyticsregressed" else 58
        for i in range(3):
            days[(day("2021-02-01") + datetime.timedelta(days=i), "8.0.10")] = (20000, crashes)
    return days


def processing_dates(scenario):
    dates = sorted({d for d, _ in truth(scenario)})
    return sorted({d + datetime.timedelta(days=1) for d in dates} | {d + datetime.timedelta(days=2) for d in dates})


def rows(scenario, kind, processed):
    """The TSV lines of the instance processed on `processed` for report kind."""
    header = {"crashes": ["Date", "App Name", "App Apple Identifier", "App Version", "Device", "Platform Version",
                          "Crashes", "Unique Devices", "Extra Column"],
              "sessions": ["Date", "App Name", "App Apple Identifier", "App Version", "Device", "Platform Version",
                           "Source Type", "Page Type", "App Download Date", "Territory", "Sessions",
                           "Total Session Duration", "Unique Devices"]}[kind]
    lines = []
    for (date, version), (sessions, crashes) in sorted(truth(scenario).items()):
        age = (processed - date).days
        if age not in (1, 2):
            continue
        share = 0.9 if age == 1 else 1.0
        if kind == "crashes":
            if crashes is None:
                continue
            total = round(crashes * share)
            for device, part in (("iPhone", total - total // 3), ("iPad", total // 3)):
                lines.append([date.isoformat(), "WeChat", APP, version, device, "iOS 14.4", str(part),
                              str(max(1, part // 2)), "x"])
        else:
            total = round(sessions * share)
            parts = [total // 8] * 7
            parts.append(total - sum(parts))
            combos = [(device, source, territory) for device in ("iPhone", "iPad")
                      for source in ("App Store search", "Web referrer") for territory in ("US", "CN")]
            for (device, source, territory), part in zip(combos, parts):
                lines.append([date.isoformat(), "WeChat", APP, version, device, "iOS 14.4", source, "Store sheet",
                              "", territory, str(part), str(part * 60), str(max(1, part // 3))])
    return header, lines


def reply(handler, template, status, body, rate):
    return handler.send(status, json.dumps(body), headers=list(rate),
                        contract=("ascanalytics", contract.asc_response(template, status, api="ascanalytics")))


def error(handler, template, status, code, title, detail, rate):
    body = {"errors": [{"id": "e1", "status": str(status), "code": code, "title": title, "detail": detail}]}
    return reply(handler, template, status, body, rate)


def instance_ids(scenario, kind):
    if kind == "crashes" and scenario == "analyticsmonthly":
        return []
    return [f"{kind}-{p.isoformat()}" for p in processing_dates(scenario)]


def handle(handler, stats, lock, token, scenario, rest, query, base, rate):
    """An analytics path (rest: after /v1/), or None when the path is not one."""
    if not (rest[:1] == ["analyticsReportRequests"] or rest[:1] == ["analyticsReports"]
            or rest[:1] == ["analyticsReportInstances"]
            or (len(rest) == 3 and rest[0] == "apps" and rest[2] == "analyticsReportRequests")):
        return None
    with lock:
        stats["analytics"] = stats.get("analytics", 0) + 1
    if len(rest) == 3 and rest[0] == "apps":
        template = "/v1/apps/{id}/analyticsReportRequests"
        if rest[1] != APP:
            return error(handler, template, 404, "NOT_FOUND", "The specified resource does not exist",
                         f"There is no resource of type 'apps' with id '{rest[1]}'", rate)
        data = []
        if scenario != "analyticsnone":
            attributes = {"accessType": "ONGOING", "stoppedDueToInactivity": scenario == "analyticsstopped"}
            data.append({"type": "analyticsReportRequests", "id": f"request-{APP}", "attributes": attributes,
                         "relationships": {"reports": {"links": {
                             "related": f"{base}/v1/analyticsReportRequests/request-{APP}/reports"}}},
                         "links": {"self": f"{base}/v1/analyticsReportRequests/request-{APP}"}})
        wanted = query.get("filter[accessType]", [None])[0]
        data = [d for d in data if wanted in (None, d["attributes"]["accessType"])]
        return reply(handler, template, 200, {"data": data, "links": {"self": base + "/v1/apps/" + APP +
                                                                       "/analyticsReportRequests"}}, rate)
    if len(rest) == 3 and rest[0] == "analyticsReportRequests" and rest[2] == "reports":
        template = "/v1/analyticsReportRequests/{id}/reports"
        if rest[1] != f"request-{APP}":
            return error(handler, template, 404, "NOT_FOUND", "The specified resource does not exist",
                         f"There is no resource of type 'analyticsReportRequests' with id '{rest[1]}'", rate)
        names = query.get("filter[name]", list(REPORTS))
        data = [{"type": "analyticsReports", "id": f"report-{REPORTS[n]}",
                 "attributes": {"name": n, "category": "APP_USAGE"},
                 "relationships": {"instances": {"links": {
                     "related": f"{base}/v1/analyticsReports/report-{REPORTS[n]}/instances"}}},
                 "links": {"self": f"{base}/v1/analyticsReports/report-{REPORTS[n]}"}}
                for n in names if n in REPORTS]
        return reply(handler, template, 200, {"data": data, "links": {"self": base + "/v1/" + "/".join(rest)}}, rate)
    if len(rest) == 3 and rest[0] == "analyticsReports" and rest[2] == "instances":
        template = "/v1/analyticsReports/{id}/instances"
        kind = rest[1][len("report-"):]
        if kind not in ("crashes", "sessions"):
            return error(handler, template, 404, "NOT_FOUND", "The specified resource does not exist",
                         f"There is no resource of type 'analyticsReports' with id '{rest[1]}'", rate)
        granularity = query.get("filter[granularity]", [None])[0]
        items = []
        if granularity in (None, "DAILY"):
            items += [(i, "DAILY", i.split("-", 1)[1]) for i in instance_ids(scenario, kind)]
        if kind == "crashes" and scenario == "analyticsmonthly" and granularity in (None, "MONTHLY"):
            items.append(("crashes-monthly-2021-01", "MONTHLY", "2021-02-05"))
        start = int(query.get("cursor", ["0"])[0])
        page = items[start:start + 10]
        data = [{"type": "analyticsReportInstances", "id": i,
                 "attributes": {"granularity": g, "processingDate": p},
                 "relationships": {"segments": {"links": {
                     "related": f"{base}/v1/analyticsReportInstances/{i}/segments"}}},
                 "links": {"self": f"{base}/v1/analyticsReportInstances/{i}"}} for i, g, p in page]
        document = {"data": data, "links": {"self": f"{base}/v1/analyticsReports/{rest[1]}/instances"},
                    "meta": {"paging": {"total": len(items), "limit": 10}}}
        if start + 10 < len(items):
            document["links"]["next"] = (f"{base}/v1/analyticsReports/{rest[1]}/instances?filter%5Bgranularity%5D="
                                         f"{granularity or 'DAILY'}&cursor={start + 10}")
        return reply(handler, template, 200, document, rate)
    if len(rest) == 3 and rest[0] == "analyticsReportInstances" and rest[2] == "segments":
        template = "/v1/analyticsReportInstances/{id}/segments"
        instance = rest[1]
        kind = instance.split("-", 1)[0]
        if kind not in ("crashes", "sessions") or instance not in instance_ids(scenario, kind):
            return error(handler, template, 404, "NOT_FOUND", "The specified resource does not exist",
                         f"There is no resource of type 'analyticsReportInstances' with id '{instance}'", rate)
        with lock:
            key = (token, instance)
            LISTED[key] = LISTED.get(key, 0) + 1
            first = LISTED[key] == 1
        expires = int(time.time()) + (-1 if scenario == "analyticsexpired" and first else 300)
        count = segment_count(scenario, instance)
        host = urlparse(base)
        prefix = f"{host.scheme}://{host.netloc}/{token}/{scenario}/segments"
        data = []
        for n in range(count):
            body = segment(scenario, instance, n, count)
            data.append({"type": "analyticsReportSegments", "id": f"{instance}-{n}",
                         "attributes": {"checksum": hashlib.md5(body).hexdigest(), "sizeInBytes": len(body),
                                        "url": f"{prefix}/{quote(instance)}/{n}.csv.gz?X-Amz-Expires=300"
                                               f"&X-Amz-Signature=fake{n}&expires={expires}"},
                         "links": {"self": f"{base}/v1/analyticsReportSegments/{instance}-{n}"}})
        return reply(handler, template, 200, {"data": data, "links": {"self": f"{base}/v1/" + "/".join(rest)}}, rate)
    return error(handler, "/v1/apps/{id}/analyticsReportRequests", 404, "NOT_FOUND",
                 "The specified resource does not exist", "No such path", rate)


def newest_sessions(scenario, instance):
    return instance == f"sessions-{processing_dates(scenario)[-1].isoformat()}"


def segment_count(scenario, instance):
    """The newest instance comes in two segments (analyticslarge's sessions in three, analyticssegments' in 101)."""
    if newest_sessions(scenario, instance) and scenario == "analyticslarge":
        return 3
    if newest_sessions(scenario, instance) and scenario == "analyticssegments":
        return 101
    return 2 if instance.endswith(processing_dates(scenario)[-1].isoformat()) else 1


def segment(scenario, instance, n, count):
    """The gzip bytes of segment n of count of an instance: its share of the rows, with the header."""
    kind, processed = instance.split("-", 1)
    header, lines = rows(scenario, kind, day(processed))
    if scenario == "analyticslarge" and newest_sessions(scenario, instance) and n == 2:
        return large_segment(header)
    share = lines[n::min(count, 2)] if n < 2 else []
    if scenario == "analyticsoverflow" and newest_sessions(scenario, instance) and n == 0:
        share = share + [["2021-02-03", "WeChat", APP, "8.0.10", "iPhone", "iOS 14.4", "Web referrer", "Store sheet",
                          "", "US", "999999999999", "0", "1"]] * 3
    text = "\t".join(header) + "\n" + "".join("\t".join(line) + "\n" for line in share)
    return gzip.compress(text.encode("utf-8"), mtime=0)


def large_segment(header):
    """8.6 MiB of rows that change no sum, gzip'd once."""
    if "body" not in LARGE:
        line = "\t".join(["2021-02-03", "WeChat", APP, "8.0.10", "iPhone", "iOS 14.4", "App Store search",
                          "Store sheet", "", "US", "0", "0", "0"]) + "\n"
        text = "\t".join(header) + "\n" + line * 100000
        LARGE["body"] = gzip.compress(text.encode("utf-8"), mtime=0)
    return LARGE["body"]


def download(handler, stats, lock, scenario, parts, query):
    """GET /<token>/<scenario>/segments/<instance>/<n>.csv.gz: the storage's answer."""
    with lock:
        stats["segments"] = stats.get("segments", 0) + 1
    if handler.headers.get("Authorization"):
        with lock:
            stats["authorized"] = stats.get("authorized", 0) + 1
        return storage_error(handler, 400, "InvalidArgument", "Only one auth mechanism allowed; only the "
                             "X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization "
                             "header should be specified")
    expires = int(query.get("expires", ["0"])[0])
    if time.time() > expires:
        with lock:
            stats["expired"] = stats.get("expired", 0) + 1
        return storage_error(handler, 403, "AccessDenied", "Request has expired")
    instance, name = parts[0], parts[1]
    n = int(name.split(".", 1)[0])
    kind = instance.split("-", 1)[0]
    count = segment_count(scenario, instance)
    if kind not in ("crashes", "sessions") or n >= count:
        return storage_error(handler, 404, "NoSuchKey", "The specified key does not exist.")
    return handler.send(200, segment(scenario, instance, n, count), "application/octet-stream")


def storage_error(handler, status, code, message):
    body = (f'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>{code}</Code><Message>{message}</Message>'
            "<RequestId>FAKE</RequestId></Error>")
    return handler.send(status, body, "application/xml")

