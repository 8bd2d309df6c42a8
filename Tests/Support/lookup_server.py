#!/usr/bin/env python3
"""A real HTTP server on 127.0.0.1 that plays the iTunes lookup API, and its faults, for tests.

    python3 lookup_server.py FIXTURES_DIR

FIXTURES_DIR holds appstore/ (lookup results), play-api/ (apps of the Play Developer API,
which play_api.py serves under /<token>/<scenario>/androidpublisher/...) and asc/ (the App Store
Connect API, which asc_api.py serves under /<token>/<scenario>/v1/...); see their headers.

Prints the port it listens on as the first line of stdout, then serves until its parent
process exits. Paths are /<token>/<scenario>/lookup?<query>: the token keeps each test's
counters apart, the scenario picks the behaviour:

  ok            the fixtures: ids and bundleId matched against every *.json in FIXTURES_DIR;
                an app whose fixture's storefront (file name suffix, -cn) differs from
                country= (default us) is not found, as the real API does
  503once       503 on the first request of the token, then ok
  503always     503 every time
  429once       429 with Retry-After: 1 on the first request, then ok
  429long       429 with Retry-After: 3600 every time
  html          200 with a captive-portal HTML page
  truncated     200 with Content-Length 1000 and 100 bytes, then the connection closes
  huge          200 with an 8 MiB JSON body
  hang          accepts and never answers (until the client gives up)
  trickle       200 with the headers at once, then the 30 bytes of an empty result one a second
                (a client without a total deadline waits 30 s; the fake stops when it leaves)
  empty         200 with {"resultCount": 0, "results": []}
  wrongbundle   the fixture for the asked bundleId, answered with another bundleId
  badversion    the fixture with version "1.4 (18)"
  miscount      the fixtures with a resultCount that disagrees with results
  404           404
  403once       403 with an empty body (how the lookup API throttles) on the token's first
                request, then ok
  403always     403 with an empty body every time
  rollout       any id or bundleId in any storefront, the WeChat payload with version 8.0.2
                until the token's storefront has been asked 2 times (us) or 4 times (any other
                country), version 9.0 from then on: a release reaching storefronts one by one

  badrequest    400 with the lookup API's own error body ({"errorMessage": …}, as fastlane keeps it)
  escapes       400 with the lookup API's error body whose errorMessage carries terminal escapes (clear
                the screen, a green "applied and verified"): what a hostile or broken server may send
  sweep         a release sweep: the WeChat payload for any id or bundle id in cn, de, fr, us and
                kr (8.0.10) and in jp and gb (8.0.2, lagging), nothing elsewhere; a lookup of many
                ids answers a result for each (its trackId the id) that the storefront has, as the
                real API does, except that ids 100 to 199 are only in us; each token may
                send 600 lookups a minute (Apple's 20, scaled by 30), past that a bare 403 as
                Apple throttles (counted as throttled in the token's stats)
  sold40        an app sold in 40 storefronts, all at one release: the WeChat payload with
                version 8.0.2 (its trackId the id asked) in the 40 storefronts asc_api.py's
                worlds.json sells app 1000000040 in (SOLD40 below), nothing elsewhere; throttled
                as sweep is

Every API (lookup, Play, App Store Connect) also takes two redirect scenarios in place of the
scenario segment:

  redirect      302 to the same path on a second server at 127.0.0.2 (another origin), which
                counts what reaches it; the client must not follow it
  redirectsame  302 to the same path with scenario ok on this server (a relative Location: the
                same origin); the client must follow it keeping the method and the body

Every API also plays the scripted timelines of Tests/Fixtures/timeline (timeline.py): the scenario
timeline-<name> answers round by round what the timeline's steps say.

A webhook receiver, for watch tests: POST /<token>/<scenario>/hook records the body (JSON) and
answers by the scenario:

  ok            200 "ok", as Slack's incoming webhooks answer
  failonce      the token's first delivery is 500, every later one 200
  failalways    503 every time
  slow          records the body, then waits 10 s before answering 200 (a test kills the client
                in the meantime)
  trickle       records the body, then answers 200 with the headers at once and a 30-byte body
                one byte a second (stopping when the client leaves)
  held          records the body, then holds the answer until GET /<token>/release (at most 60 s),
                then 200 "ok" (a test signals the client while its delivery is held)
  hugeok        200 with a 1 MiB body: a delivery, whatever the body
  cutok         200 promising 1,000 bytes, sending "ok" and closing: a delivery, whatever the body

GET /<token>/release lets the token's held deliveries (and its next ones) answer.
GET /<token>/hooks returns {"deliveries": [{"status": N, "body": …, "scenario": …}, …]} in the order
received.

GET /<token>/elsewhere returns what the second server received for the token: requests and
authorization (requests that carried an Authorization header).
GET /<token>/contract returns the contract checks of the JSON bodies served for the token:
checked, faults (bodies a scenario sends outside the contract on purpose), violations, and
unchecked (developer-API answers sent without a contract: a bug in the fake).
GET /<token>/ascstats returns the App Store Connect API's counters for the token (asc_api.py).
GET /<token>/playstats returns the Play Developer API's counters for the token (play_api.py), and
GET /<token>/playstate the apps as the token's writes left them.
GET /<token>/reportingstats returns the Play Developer Reporting API's counters (play_reporting.py),
which is served under /<token>/<scenario>/v1beta1/....
GET /<token>/stats returns {"requests": N, "ids": [[...], ...], "throttled": N} for the token.
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlparse

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import asc_api  # noqa: E402
import contract as api_contract  # noqa: E402
import play_api  # noqa: E402
import play_reporting  # noqa: E402
import timeline  # noqa: E402

FIXTURES = {}
# The storefronts of scenario sold40: where Tests/Fixtures/asc/worlds.json sells app 1000000040.
SOLD40 = ("us cn jp gb de fr kr ca au br in it es mx nl se ch sg hk tw ru tr id th vn my ph sa ae il "
          "pl at be dk fi no ie nz za ar").split()
COUNTS = {}
IDS = {}
LOCK = threading.Lock()
CONTRACT = {}
ELSEWHERE = {}
WINDOWS = {}
SECOND = {"port": 0}
HOOKS = {}
RELEASES = {}


def release_event(token):
    """The event a token's `held` deliveries wait for (GET /<token>/release sets it)."""
    with LOCK:
        return RELEASES.setdefault(token, threading.Event())


