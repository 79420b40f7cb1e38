// The pacer's picture: a sky and a sea divided by a breathing horizon, three ripple layers under the water, and the
// phase word split in colour exactly at the line. Every number here is in docs/pacer.md § 3; draw() is a pure
// function of the instant the schedule gives (the audio clock), so what is seen follows what is heard.

/** Where the horizon sits, as a fraction of the scene's height from the top: 65 % exhaled, 35 % inhaled. */
export function horizonFraction(level) {
  return 0.65 - 0.30 * level;
}

/** The horizon line's wave: amplitude (px, before the calming), wavelength (px) (docs/pacer.md § 3). */
const LINE_AMPLITUDE = 5;
const LINE_WAVELENGTH = 320;

/** The three ripple layers: rate (rad/s), amplitude (px), phase (rad), opacity, wavelength (px) and depth (docs/pacer.md § 3). */
const RIPPLES = [
  { rate: 1.5, amplitude: 4, phase: 0, opacity: 0.25, wavelength: 260, depth: 0.14 },
  { rate: 2.3, amplitude: 3, phase: Math.PI / 3, opacity: 0.18, wavelength: 210, depth: 0.36 },
  { rate: 3.1, amplitude: 2, phase: (2 * Math.PI) / 3, opacity: 0.12, wavelength: 170, depth: 0.62 },
];

/** The ripples' share under prefers-reduced-motion (and the line stops travelling). */
const REDUCED_MOTION_SCALE = 0.25;

/**
 * The palettes by soundscape and scheme (docs/pacer.md § 5). sky: top → at the horizon; water: at the horizon → bottom;
 * line: the horizon line; ripple: the layers' fill; skyInk/waterInk: the word over the sky and over the water;
 * speed: how fast the line's wave travels (px/s, the soundscape's shimmer speed).
 */
export const PALETTES = {
  horizon: {
    light: { sky: ["#7fa7e6", "#e4edfb"], water: ["#2e5e9c", "#0e2747"], line: "rgba(255,255,255,0.85)", ripple: "#061a36", skyInk: "#11284a", waterInk: "#f4f8ff" },
    dark: { sky: ["#081530", "#2a4c86"], water: ["#0b2140", "#02070f"], line: "rgba(190,215,255,0.7)", ripple: "#000000", skyInk: "#f3efe4", waterInk: "#9fcdfb" },
    speed: 160,
  },
  dusk: {
    light: { sky: ["#8573bd", "#ffd3bd"], water: ["#5b3f7b", "#20153a"], line: "rgba(255,236,222,0.85)", ripple: "#12091f", skyInk: "#2c1737", waterInk: "#fff1e9" },
    dark: { sky: ["#1a1030", "#7a3a3a"], water: ["#2a1735", "#090510"], line: "rgba(255,190,160,0.6)", ripple: "#000000", skyInk: "#fbe8dc", waterInk: "#e0b3c6" },
    speed: 130,
  },
  night: {
    light: { sky: ["#56659f", "#c6cce9"], water: ["#26305d", "#0a0e25"], line: "rgba(235,238,255,0.85)", ripple: "#04061a", skyInk: "#131938", waterInk: "#eaedff" },
    dark: { sky: ["#0d0d26", "#1a1a4d"], water: ["#0f1133", "#020208"], line: "rgba(170,175,255,0.55)", ripple: "#000000", skyInk: "#e4e6ff", waterInk: "#9aa3e8" },
    speed: 100,
  },
  rain: {
    light: { sky: ["#8a90aa", "#e0e3ec"], water: ["#484e6e", "#1b1f33"], line: "rgba(240,242,250,0.85)", ripple: "#0b0d18", skyInk: "#1c2133", waterInk: "#f1f3f9" },
    dark: { sky: ["#1a1a4d", "#4d4d80"], water: ["#1b1d31", "#05060c"], line: "rgba(200,205,235,0.55)", ripple: "#000000", skyInk: "#eceefa", waterInk: "#aab1d6" },
    speed: 160,
  },
};

/** The palette a soundscape name takes: `auto` by the local hour (6–18 horizon, 19–20 dusk, else night). */
export function paletteName(soundscape, hour = new Date().getHours()) {
  if (soundscape === "auto") return hour >= 6 && hour <= 18 ? "horizon" : hour >= 19 && hour <= 20 ? "dusk" : "night";
  return Object.hasOwn(PALETTES, soundscape) ? soundscape : "horizon";
}

/** Draws the scene on a canvas; size() after a resize, draw() on every animation frame. */
export class Scene {
  constructor(canvas) {
    this.canvas = canvas;
    this.context = canvas.getContext("2d");
    this.palette = PALETTES.horizon;
    this.scheme = "light";
    this.reducedMotion = false;
    this.size();
  }

