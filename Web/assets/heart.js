// The live heart on the pacer (docs/resonance.md § Live): a Bluetooth chest strap's beats (Heart Rate service
// 0x180D, Heart Rate Measurement 0x2A37), the heart rate and its swing shown beside the horizon, and the session's
// RR record, which `nagi resonance analyze` (or POST /api/resonance at the end of a resonance-steps session) reads.
// Its own module with one hook in pace.html; `window.nagi.heart` is its interface for tests and integrations.

import { apiQuery, errorText, getJSON } from "/assets/api.js";

const HEART_RATE_SERVICE = 0x180d;
const HEART_RATE_MEASUREMENT = 0x2a37;
/** How much later than the intervals it carries a payload may come before the beats between count as lost:
 * straps send about once a second and hold back a beat at slow rates, so a second and a half is ordinary. */
const CONTACT_SLACK_MS = 1500;
/** The swing shown: the heart rate's range over the beats of this last stretch, about one slow breath. */
const SWING_WINDOW_MS = 10000;
/** The options of `nagi resonance analyze` a pacer page's query may carry to POST /api/resonance. */
const ANALYZE_OPTIONS = ["pattern", "ratio", "bpm", "minutes", "cycles"];
/** Fewer beats than the analysis needs are not sent. */
const MINIMUM_BEATS = 50;

/**
 * One 0x2A37 payload (an array of bytes) read: the flags byte says whether the heart rate is 8- or 16-bit (bit 0),
 * whether the strap reports skin contact (bit 2) and has it (bit 1), whether 16 bits of energy expended follow
 * (bit 3) and whether RR intervals in 1/1024 s fill the rest (bit 4).
 */
export function parseMeasurement(bytes) {
  const data = Array.from(bytes, (b) => b & 0xff);
  if (data.length < 2) throw new Error(`a heart-rate measurement of ${data.length} bytes is too short`);
  const flags = data[0];
  let offset = 1;
  const wide = (flags & 0x01) !== 0;
  if (data.length < offset + (wide ? 2 : 1)) throw new Error("the heart-rate measurement ends inside its heart rate");
  const heartRate = wide ? data[1] | (data[2] << 8) : data[1];
  offset += wide ? 2 : 1;
  const contactSupported = (flags & 0x04) !== 0;
  const contact = contactSupported ? (flags & 0x02) !== 0 : null;
  let energyExpended = null;
  if (flags & 0x08) {
    if (data.length < offset + 2) throw new Error("the heart-rate measurement ends inside its energy expended");
    energyExpended = data[offset] | (data[offset + 1] << 8);
    offset += 2;
  }
  const intervals1024 = [];
  if (flags & 0x10) {
    for (; offset + 1 < data.length; offset += 2) intervals1024.push(data[offset] | (data[offset + 1] << 8));
  }
  return { heartRate, contact, energyExpended, intervals1024 };
}

/** A moment as ISO 8601 in UTC with milliseconds, as the record's stamps. */
function iso(milliseconds) {
  return new Date(Math.round(milliseconds)).toISOString();
}

/** The session's live heart: beats placed by their intervals, re-anchored to the clock after a loss of contact. */
class Heart {
  constructor() {
    this.device = null;
    this.heartRate = null;
    this.beats = []; // [{endMs, intervalMs}], endMs on the wall clock (ms since 1970)
    this.lastPayloadMs = null;
    this.gaps = 0;
    this.listeners = new Set();
  }

  /** Takes one payload received at `receivedMs` (now unless given). */
  receive(bytes, receivedMs = Date.now()) {
    const measurement = parseMeasurement(bytes);
    this.heartRate = measurement.heartRate;
    const intervals = measurement.intervals1024.map((v) => (v * 1000) / 1024);
    if (intervals.length > 0) {
      const carried = intervals.reduce((a, b) => a + b, 0);
      const last = this.beats[this.beats.length - 1];
      // Contact lost: longer without beats than the intervals now carried account for. The first beat of this
      // payload then ends where the clock puts it, and the record keeps the jump as a gap.
      const lost = last && this.lastPayloadMs !== null && receivedMs - this.lastPayloadMs > carried + CONTACT_SLACK_MS;
      let end = !last || lost ? receivedMs - carried : last.endMs;
      if (lost) this.gaps += 1;
      for (const interval of intervals) {
        end += interval;
        this.beats.push({ endMs: end, intervalMs: interval });
      }
      this.lastPayloadMs = receivedMs;
    }
    for (const listener of this.listeners) listener(this.state());
  }

  state() {
    const last = this.beats[this.beats.length - 1];
    return {
      connected: this.device !== null && this.device.gatt?.connected === true,
      heartRate: this.heartRate,
      beats: this.beats.length,
      lastIntervalMs: last ? last.intervalMs : null,
      gaps: this.gaps,
    };
  }

  /** The heart rate's range over the last `SWING_WINDOW_MS` of beats, bpm (null with fewer than two). */
  swing() {
    const last = this.beats[this.beats.length - 1];
    if (!last) return null;
    const rates = this.beats.filter((b) => b.endMs > last.endMs - SWING_WINDOW_MS).map((b) => 60000 / b.intervalMs);
    return rates.length < 2 ? null : Math.max(...rates) - Math.min(...rates);
  }