def contract_log(token):
    """The token's contract checks (call with LOCK held)."""
    return CONTRACT.setdefault(token, {"checked": 0, "faults": 0, "violations": [], "unchecked": []})


def load(folder):
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                result = json.load(f)["results"][0]
            country = name[:-5].rsplit("-", 1)[-1]
            FIXTURES[name] = (country, result)


def find(query):
    country = query.get("country", ["us"])[0].lower()
    results = []
    if "id" in query:
        for wanted in query["id"][0].split(","):
            for fixture_country, result in FIXTURES.values():
                if str(result["trackId"]) == wanted and fixture_country == country:
                    results.append(result)
    elif "bundleId" in query:
        for fixture_country, result in FIXTURES.values():
            if result["bundleId"].lower() == query["bundleId"][0].lower() and fixture_country == country:
                results.append(result)
    return results


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body, content_type="application/json; charset=UTF-8", headers=(), contract=None):
        """Sends a body; `contract` is ("play" | "asc", schema) to check it against, or "fault"."""
        data = body if isinstance(body, bytes) else body.encode("utf-8")
        parts = urlparse(self.path).path.strip("/").split("/")
        if contract is None and len(parts) >= 3 and parts[2] in ("androidpublisher", "v1", "v2", "v1beta1") and status != 302:
            with LOCK:
                contract_log(parts[0])["unchecked"].append(f"{self.command} {urlparse(self.path).path} {status}")
        if contract is not None:
            token = parts[0]
            problems = [] if contract == "fault" else api_contract.check(contract[0], contract[1], data)
            with LOCK:
                log = contract_log(token)
                log["faults" if contract == "fault" else "checked"] += 1
                log["violations"] += [f"{self.command} {urlparse(self.path).path} {status}: {p}" for p in problems]
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def log_violations(self, token, lines):
        """Adds contract violations found in what a client sent (a request body)."""
        with LOCK:
            contract_log(token)["violations"] += lines

    def trickle(self, data, content_type):
        """200 with the headers at once, then `data` a byte a second; ends early when the client leaves."""
        try:
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.flush()
            for byte in data:
                time.sleep(1)
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def redirected(self):
        """Answers the redirect scenarios (see the header); True when it did."""
        url = urlparse(self.path)
        parts = url.path.strip("/").split("/")
        if len(parts) < 3 or parts[1] not in ("redirect", "redirectsame"):
            return False
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        rest = "/" + "/".join([parts[0], "ok"] + parts[2:]) + (("?" + url.query) if url.query else "")
        if parts[1] == "redirect":
            location = "http://127.0.0.2:%d%s" % (SECOND["port"], rest)
        else:
            location = rest
        self.send(302, "", "text/plain", [("Location", location)])
        return True

    def play(self, method):
        if self.redirected():
            return True
        url = urlparse(self.path)
        parts = [unquote(p) for p in url.path.strip("/").split("/")]
        if len(parts) >= 5 and parts[2:5] == ["androidpublisher", "v3", "applications"]:
            length = min(int(self.headers.get("Content-Length") or 0), 1 << 20)
            body = self.rfile.read(length) if length else b""
            play_api.handle(self, method, parts[0], parts[1], parts[5:], body)
            return True
        if len(parts) >= 3 and parts[2] == "v1beta1":
            length = min(int(self.headers.get("Content-Length") or 0), 1 << 20)
            body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
            play_reporting.handle(self, method, parts[0], parts[1], parts[3:], url.query, body)
            return True
        return False

    def connect(self, method):
        """App Store Connect's writes (PATCH; POST and DELETE, counted and refused): True when the
        path is the API's."""
        url = urlparse(self.path)
        parts = url.path.strip("/").split("/")
        if len(parts) < 3 or parts[2] not in ("v1", "v2"):
            return False
        length = min(int(self.headers.get("Content-Length") or 0), 1 << 20)
        body = self.rfile.read(length) if length else b""
        base = "http://%s:%d/%s/%s" % (self.server.server_address[0], self.server.server_address[1], parts[0], parts[1])
        asc_api.handle(self, parts[0], parts[1], [unquote(p) for p in parts[3:]], parse_qs(url.query), base,
                       parts[2], method=method, body=body)
        return True

    def hook(self):
        """The webhook receiver (see the header); True when the path is a hook's."""
        parts = urlparse(self.path).path.strip("/").split("/")
        if len(parts) != 3 or parts[2] != "hook":
            return False
        token, scenario = parts[0], parts[1]
        length = min(int(self.headers.get("Content-Length") or 0), 1 << 20)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw.decode("utf-8"))
        except ValueError:
            body = {"notJSON": raw.decode("utf-8", "replace")}
        with LOCK:
            deliveries = HOOKS.setdefault(token, [])
            status = {"failonce": 500 if not deliveries else 200, "failalways": 503}.get(scenario, 200)
            deliveries.append({"status": status, "body": body, "scenario": scenario})
        if scenario == "slow":
            time.sleep(10)
        if scenario == "held":
            release_event(token).wait(60)
        if scenario == "trickle":
            self.trickle(b"ok" + b" " * 28, "text/plain")
            return True
        if scenario == "cutok":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b"ok")
            self.wfile.flush()
            self.close_connection = True
            return True
        answer = "ok" + " " * ((1 << 20) - 2) if scenario == "hugeok" else "ok" if status == 200 else "error"
        try:
            self.send(status, answer, "text/html")
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client left mid-answer, as a test does on purpose
        return True

    def do_POST(self):
        if self.redirected() or self.hook():
            return
        if not self.play("POST") and not self.connect("POST"):
            self.send(404, "not found", "text/plain")

    def do_DELETE(self):
        if not self.play("DELETE") and not self.connect("DELETE"):
            self.send(404, "not found", "text/plain")

    def do_PUT(self):
        if not self.redirected() and not self.play("PUT"):
            self.send(404, "not found", "text/plain")

    def do_PATCH(self):
        if not self.redirected() and not self.play("PATCH") and not self.connect("PATCH"):
            self.send(404, "not found", "text/plain")

    def answer(self, results, resultCount=None):
        body = {"resultCount": len(results) if resultCount is None else resultCount, "results": results}
        self.send(200, json.dumps(body, ensure_ascii=False))

    def do_GET(self):
        if self.play("GET"):
            return
        url = urlparse(self.path)
        parts = url.path.strip("/").split("/")
        if len(parts) == 2 and parts[1] == "elsewhere":
            with LOCK:
                seen = dict(ELSEWHERE.get(parts[0], {"requests": 0, "authorization": 0}))
            return self.send(200, json.dumps(seen))
        if len(parts) == 2 and parts[1] == "release":
            release_event(parts[0]).set()
            return self.send(200, "released", "text/plain")
        if len(parts) == 2 and parts[1] == "hooks":
            with LOCK:
                deliveries = list(HOOKS.get(parts[0], []))
            return self.send(200, json.dumps({"deliveries": deliveries}))
        if len(parts) == 2 and parts[1] == "contract":
            with LOCK:
                log = dict(contract_log(parts[0]))
            return self.send(200, json.dumps(log))
        if len(parts) == 5 and parts[2] == "segments":
            return asc_api.asc_analytics.download(self, asc_api.stats(parts[0]), asc_api.LOCK, parts[1],
                                                  [unquote(p) for p in parts[3:]], parse_qs(url.query))
        if len(parts) >= 3 and parts[2] in ("v1", "v2"):
            query = parse_qs(url.query)
            base = "http://%s:%d/%s/%s" % (self.server.server_address[0], self.server.server_address[1], parts[0], parts[1])
            return asc_api.handle(self, parts[0], parts[1], [unquote(p) for p in parts[3:]], query, base, parts[2])
        if len(parts) == 2 and parts[1] == "ascstats":
            return self.send(200, json.dumps(asc_api.snapshot(parts[0])))
        if len(parts) == 2 and parts[1] == "reportingstats":
            return self.send(200, json.dumps(play_reporting.snapshot(parts[0])))
        if len(parts) == 2 and parts[1] == "playstats":
            return self.send(200, json.dumps(play_api.snapshot(parts[0])))
        if len(parts) == 2 and parts[1] == "playstate":
            return self.send(200, json.dumps(play_api.state_snapshot(parts[0])))
        if len(parts) == 2 and parts[1] == "stats":
            with LOCK:
                stats = {"requests": COUNTS.get(parts[0], 0), "ids": IDS.get(parts[0], []),
                         "throttled": COUNTS.get(parts[0] + "/throttled", 0)}
            return self.send(200, json.dumps(stats))
        if len(parts) != 3 or parts[2] != "lookup":
            return self.send(404, "not found", "text/plain")
        token, scenario = parts[0], parts[1]
        query = parse_qs(url.query)
        with LOCK:
            COUNTS[token] = COUNTS.get(token, 0) + 1
            count = COUNTS[token]
            if "id" in query:
                IDS.setdefault(token, []).append(query["id"][0].split(","))
        if scenario == "ok":
            return self.answer(find(query))
        played = timeline.named(scenario)
        if played is not None:
            country = query.get("country", ["us"])[0].lower()
            version = timeline.lookup_version(played, timeline.advance(token, "lookup/" + country), country)
            app = played["app"]
            asked = query.get("id", [""])[0].split(",") + [query.get("bundleId", [""])[0].lower()]
            if version is None or not (str(app["trackId"]) in asked or app["bundleId"].lower() in asked):
                return self.answer([])
            base = FIXTURES["wechat-cn.json"][1]
            return self.answer([dict(base, version=version, trackId=app["trackId"], bundleId=app["bundleId"],
                                     trackViewUrl=base["trackViewUrl"].replace("/cn/", f"/{country}/"))])
        if scenario == "503once" and count == 1 or scenario == "503always":
            return self.send(503, "<html>Service Unavailable</html>", "text/html")
        if scenario == "503once":
            return self.answer(find(query))
        if scenario == "429once":
            if count == 1:
                return self.send(429, "", "text/plain", [("Retry-After", "1")])
            return self.answer(find(query))
        if scenario == "429long":
            return self.send(429, "", "text/plain", [("Retry-After", "3600")])
        if scenario == "html":
            return self.send(200, "<!DOCTYPE html><html><head><title>Wi-Fi login</title></head></html>", "text/html")
        if scenario == "truncated":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b'{"resultCount":1,"results":[' + b" " * 72)
            self.wfile.flush()
            self.close_connection = True
            return
        if scenario == "huge":
            filler = {"resultCount": 1, "results": [], "padding": "x" * (8 << 20)}
            return self.send(200, json.dumps(filler))
        if scenario == "hang":
            time.sleep(30)
            self.close_connection = True
            return
        if scenario == "trickle":
            return self.trickle(b'{"resultCount":0,"results":[]}', "application/json")
        if scenario == "empty":
            return self.answer([])
        if scenario == "wrongbundle":
            results = [dict(r, bundleId="com.example.other") for r in find(query)]
            return self.answer(results)
        if scenario == "badversion":
            return self.answer([dict(r, version="1.4 (18)") for r in find(query)])
        if scenario == "miscount":
            return self.answer(find(query), resultCount=7)
        if scenario == "rollout":
            country = query.get("country", ["us"])[0].lower()
            with LOCK:
                key = token + "/" + country
                COUNTS[key] = COUNTS.get(key, 0) + 1
                asked = COUNTS[key]
            base = FIXTURES["wechat-cn.json"][1]
            live = asked >= (2 if country == "us" else 4)
            result = dict(base, version="9.0" if live else "8.0.2")
            if "id" in query:
                result["trackId"] = int(query["id"][0].split(",")[0])
            if "bundleId" in query:
                result["bundleId"] = query["bundleId"][0]
            return self.answer([result])
        if scenario == "403once" and count == 1 or scenario == "403always":
            return self.send(403, "", "text/plain")
        if scenario == "403once":
            return self.answer(find(query))
        if scenario in ("sweep", "sold40"):
            now = time.monotonic()
            with LOCK:
                window = [t for t in WINDOWS.get(token, []) if now - t < 60]
                over = len(window) >= 600
                if not over:
                    window.append(now)
                WINDOWS[token] = window
                if over:
                    COUNTS[token + "/throttled"] = COUNTS.get(token + "/throttled", 0) + 1
            if over:
                return self.send(403, "", "text/plain")
            country = query.get("country", ["us"])[0].lower()
            versions = {"cn": "8.0.10", "de": "8.0.10", "fr": "8.0.10", "us": "8.0.10", "kr": "8.0.10",
                        "jp": "8.0.2", "gb": "8.0.2"}
            if scenario == "sold40":
                versions = {code: "8.0.2" for code in SOLD40}
            if country not in versions:
                return self.answer([])
            base = FIXTURES["wechat-cn.json"][1]
            result = dict(base, version=versions[country],
                          trackViewUrl=base["trackViewUrl"].replace("/cn/", f"/{country}/"))
            if "id" not in query:
                return self.answer([result])
            # As the real API answers many ids: a result for each id the storefront has, each once.
            results, seen = [], set()
            for wanted in query["id"][0].split(","):
                if not wanted.isdigit() or wanted in seen or (100 <= int(wanted) <= 199 and country != "us"):
                    continue
                seen.add(wanted)
                results.append(dict(result, trackId=int(wanted),
                                    trackViewUrl=result["trackViewUrl"].replace("id414478124", f"id{wanted}")))
            return self.answer(results)
        if scenario == "404":
            return self.send(404, "<html>Not Found</html>", "text/html")
        if scenario == "escapes":
            message = "\u001b[2J\u001b[H\u001b[32mwatch: applied and verified\u001b[0m\u009b31m"
            return self.send(400, json.dumps({"errorMessage": message}), "text/javascript; charset=utf-8")
        if scenario == "badrequest":
            with open(os.path.join(os.path.dirname(FIXTURES_DIR[0]), "real", "appstore",
                                   "fastlane-itunesLookup-invalid.json"), encoding="utf-8") as f:
                return self.send(400, f.read(), "text/javascript; charset=utf-8")
        return self.send(400, f"unknown scenario {scenario}", "text/plain")


