// The schedule of a session on the audio clock: which phase sounds at a time, the level L there, the hold swell,
// the calming and the word shown. Pure functions of the describe JSON and a time in seconds; no clock of its own
// (docs/pacer.md § 2). The rules are nagi's own: Sources/Breath/Easing.swift, Sources/Breath/Schedule.swift and
// Sources/Synth/ControlCurves.swift.

/** The Bézier `"bezier"` names in the describe JSON: (0.25, 0) and (0.75, 1) (docs/sound-design.md § 1). */
const EASE_IN_OUT_BEZIER = [0.25, 0, 0.75, 1];

/** One coordinate of a cubic Bézier from 0 to 1 at parameter t with control values c1, c2. */
function bezier(t, c1, c2) {
  const u = 1 - t;
  return 3 * u * u * t * c1 + 3 * u * t * t * c2 + t * t * t;
}

/** The slope of `bezier` in t. */
function bezierSlope(t, c1, c2) {
  const u = 1 - t;
  return 3 * u * u * c1 + 6 * u * t * (c2 - c1) + 3 * t * t * (1 - c2);
}

/** The parameter t whose x is `x`: 8 Newton steps, else 60 bisection steps, as `Easing.solveBezierParameter`. */
function solveBezierParameter(x, x1, x2) {
  let t = x;
  let converged = true;
  for (let i = 0; i < 8; i++) {
    const error = bezier(t, x1, x2) - x;
    if (Math.abs(error) < 1e-12) return t;
    const slope = bezierSlope(t, x1, x2);
    if (Math.abs(slope) < 1e-9) { converged = false; break; }
    t -= error / slope;
    if (t < 0 || t > 1) { converged = false; break; }
  }
  if (converged && Math.abs(bezier(t, x1, x2) - x) < 1e-9) return t;
  let low = 0;
  let high = 1;
  for (let i = 0; i < 60; i++) {
    t = (low + high) * 0.5;
    if (bezier(t, x1, x2) < x) low = t; else high = t;
  }
  return t;
}

/**
 * The easing curve the describe JSON names: a function from progress p to [0, 1], exactly 0 at p ≤ 0 and 1 at
 * p ≥ 1. `easing` is "cosine", "linear", "bezier" or four Bézier numbers [x1, y1, x2, y2].
 */
export function easingFunction(easing) {
  const points = Array.isArray(easing) ? easing : easing === "bezier" ? EASE_IN_OUT_BEZIER : null;
  let curve;
  if (points) {
    const [x1, y1, x2, y2] = points;
    curve = (p) => Math.min(1, Math.max(0, bezier(solveBezierParameter(p, x1, x2), y1, y2)));
  } else if (easing === "linear") {
    curve = (p) => p;
  } else {
    curve = (p) => (1 - Math.cos(Math.PI * p)) * 0.5;
  }
  return (p) => (!(p > 0) ? 0 : p >= 1 ? 1 : curve(p));
}

/** 3u² − 2u³ on [0, 1]. */
function smoothstep(u) {
  const c = Math.min(1, Math.max(0, u));
  return c * c * (3 - 2 * c);
}

/** The word a phase shows: its stage label, else its own words, else its kind's word (docs/pacer.md § 4). */
export function phaseWord(phase) {
  if (phase.stageLabel) return phase.stageLabel;
  if (phase.say) return phase.say.charAt(0).toUpperCase() + phase.say.slice(1);
  if (phase.kind === "inhale") return "Breathe in";
  if (phase.kind === "exhale") return "Breathe out";
  return "Hold";
}

/** The kind state() reports: inhale, hold (holdIn and holdOut) or exhale. */
export function phaseKindName(kind) {
  return kind === "holdIn" || kind === "holdOut" ? "hold" : kind;
}

