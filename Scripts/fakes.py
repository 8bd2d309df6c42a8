#!/usr/bin/env python3
"""The bundled fakes, started for a person: run the examples of `storerelease --help` offline.

    python3 Scripts/fakes.py [--port N]
    python3 Scripts/fakes.py --help     this text, then every scenario each fake plays

Starts the tests' loopback server (Tests/Support/lookup_server.py: the iTunes lookup API, with
play_api.py's Play Developer API, play_reporting.py's Play Developer Reporting API and asc_api.py's
App Store Connect API, its Analytics Reports from asc_analytics.py, on the same port) on
127.0.0.1 with the fixtures of Tests/Fixtures, prints the flags that point storerelease at it and
the test credentials the fakes accept, and serves until Ctrl-C (or until the process that started
it exits). --port N listens on port N instead of a free one. Docs/Examples/README.md says which
flags each command takes.

The printed flags, one a line, are what tests read (HelpExamplesTests):

    --base-url http://127.0.0.1:PORT/offline/ok          the lookup API (its fixtures)
    --play-base-url http://127.0.0.1:PORT/offline/ok     the Play Developer API
    --play-reporting-base-url http://127.0.0.1:PORT/offline/regressed
                                                         the Play Developer Reporting API (health:
                                                         com.example.health, 8.0.10 regressed)
    --asc-base-url http://127.0.0.1:PORT/offline/complete  App Store Connect (a released app)
    --notify http://127.0.0.1:PORT/offline/ok/hook       a webhook receiver that answers 200
    --asc-token-file PATH                                a token App Store Connect's fake accepts
    --play-token-file PATH                               a token Play's fake accepts
    --asc-key-file PATH --asc-key-id KID --asc-issuer-id ISSUER
                                                         a throwaway ES256 key (only with openssl)

The token and key files are written to a temporary folder, removed when the fakes stop. None of
them is a secret: the fakes accept any well-formed token.

Every fake plays scenarios: the path segment after the token (/offline/<scenario>/...) picks
what it answers (the printed flags use ok, complete and regressed). --help lists them all, fake by
fake, as each fake's header documents them; put a scenario in place of the one a printed flag
names, e.g. --base-url http://127.0.0.1:PORT/offline/rollout for a release reaching storefronts
one by one, --asc-base-url http://127.0.0.1:PORT/offline/phased for a phased release under way.
"""
import ast
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Support"))
import lookup_server  # noqa: E402
TOKEN = "offline"


def usage(message):
    print(f"fakes.py: {message}\nusage: python3 Scripts/fakes.py [--port N | --help]", file=sys.stderr)
    sys.exit(2)


# Each fake, and the header (its docstring) that documents its routes and scenarios.
FAKES = [
    ("The iTunes lookup API, and the webhook receiver", "lookup_server.py"),
    ("The Google Play Developer API", "play_api.py"),
    ("The Google Play Developer Reporting API", "play_reporting.py"),
    ("The App Store Connect API", "asc_api.py"),
    ("App Store Connect's Analytics Reports", "asc_analytics.py"),
    ("Scripted timelines, on every API", "timeline.py"),
]


def print_help():
    """This script's header, then each fake's, and the scripted timelines bundled."""
    print(__doc__.strip())
    for title, name in FAKES:
        path = os.path.join(ROOT, "Tests", "Support", name)
        with open(path, encoding="utf-8") as f:
            header = ast.get_docstring(ast.parse(f.read())) or ""
        print(f"\n\n== {title} (Tests/Support/{name}) ==\n")
        print(header.strip())
    timelines = sorted(name[:-5] for name in os.listdir(os.path.join(ROOT, "Tests", "Fixtures", "timeline"))
                       if name.endswith(".json"))
    print("\n\n== The bundled timelines (Tests/Fixtures/timeline) ==\n")
    print("Scenario timeline-<name> on every API, one of: " + ", ".join(timelines))


def port_argument(arguments):
    if arguments in (["--help"], ["-h"]):
        try:
            print_help()
            sys.stdout.flush()
        except BrokenPipeError:  # `| head`: the reader had enough
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    if not arguments:
        return 0
    if len(arguments) != 2 or arguments[0] != "--port":
        usage(f"unexpected arguments {' '.join(arguments)!r}")
    if not arguments[1].isdigit() or not 0 < int(arguments[1]) < 65536:
        usage(f"--port {arguments[1]!r} is not a port number (1-65535)")
    return int(arguments[1])


def write_credentials(folder):
    """The test credentials: flag -> value, in the order printed."""
    files = {}
    play = os.path.join(folder, "play-token.txt")
    with open(play, "w", encoding="utf-8") as f:
        f.write("offline-play-token\n")
    files["--play-token-file"] = play
    files["--asc-token-file"] = os.path.join(ROOT, "Tests", "Fixtures", "asc", "token.txt")
    if shutil.which("openssl"):
        key = os.path.join(folder, "AuthKey_OFFLINE.p8")
        made = subprocess.run(
            ["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        if made.returncode == 0:
            files["--asc-key-file"] = f"{key} --asc-key-id OFFLINE --asc-issuer-id offline-issuer"
    return files


def watch_parent(folder):
    """Ends the fakes when the process that started them is gone (a test killed, a terminal closed)."""
    parent = os.getppid()
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            shutil.rmtree(folder, ignore_errors=True)
            os._exit(0)


def stop(*_):
    """Stops serving: the folder of test credentials is removed on the way out."""
    raise KeyboardInterrupt


def main():
    port = port_argument(sys.argv[1:])
    fixtures = os.path.join(ROOT, "Tests", "Fixtures")
    lookup_server.FIXTURES_DIR[0] = os.path.join(fixtures, "appstore")
    lookup_server.load(os.path.join(fixtures, "appstore"))
    lookup_server.play_api.load(os.path.join(fixtures, "play-api"))
    lookup_server.asc_api.load(os.path.join(fixtures, "asc"))
    lookup_server.timeline.load(os.path.join(fixtures, "timeline"))
    try:
        server = lookup_server.Server(("127.0.0.1", port), lookup_server.Handler)
    except OSError as error:
        print(f"fakes.py: cannot listen on 127.0.0.1:{port}: {error.strerror}", file=sys.stderr)
        sys.exit(1)
    lookup_server.start_second(server.server_address[1])
    folder = tempfile.mkdtemp(prefix="storerelease-fakes-")
    threading.Thread(target=watch_parent, args=(folder,), daemon=True).start()
    # Ctrl-C and SIGTERM stop the fakes even when the starting process ignored or blocked them.
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}/{TOKEN}"
        print(f"The bundled fakes serve on 127.0.0.1:{server.server_address[1]}; Ctrl-C stops them.")
        print("Add these flags to an example of storerelease <command> --help:")
        print(f"  --base-url {base}/ok")
        print(f"  --play-base-url {base}/ok")
        print(f"  --play-reporting-base-url {base}/regressed")
        print(f"  --asc-base-url {base}/complete")
        print(f"  --notify {base}/ok/hook")
        print("Test credentials the fakes accept (no secrets):")
        for flag, value in write_credentials(folder).items():
            print(f"  {flag} {value}")
        print("For example, from the package's folder:")
        print(f"  storerelease lookup --base-url {base}/ok --id 414478124 --countries cn")
        print(f"  storerelease tracks --play-base-url {base}/ok --play-token-file {folder}/play-token.txt "
              "--package com.example.rollout")
        print("Docs/Examples/README.md says which flag each command takes.", flush=True)
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        print("fakes.py: stopped", file=sys.stderr)


if __name__ == "__main__":
    main()