  /** The session's RR record: Polar Sensor Logger's layout, each beat stamped at its end (UTC). */
  record() {
    let text = "# nagi pacer: live RR record from a heart-rate strap; each beat stamped at its end, UTC\n";
    text += "Phone timestamp;RR-interval [ms]\n";
    for (const beat of this.beats) text += `${iso(beat.endMs)};${beat.intervalMs.toFixed(3)}\n`;
    return text;
  }

  /** Asks the browser for a strap and listens to its measurements. */
  async connect() {
    if (!navigator.bluetooth || typeof navigator.bluetooth.requestDevice !== "function") {
      throw new Error("This browser has no Web Bluetooth (Firefox and Safari lack it): open the pacer in Chrome or Edge to connect a heart-rate strap.");
    }
    const device = await navigator.bluetooth.requestDevice({ filters: [{ services: [HEART_RATE_SERVICE] }] });
    const server = await device.gatt.connect();
    const service = await server.getPrimaryService(HEART_RATE_SERVICE);
    const characteristic = await service.getCharacteristic(HEART_RATE_MEASUREMENT);
    characteristic.addEventListener("characteristicvaluechanged", (event) => {
      const view = event.target.value;
      this.receive(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
    });
    await characteristic.startNotifications();
    this.device = device;
    device.addEventListener("gattserverdisconnected", () => {
      for (const listener of this.listeners) listener(this.state());
    });
    for (const listener of this.listeners) listener(this.state());
    return this.state();
  }

  /** Sends the record to POST /api/resonance with the session's options and its start on the record's clock. */
  async analyze(sessionStartMs, query = new URLSearchParams(location.search)) {
    const options = new URLSearchParams();
    for (const name of ANALYZE_OPTIONS) if (query.has(name)) options.set(name, query.get(name));
    if (!options.has("pattern")) options.set("pattern", "resonance-steps");
    if (sessionStartMs !== undefined && sessionStartMs !== null) options.set("start", iso(sessionStartMs));
    return getJSON(`/api/resonance?${apiQuery(options)}`, { method: "POST", body: this.record(), headers: { "Content-Type": "text/plain" } });
  }
}

const heart = new Heart();

/** The panel beside the horizon: a Connect button, the heart rate and its swing, and the verdict at the end. */
function mountPanel() {
  const stylesheet = document.createElement("link");
  stylesheet.rel = "stylesheet";
  stylesheet.href = "/assets/heart.css";
  document.head.append(stylesheet);
  const panel = document.createElement("section");
  panel.id = "heart";
  panel.className = "heart";
  panel.setAttribute("aria-label", "Heart rate");
  panel.innerHTML = `<button id="heart-connect" type="button">Connect heart strap</button>
    <p class="heart-readout"><output id="heart-rate">–</output> bpm · swing <output id="heart-swing">–</output> bpm</p>
    <p id="heart-message" class="heart-message" role="status"></p>`;
  document.body.append(panel);
  const rate = panel.querySelector("#heart-rate");
  const swing = panel.querySelector("#heart-swing");
  const message = panel.querySelector("#heart-message");
  const button = panel.querySelector("#heart-connect");
  heart.listeners.add((state) => {
    panel.dataset.live = String(state.heartRate !== null);
    rate.textContent = state.heartRate === null ? "–" : String(state.heartRate);
    const value = heart.swing();
    swing.textContent = value === null ? "–" : value.toFixed(0);
    button.textContent = state.connected ? "Strap connected" : "Connect heart strap";
  });
  button.addEventListener("click", async () => {
    message.textContent = "";
    try {
      await heart.connect();
    } catch (error) {
      message.textContent = errorText(error);
    }
  });
  return message;
}

const message = mountPanel();

// At the end of a resonance-steps session the record goes to the server and the verdict is shown. The session
// starts where the audio's time 0 lies on the wall clock.
const audio = document.getElementById("audio");
let sessionStartMs = null;
audio?.addEventListener("playing", () => {
  if (sessionStartMs === null) sessionStartMs = Date.now() - audio.currentTime * 1000;
});
audio?.addEventListener("ended", async () => {
  const pattern = new URLSearchParams(location.search).get("pattern");
  if (pattern !== "resonance-steps" || heart.beats.length < MINIMUM_BEATS) return;
  try {
    const report = await heart.analyze(sessionStartMs);
    message.textContent = report.best ? `Resonance: ${report.best.verdict}` : `No verdict: ${report.reason}`;
  } catch (error) {
    message.textContent = errorText(error);
  }
});

window.nagi = window.nagi || {};
window.nagi.heart = {
  connect: () => heart.connect(),
  receive: (bytes, receivedMs) => heart.receive(bytes, receivedMs),
  state: () => heart.state(),
  record: () => heart.record(),
  analyze: (sessionStartMs) => heart.analyze(sessionStartMs),
  swing: () => heart.swing(),
};