  /** Matches the backing store to the canvas's CSS size at the device's pixel ratio. */
  size() {
    const ratio = window.devicePixelRatio || 1;
    this.width = this.canvas.clientWidth;
    this.height = this.canvas.clientHeight;
    this.canvas.width = Math.max(1, Math.round(this.width * ratio));
    this.canvas.height = Math.max(1, Math.round(this.height * ratio));
    this.context.setTransform(ratio, 0, 0, ratio, 0, 0);
  }

  /** The horizon's y at x (px): its height plus the travelling sine. */
  lineY(x, baseY, time, calming) {
    const wave = this.reducedMotion ? 0 : (2 * Math.PI * this.palette.speed * time) / LINE_WAVELENGTH;
    return baseY + LINE_AMPLITUDE * calming * Math.sin(wave - (2 * Math.PI * x) / LINE_WAVELENGTH);
  }

  /** Traces the horizon from left to right in 4 px steps. */
  traceLine(baseY, time, calming) {
    const c = this.context;
    c.moveTo(0, this.lineY(0, baseY, time, calming));
    for (let x = 4; x < this.width + 4; x += 4) c.lineTo(x, this.lineY(x, baseY, time, calming));
  }

  /** Closes a path traced along the line: up to the top edge (the sky) or down to the bottom (the water). */
  regionPath(baseY, time, calming, above) {
    const c = this.context;
    const edge = above ? 0 : this.height;
    c.beginPath();
    this.traceLine(baseY, time, calming);
    c.lineTo(this.width + 4, edge);
    c.lineTo(0, edge);
    c.closePath();
  }

  /**
   * Draws the instant `moment` (from Timeline.at): level, textLevel, swell, calming, text, textOpacity, time.
   */
  draw(moment) {
    const c = this.context;
    const colours = this.palette[this.scheme];
    const w = this.width;
    const h = this.height;
    const baseY = horizonFraction(moment.level) * h;
    const time = moment.time;
    const calming = moment.calming;

    const sky = c.createLinearGradient(0, 0, 0, baseY);
    sky.addColorStop(0, colours.sky[0]);
    sky.addColorStop(1, colours.sky[1]);
    c.fillStyle = sky;
    c.fillRect(0, 0, w, baseY + LINE_AMPLITUDE + 1);

    const water = c.createLinearGradient(0, baseY, 0, h);
    water.addColorStop(0, colours.water[0]);
    water.addColorStop(1, colours.water[1]);
    c.fillStyle = water;
    this.regionPath(baseY, time, calming, false);
    c.fill();

    // The ripples: each layer's sine, closed to the bottom, its amplitude × swell × calming.
    const motion = this.reducedMotion ? REDUCED_MOTION_SCALE : 1;
    const rippleTime = this.reducedMotion ? 0 : time;
    c.fillStyle = colours.ripple;
    for (const layer of RIPPLES) {
      const amplitude = layer.amplitude * moment.swell * calming * motion;
      const y0 = baseY + (h - baseY) * layer.depth;
      const k = (2 * Math.PI) / layer.wavelength;
      c.globalAlpha = layer.opacity;
      c.beginPath();
      c.moveTo(0, y0 + amplitude * Math.sin(layer.rate * rippleTime + layer.phase));
      for (let x = 4; x < w + 4; x += 4) c.lineTo(x, y0 + amplitude * Math.sin(layer.rate * rippleTime - k * x + layer.phase));
      c.lineTo(w + 4, h);
      c.lineTo(0, h);
      c.closePath();
      c.fill();
    }
    c.globalAlpha = 1;

    c.strokeStyle = colours.line;
    c.lineWidth = 1.5;
    c.beginPath();
    this.traceLine(baseY, time, calming);
    c.stroke();

    if (moment.text && moment.textOpacity > 0) this.drawWord(moment, baseY, colours);
  }

  /** The word twice: the sky's ink clipped above the line, the water's below it, so the colour splits at the line. */
  drawWord(moment, baseY, colours) {
    const c = this.context;
    const h = this.height;
    const size = Math.round(Math.min(56, Math.max(28, Math.min(this.width, h) * 0.085)));
    // The word travels 75 % → 25 % of the height, on the text's own easing, so it crosses the line mid-breath.
    const y = (0.75 - 0.5 * moment.textLevel) * h;
    c.font = `300 ${size}px system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif`;
    c.textAlign = "center";
    c.textBaseline = "middle";
    c.globalAlpha = moment.textOpacity;
    for (const above of [true, false]) {
      c.save();
      this.regionPath(baseY, moment.time, moment.calming, above);
      c.clip();
      c.fillStyle = above ? colours.skyInk : colours.waterInk;
      c.fillText(moment.text, this.width / 2, y);
      c.restore();
    }
    c.globalAlpha = 1;
  }
}
