#!/usr/bin/env python3
"""Writes Docs/Watch/timeline-history.jsonl: a made-up but realistic 8.0.10 release, watched
hourly (`watch --interval 3600 --history FILE`) from Mon 8 Feb 2021 08:00 UTC for five days.
Play 5% -> 20%, halted on Tuesday, resumed, 50%; the phased release paused on day 4; the
storefronts catching up with 8.0.10 over Tuesday; health read every six hours once live.
The releases before it are the bundled payloads' (Docs/Examples/payloads): Play's 80 (8.0.2), the
App Store's 8.0.9 (BundledPayloadsTests checks a versionCode names one version everywhere)."""
import datetime, json, os, sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from history_rates import wilson  # noqa: E402

start = datetime.datetime(2021, 2, 8, 8, tzinfo=datetime.timezone.utc)
countries = ["us", "gb", "de", "fr", "jp", "ca", "au", "br", "in", "it",
             "es", "mx", "nl", "se", "ch", "sg", "kr", "hk", "tw", "cn"]
app = {"appStoreID": "414478124", "bundleID": "com.tencent.xin", "packageName": "com.tencent.mm"}

def at(day, hour):
    return start + datetime.timedelta(days=day, hours=hour - 8)

lines = []
for i in range(0, 5 * 24 + 1):
    t = start + datetime.timedelta(hours=i)
    play = [{"status": "completed", "userFraction": None, "version": "8.0.2", "versionCode": 80}]
    if t >= at(0, 10):
        if t < at(1, 2): r81 = ("inProgress", 0.05)
        elif t < at(1, 14): r81 = ("inProgress", 0.2)
        elif t < at(2, 10): r81 = ("halted", 0.2)
        elif t < at(3, 6): r81 = ("inProgress", 0.2)
        else: r81 = ("inProgress", 0.5)
        play.insert(0, {"status": r81[0], "userFraction": r81[1], "version": "8.0.10", "versionCode": 81})
    live_old = {"phasedRelease": None, "state": "READY_FOR_DISTRIBUTION", "version": "8.0.9"}
    if t < at(0, 20): connect = [live_old, {"phasedRelease": None, "state": "IN_REVIEW", "version": "8.0.10"}]
    elif t < at(1, 8): connect = [live_old, {"phasedRelease": None, "state": "PENDING_DEVELOPER_RELEASE", "version": "8.0.10"}]
    else:
        days = (t - at(1, 8)).total_seconds() / 86400
        day = int(days) + 1
        state = "ACTIVE"
        if at(4, 14) <= t < at(5, 2): state, day = "PAUSED", 4
        elif t >= at(5, 2): day = 4 if t < at(5, 8) else 5
        percent = [1, 2, 5, 10, 20, 50, 100][day - 1]
        connect = [{"phasedRelease": {"day": day, "percent": percent, "state": state},
                    "state": "READY_FOR_DISTRIBUTION", "version": "8.0.10"}]
    caught = 0
    if t >= at(1, 9):
        caught = min(len(countries) - 1, 2 * int((t - at(1, 9)).total_seconds() // 3600) + 2)
        if t >= at(2, 3): caught = len(countries)
    serving = {"8.0.10": sorted(countries[:caught]), "8.0.9": sorted(countries[caught:])}
    serving = {k: v for k, v in serving.items() if v}
    health = None
    if t >= at(1, 14) and t.hour % 6 == 2:
        hours = (t - at(1, 8)).total_seconds() / 3600
        play_users = int(4000 + 900 * hours)
        asc_sessions = int(2500 + 700 * hours)
        health = {
            "appStore": {"anrRate": None, "crashRate": wilson(round(asc_sessions * 0.0046), asc_sessions),
                         "verdict": "healthy" if asc_sessions >= 1000 else "insufficientData", "version": "8.0.10"},
            "googlePlay": {"anrRate": wilson(round(play_users * 0.0021), play_users),
                           "crashRate": wilson(round(play_users * (0.0125 if hours < 36 else 0.0071)), play_users),
                           "verdict": "regressed" if hours < 36 else "healthy", "version": "8.0.10"},
        }
    round_ = {"app": app, "appStoreConnect": connect,
              "googlePlay": {"releases": play, "track": "production"}, "health": health,
              "storefronts": serving, "storefrontsWithoutRelease": [],
              "takenAt": t.strftime("%Y-%m-%dT%H:%M:%SZ")}
    lines.append(json.dumps(round_, sort_keys=True, separators=(",", ":")))
sys.stdout.write("\n".join(lines) + "\n")