class Elsewhere(BaseHTTPRequestHandler):
    """The second origin: counts what reaches it and answers nothing useful."""
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self):
        token = urlparse(self.path).path.strip("/").split("/")[0]
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        with LOCK:
            seen = ELSEWHERE.setdefault(token, {"requests": 0, "authorization": 0})
            seen["requests"] += 1
            if self.headers.get("Authorization"):
                seen["authorization"] += 1
        data = b"not here"
        self.send_response(404)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_DELETE = record


def watch_parent():
    parent = os.getppid()
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(0)


FIXTURES_DIR = [""]


class Server(ThreadingHTTPServer):
    """One thread a connection, and a listen backlog the whole parallel suite fits in.

    socketserver's default backlog is 5. The suite's tests share this one server and
    connect all at once; past the backlog the kernel drops or resets connections
    before a request is read (a CI run saw "Connection reset by peer" with nothing
    counted).
    """

    daemon_threads = True
    request_queue_size = 1024


def start_second(port):
    """The second origin on 127.0.0.2, on the same port number when it is free there."""
    for wanted in (port, 0):
        try:
            second = Server(("127.0.0.2", wanted), Elsewhere)
        except OSError:
            continue
        SECOND["port"] = second.server_address[1]
        threading.Thread(target=second.serve_forever, daemon=True).start()
        return


def main():
    FIXTURES_DIR[0] = os.path.join(sys.argv[1], "appstore")
    load(os.path.join(sys.argv[1], "appstore"))
    play_api.load(os.path.join(sys.argv[1], "play-api"))
    asc_api.load(os.path.join(sys.argv[1], "asc"))
    timeline.load(os.path.join(sys.argv[1], "timeline"))
    server = Server(("127.0.0.1", 0), Handler)
    start_second(server.server_address[1])
    threading.Thread(target=watch_parent, daemon=True).start()
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
