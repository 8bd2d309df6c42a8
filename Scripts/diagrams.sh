#!/usr/bin/env bash
# Draws the watch and rollout guides' timelines from their bundled histories, and the update flow's diagrams from
# the machine itself: `storerelease graph` writes the DOT
# sources into the DocC catalog's Resources, Graphviz's `dot` (Debian package graphviz) renders
# them as SVG, and the transition tables of the simulator guide are printed for pasting. The
# tests fail when a committed source or table differs from what `storerelease graph` prints now.
# Nothing here installs Graphviz: the committed SVGs are Graphviz 2.43.0's (Debian 12's graphviz
# package); another version may lay them out otherwise, and DiagramTests checks the committed
# pictures' text is at least 11 px as the docs' narrowest column (449 px) draws them, and that no
# edge is drawn through a text.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
swift build --product storerelease >/dev/null
tool=.build/debug/storerelease
out=Docs/StoreReleaseKit.docc/Resources
# The watch guide's timeline, drawn for the docs column (480 px: TimelineChartTests checks its text
# is at least 11 px as the column draws it), and its copy in the catalog the guide shows.
"$tool" timeline Docs/Watch/timeline-history.jsonl --width 480 > Docs/Watch/timeline-8.0.10.svg
cp Docs/Watch/timeline-8.0.10.svg "$out/timeline-8.0.10.svg"
echo "wrote Docs/Watch/timeline-8.0.10.svg and $out/timeline-8.0.10.svg"
# The rollout guide's timeline: a rollout the gate ran (Scripts/make-rollout-history.py wrote the
# history), its advances and holds marked, drawn for the same column (TimelineGateMarkTests).
"$tool" timeline Docs/Watch/rollout-history.jsonl --width 480 > Docs/Watch/timeline-8.0.11.svg
cp Docs/Watch/timeline-8.0.11.svg "$out/timeline-8.0.11.svg"
echo "wrote Docs/Watch/timeline-8.0.11.svg and $out/timeline-8.0.11.svg"
command -v dot >/dev/null || { echo "diagrams.sh: Graphviz's dot is not installed (apt-get install graphviz)" >&2; exit 1; }
# One picture a flow (the idle states above its cluster), narrow enough for the docs' narrowest
# column (449 px at a 1024 px window).
for store in googlePlay appStore; do
    for flow in flexible immediate; do
        name="update-flow-$store-$flow"
        "$tool" graph --store "$store" --format dot --flow "$flow" > "$out/$name.dot"
        dot -Tsvg "$out/$name.dot" > "$out/$name.svg"
        echo "wrote $out/$name.dot and .svg"
    done
done
echo
echo "The simulator guide's transition tables (the tests compare them with storerelease graph):"
for store in googlePlay appStore; do
    "$tool" graph --store "$store" --format table
done
