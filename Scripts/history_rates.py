"""What the bundled history generators (make-timeline-history.py, make-rollout-history.py) share:
a rate with its 95% Wilson interval, as a history line writes it."""
import math


def wilson(events, trials, z=1.959964):
    p = events / trials
    d = 1 + z * z / trials
    c = (p + z * z / (2 * trials)) / d
    h = z / d * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    return {"lower": round(max(0, c - h), 6), "upper": round(min(1, c + h), 6), "value": round(p, 6)}