/** Fade lengths of a word change, seconds: out before the boundary, in after it (docs/pacer.md § 4). */
export const WORD_FADE_OUT_SECONDS = 0.4;
export const WORD_FADE_IN_SECONDS = 0.6;
/** The hold swell's peak (Presets/soundscapes: holdSwell.peak). */
export const SWELL_PEAK = 2.5;
/** The calming's start and end scale over the session, never 0 (Presets/soundscapes: calming). */
export const CALMING_START = 1.0;
export const CALMING_END = 0.1;

/** A session's schedule on the audio clock, from the describe JSON. */
export class Timeline {
  /**
   * @param {object} describe the JSON of /api/describe
   * @param {number} swellReleaseSeconds how long the hold swell eases back after a hold (the soundscape's)
   */
  constructor(describe, swellReleaseSeconds = 1.5) {
    this.describe = describe;
    this.sampleRate = describe.sampleRate;
    this.phases = describe.phases;
    this.ease = easingFunction(describe.easing);
    this.textEase = easingFunction("bezier");
    this.swellReleaseFrames = Math.max(1, swellReleaseSeconds * this.sampleRate);
    const first = this.phases[0];
    const last = this.phases[this.phases.length - 1];
    /** The frame of the first inhale (the lead-in's length), and the end of the last phase. */
    this.breathingStartFrame = first ? first.startFrame : 0;
    this.breathingEndFrame = last ? last.endFrame : 0;
    this.words = this.phases.map(phaseWord);
    // For each phase, the end of the latest non-empty hold before it (null if none), as ControlCurves keeps it.
    this.recentHoldEnd = [];
    let holdEnd = null;
    for (const phase of this.phases) {
      this.recentHoldEnd.push(holdEnd);
      if (phaseKindName(phase.kind) === "hold" && phase.endFrame > phase.startFrame) holdEnd = phase.endFrame;
    }
    const before = describe.before;
    const leadInSeconds = this.breathingStartFrame / this.sampleRate;
    const saysGetReady = before && before.sounds && before.sounds.some((s) => s.words === "get ready");
    /** The countdown's whole seconds (the numbers N … 1 before the first inhale). */
    this.countdownSeconds = Math.round(leadInSeconds - (saysGetReady ? 2 : 0));
  }

  /** The phase start times in seconds, on the audio clock. */
  startSeconds(index) {
    return this.phases[index].startFrame / this.sampleRate;
  }

