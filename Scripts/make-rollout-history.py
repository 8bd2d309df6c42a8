#!/usr/bin/env python3
"""Writes Docs/Watch/rollout-history.jsonl: a made-up but realistic rollout the gate ran
(`watch --rollout --interval 3600 --history FILE`), hourly from Mon 1 Mar 2021 08:00 UTC for six
days. 8.0.11 (versionCode 82) after the bundled payloads' 8.0.10 (81, completed on Play): Play
1% -> 2% -> 5% -> 10% -> 20% -> 50%, a step a day (`--step-hours 24`), each round's gate decision
in its `rollout` key with the gate's own wording; holds while a step is young, while each store's
data (a day late) do not reach the day the step began, while Play has too few user-days on day 1, while
App Store Connect's analytics report is late, and while Play has changes in review. The App
Store's phased release climbs on Apple's schedule beside it."""
import datetime, json, os, sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from history_rates import wilson  # noqa: E402

start = datetime.datetime(2021, 3, 1, 8, tzinfo=datetime.timezone.utc)
countries = ["us", "gb", "de", "fr", "jp", "ca", "au", "br", "in", "it",
             "es", "mx", "nl", "se", "ch", "sg", "kr", "hk", "tw", "cn"]
app = {"appStoreID": "414478124", "bundleID": "com.tencent.xin", "packageName": "com.tencent.mm"}
steps = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1]
apple = [1, 2, 5, 10, 20, 50, 100]

def at(day, hour):
    return start + datetime.timedelta(days=day, hours=hour - 8)

def number(hours):
    value = round(hours * 10) / 10
    return str(int(value)) if value == int(value) else str(value)

def pct(fraction):
    return number(fraction * 100) + "%"

# When each step began: the gate advances at 08:00 each day once the step is 24 h old and Play's
# data reach its first day, except on day 4, when changes in review hold it until 11:00.
advances = [at(1, 8), at(2, 8), at(3, 8), at(4, 11), at(5, 11)]
in_review = (at(4, 8), at(4, 11))
asc_late = (at(2, 14), at(2, 18))

lines = []
for i in range(0, 6 * 24 + 1):
    t = start + datetime.timedelta(hours=i)
    step = sum(1 for a in advances if a < t)
    began = advances[step - 1] if step else start
    fraction = steps[step]
    # Play: 82 staged at the step's fraction, 81 completed.
    play = [{"status": "inProgress", "userFraction": fraction, "version": "8.0.11", "versionCode": 82},
            {"status": "completed", "userFraction": None, "version": "8.0.10", "versionCode": 81}]
    phase_day = min(7, int((t - start).total_seconds() // 86400) + 1)
    connect = [{"phasedRelease": {"day": phase_day, "percent": apple[phase_day - 1], "state": "ACTIVE"},
                "state": "READY_FOR_DISTRIBUTION", "version": "8.0.11"}]
    serving = {"8.0.11": sorted(countries)} if t >= at(0, 10) else {"8.0.10": sorted(countries)}
    # Health: day k of 8.0.11 on each store beside 8.0.10's day k; Play's data a day late.
    age = (t - start).total_seconds() / 86400
    play_days = max(1, int(age))
    play_users = int(sum(200000 * steps[min(step, d)] for d in range(play_days)) * (0.2 if age < 10 / 24 else 1))
    asc_users = int(3000 * (age + 1))
    def counts(version, code, users, rate, anr):
        return {"ageDays": play_days, "anrUsers": None if anr is None else round(users * anr, 1),
                "crashedUsers": round(users * rate, 1), "users": users, "version": version, "versionCode": code}
    play_verdict = "insufficientData" if play_users < 1000 else "healthy"
    asc_verdict = "unknown" if asc_late[0] <= t < asc_late[1] else "healthy"
    health = {
        "appStore": {"anrRate": None, "baseline": counts("8.0.10", None, asc_users, 0.0047, None),
                     "candidate": counts("8.0.11", None, asc_users, 0.0045, None),
                     "crashRate": wilson(round(asc_users * 0.0045), asc_users), "verdict": asc_verdict,
                     "version": "8.0.11"},
        "googlePlay": {"anrRate": wilson(round(max(play_users, 1) * 0.002), max(play_users, 1)),
                       "baseline": counts("8.0.10", 81, 200000 * play_days, 0.0072, 0.0021),
                       "candidate": counts("8.0.11", 82, max(play_users, 1), 0.0069, 0.002),
                       "crashRate": wilson(round(max(play_users, 1) * 0.0069), max(play_users, 1)),
                       "verdict": play_verdict, "version": "8.0.11"},
    }
    # The gate, in its own words (RolloutGate): advance when nothing holds.
    holds = []
    if play_verdict == "insufficientData":
        holds.append(f"Google Play: insufficientData ({play_users} user-days of 1000)")
    if asc_verdict == "unknown":
        holds.append("App Store: unknown (no Analytics report for " + t.strftime("%Y-%m-%d") + " yet)")
    hours = (t - began).total_seconds() / 3600
    if hours < 24:
        holds.append(f"the step began {number(hours)} hours ago; a step lasts 24 hours")
    # Each store's data reach yesterday from 06:00.
    through = (t - datetime.timedelta(days=1 if t.hour >= 6 else 2)).date()
    if through < began.date():
        for store in ["Google Play", "App Store"]:
            holds.append(f"{store}: its data reach {through.isoformat()}, not yet {began.date().isoformat()}, "
                         "the day the step began")
    if in_review[0] <= t < in_review[1]:
        holds.append("Play has changes in review: the rollout waits for them")
    if holds:
        rollout = {"decision": "hold", "from": fraction, "reasons": holds, "to": None}
    else:
        to = steps[step + 1]
        rollout = {"decision": "complete" if to == 1 else "advance", "from": fraction,
                   "reasons": ["Google Play: healthy", "App Store: healthy"], "to": to}
        assert t in advances, t
    round_ = {"app": app, "appStoreConnect": connect,
              "googlePlay": {"releases": play, "track": "production"}, "health": health,
              "rollout": rollout, "storefronts": serving, "storefrontsWithoutRelease": [],
              "takenAt": t.strftime("%Y-%m-%dT%H:%M:%SZ")}
    lines.append(json.dumps(round_, sort_keys=True, separators=(",", ":")))
sys.stdout.write("\n".join(lines) + "\n")
