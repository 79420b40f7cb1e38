"""The schedule as a listener would expect it, computed here from the describe JSON alone.

Independent of the page's JavaScript: the tests compare the page's state() with these values. The rules are
docs/pacer.md § 2 (and nagi's Schedule): phase k covers frames [startFrame, endFrame); before the first phase the
level is the first phase's fromLevel, after the last the last phase's toLevel; within a phase the level is
fromLevel + (toLevel − fromLevel) · ease((frame − startFrame) / (endFrame − startFrame)).
"""
import math

KIND_WORDS = {"inhale": "Breathe in", "exhale": "Breathe out", "holdIn": "Hold", "holdOut": "Hold"}
KIND_NAMES = {"inhale": "inhale", "exhale": "exhale", "holdIn": "hold", "holdOut": "hold"}


def bezier_ease(x1, y1, x2, y2):
    """A cubic Bézier ease, solved for x by bisection only (80 steps: far below any tolerance here)."""
    def coordinate(t, a, b):
        u = 1 - t
        return 3 * u * u * t * a + 3 * u * t * t * b + t ** 3

    def ease(p):
        low, high = 0.0, 1.0
        for _ in range(80):
            middle = (low + high) / 2
            if coordinate(middle, x1, x2) < p:
                low = middle
            else:
                high = middle
        return coordinate((low + high) / 2, y1, y2)
    return ease


def easing(name):
    if isinstance(name, list):
        inner = bezier_ease(*name)
    elif name == "bezier":
        inner = bezier_ease(0.25, 0, 0.75, 1)
    elif name == "linear":
        inner = lambda p: p
    elif name == "cosine":
        inner = lambda p: (1 - math.cos(math.pi * p)) / 2
    else:
        raise ValueError(f"unknown easing {name!r}")
    return lambda p: 0.0 if p <= 0 else 1.0 if p >= 1 else inner(p)


class Expected:
    """What the page should show at a time on the audio clock."""

    def __init__(self, describe):
        self.describe = describe
        self.rate = describe["sampleRate"]
        self.phases = describe["phases"]
        self.ease = easing(describe["easing"])

    def boundaries(self):
        """Every phase boundary in seconds."""
        edges = set()
        for p in self.phases:
            edges.add(p["startFrame"] / self.rate)
            edges.add(p["endFrame"] / self.rate)
        return sorted(edges)

    def near_boundary(self, seconds, within):
        return any(abs(seconds - b) < within for b in self.boundaries())

    def index(self, seconds):
        frame = seconds * self.rate
        if frame < self.phases[0]["startFrame"]:
            return -1
        for i, p in enumerate(self.phases):
            if p["startFrame"] <= frame < p["endFrame"]:
                return i
        return len(self.phases)

    def level(self, seconds):
        frame = seconds * self.rate
        i = self.index(seconds)
        if i < 0:
            return self.phases[0]["fromLevel"]
        if i >= len(self.phases):
            return self.phases[-1]["toLevel"]
        p = self.phases[i]
        progress = (frame - p["startFrame"]) / (p["endFrame"] - p["startFrame"])
        return p["fromLevel"] + (p["toLevel"] - p["fromLevel"]) * self.ease(progress)

    def kind(self, seconds):
        i = self.index(seconds)
        return KIND_NAMES[self.phases[i]["kind"]] if 0 <= i < len(self.phases) else None

    def word(self, seconds):
        """The phase's word; the countdown's numbers (or "Get ready") before; nothing after."""
        i = self.index(seconds)
        if i >= len(self.phases):
            return ""
        if i >= 0:
            p = self.phases[i]
            if p.get("stageLabel"):
                return p["stageLabel"]
            if p.get("say"):
                return p["say"][0].upper() + p["say"][1:]
            return KIND_WORDS[p["kind"]]
        lead = self.phases[0]["startFrame"] / self.rate
        sounds = (self.describe.get("before") or {}).get("sounds", [])
        numbers = lead - (2 if any(s.get("words") == "get ready" for s in sounds) else 0)
        remaining = math.ceil(lead - seconds - 1e-9)
        return str(remaining) if 1 <= remaining <= round(numbers) else "Get ready"