  /**
   * The index of the phase sounding at `frame`: −1 before the first phase (the lead-in), phases.length at or after
   * the end of the last (the release and the ending). Zero-length phases are never returned.
   */
  phaseIndex(frame) {
    const phases = this.phases;
    if (phases.length === 0 || frame < this.breathingStartFrame) return -1;
    if (frame >= this.breathingEndFrame) return phases.length;
    let low = 0;
    let high = phases.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (phases[middle].startFrame <= frame) low = middle; else high = middle - 1;
    }
    return low;
  }

  /** Progress through phase `index` at `frame`, in [0, 1] (`Schedule.progress`). */
  progress(frame, index) {
    const phase = this.phases[index];
    const count = phase.endFrame - phase.startFrame;
    if (count <= 0) return 1;
    const offset = frame - phase.startFrame;
    return offset <= 0 ? 0 : offset >= count ? 1 : offset / count;
  }

  /** The level within a phase along `ease`; before the first phase its start level, after the last its end. */
  levelWith(ease, frame, index) {
    const phases = this.phases;
    if (phases.length === 0) return 0;
    if (index < 0) return phases[0].fromLevel;
    if (index >= phases.length) return phases[phases.length - 1].toLevel;
    const phase = phases[index];
    return phase.fromLevel + (phase.toLevel - phase.fromLevel) * ease(this.progress(frame, index));
  }

  /**
   * The hold swell (×1 outside holds, rising to ×2.5 through each, easing back after): `ControlCurves.holdSwell`.
   * Before the first phase it is 1; past the last, the last phase's value at its end, as the sound keeps it.
   */
  holdSwell(frame, index) {
    if (index < 0 || this.phases.length === 0) return 1;
    const i = Math.min(index, this.phases.length - 1);
    const phase = this.phases[i];
    if (phaseKindName(phase.kind) !== "hold" || phase.endFrame <= phase.startFrame) return this.swellAfterHolds(frame, i);
    const start = this.swellAfterHolds(phase.startFrame, i);
    return start + (SWELL_PEAK - start) * smoothstep(this.progress(frame, i));
  }

  /** What is left at `frame` of the swell of the latest hold before phase `index`, easing from the peak to 1. */
  swellAfterHolds(frame, index) {
    const holdEnd = this.recentHoldEnd[index];
    if (holdEnd === null) return 1;
    const elapsed = frame - holdEnd;
    if (elapsed >= this.swellReleaseFrames) return 1;
    return 1 + (SWELL_PEAK - 1) * (1 - smoothstep(elapsed / this.swellReleaseFrames));
  }

  /** The calming: 1 → 0.1 linearly over the breathing, never 0 (`ControlCurves.calming`). */
  calming(frame) {
    const total = this.breathingEndFrame - this.breathingStartFrame;
    const progress = total > 0 ? Math.min(1, Math.max(0, (frame - this.breathingStartFrame) / total)) : 1;
    return CALMING_START + (CALMING_END - CALMING_START) * progress;
  }

  /** The word at `frame`: the lead-in's "Get ready" and countdown numbers, the phase's word, nothing after. */
  wordAt(frame, index) {
    if (index >= 0) return index < this.phases.length ? this.words[index] : "";
    const remaining = Math.ceil((this.breathingStartFrame - frame) / this.sampleRate - 1e-9);
    return remaining <= this.countdownSeconds && remaining >= 1 ? String(remaining) : "Get ready";
  }

  /**
   * The word's opacity at `frame`: where the word changes at a boundary B, the old word fades out over the 0.4 s
   * before B and the new one in over the 0.6 s after it, so the new word appears with the phase's sound.
   */
  wordOpacity(frame, index) {
    const rate = this.sampleRate;
    const [start, end] = this.wordSpan(frame, index);
    const word = this.wordAt(frame, index);
    let opacity = 1;
    if (start !== null && this.wordAt(start - 1, this.phaseIndex(start - 1)) !== word) {
      opacity = Math.min(opacity, (frame - start) / (WORD_FADE_IN_SECONDS * rate));
    }
    if (end !== null && this.wordAt(end, this.phaseIndex(end)) !== word) {
      opacity = Math.min(opacity, (end - frame) / (WORD_FADE_OUT_SECONDS * rate));
    }
    return Math.min(1, Math.max(0, opacity));
  }

  /** The frames where the word at `frame` began and ends (null where it has no such edge). */
  wordSpan(frame, index) {
    const rate = this.sampleRate;
    if (index < 0) {
      const remaining = (this.breathingStartFrame - frame) / rate;
      if (remaining > this.countdownSeconds) return [null, this.breathingStartFrame - this.countdownSeconds * rate];
      const n = Math.ceil(remaining - 1e-9);
      return [this.breathingStartFrame - n * rate, this.breathingStartFrame - (n - 1) * rate];
    }
    if (index >= this.phases.length) return [this.breathingEndFrame, null];
    return [this.phases[index].startFrame, this.phases[index].endFrame];
  }

  /** Everything the scene draws at `seconds` on the audio clock. */
  at(seconds) {
    const frame = seconds * this.sampleRate;
    const index = this.phaseIndex(frame + 1e-6);
    const phase = index >= 0 && index < this.phases.length ? this.phases[index] : null;
    return {
      time: seconds,
      frame,
      phaseIndex: index,
      phaseKind: phase ? phaseKindName(phase.kind) : null,
      level: this.levelWith(this.ease, frame, index),
      textLevel: this.levelWith(this.textEase, frame, index),
      swell: this.holdSwell(frame, index),
      calming: this.calming(frame),
      text: this.wordAt(frame, index),
      textOpacity: this.wordOpacity(frame, index),
    };
  }
}
