"""Scripted timelines: the three APIs' answers changing round by round, for watch tests.

A timeline is Tests/Fixtures/timeline/<name>.json: {"app": {trackId, bundleId, package}, "steps":
[...]}, each step what the stores show in one round:

  "storefronts"  {cc: version}: the lookup API answers the app in those storefronts with that
                 version (the WeChat fixture otherwise), and nothing in any other
  "play"         the production track's releases in the edits shape; a release's "lifecycle" is
                 what the edit-free list says of it (RELEASE_LIFECYCLE_STATE_…) and is left out of
                 the track itself
  "asc"          the app's appStoreVersions, as a world of worlds.json holds them
  "appRecoveries" Play's App Recovery actions (AppRecoveryAction, as the API lists them) at that
                 step; none when left out. App Recovery's list answers the step of the latest edit

The scenario timeline-<name> plays it on every API. Each API counts the token's rounds itself:
the lookup API each storefront's lookups, the Play API the edits the token opened (its edit-free
list answers the step of the latest edit), the App Store Connect API the first pages of the app's
versions. The Nth of them answers step N (from 0); past the last step it stays there. A round
that reads every store once therefore sees one step of the whole timeline.
"""
import json
import os
import threading

TIMELINES = {}
ROUNDS = {}
LOCK = threading.Lock()


def load(folder):
    if not os.path.isdir(folder):
        return
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                TIMELINES[name[:-5]] = json.load(f)


def named(scenario):
    """The timeline a scenario plays, or None."""
    if not scenario.startswith("timeline-"):
        return None
    return TIMELINES.get(scenario[len("timeline-"):])


def advance(token, counter):
    """Counts one more round of `counter` for the token; returns its step (0 for the first)."""
    with LOCK:
        key = (token, counter)
        ROUNDS[key] = ROUNDS.get(key, 0) + 1
        return ROUNDS[key] - 1


def current(token, counter):
    """The step of the latest round of `counter` (0 before any)."""
    with LOCK:
        return max(ROUNDS.get((token, counter), 1) - 1, 0)


def step(timeline, number):
    steps = timeline["steps"]
    return steps[min(number, len(steps) - 1)]


def play_tracks(timeline, number):
    """The tracks as the edits API serves them at a step (without the lifecycle key)."""
    releases = [{k: v for k, v in r.items() if k != "lifecycle"} for r in step(timeline, number)["play"]]
    return [{"track": "production", "releases": releases}]


def play_summaries(timeline, number):
    """The edit-free list's releases at a step."""
    out = []
    for release in step(timeline, number)["play"]:
        out.append({"releaseName": release.get("name", ""), "track": "production",
                    "activeArtifacts": [{"versionCode": int(c)} for c in release.get("versionCodes", [])],
                    "releaseLifecycleState": release.get("lifecycle", "RELEASE_LIFECYCLE_STATE_PUBLISHED")})
    return out


def play_recoveries(timeline, number):
    """Play's App Recovery actions at a step."""
    return step(timeline, number).get("appRecoveries", [])


def asc_world(timeline, number):
    """The App Store Connect world at a step: the one app and its versions."""
    app = timeline["app"]
    return [{"id": str(app["trackId"]), "bundleId": app["bundleId"], "versions": step(timeline, number)["asc"]}]


def lookup_version(timeline, number, country):
    """The version a storefront serves at a step, or None."""
    return step(timeline, number)["storefronts"].get(country)
