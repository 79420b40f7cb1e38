#!/usr/bin/python3
"""An independent computation of a step's low-frequency power and peak (numpy and scipy), for
SpectrumAgreementTests: reads RR intervals (ms, one a line), places each at the end of its beat, resamples
with a natural cubic spline at 4 Hz from each window's own start (N = round((end - start) * 4) samples, the
whole window [start, end) seconds of the record), and averages scipy.signal.periodogram (Hann, nfft 1024, mean
removed) over K segments of L = 2N // (K + 1) samples spread from the window's first sample to its last, K the
count that brings L nearest 240 (60 s).
Usage: welch_check.py RR_FILE START END [START END ...]
Prints one line per window: <LF power in ms^2> <peak frequency in Hz>."""
import sys
import numpy as np
from scipy.interpolate import CubicSpline
from scipy.signal import periodogram

path, bounds = sys.argv[1], [float(value) for value in sys.argv[2:]]
rr = np.loadtxt(path)
times = np.cumsum(rr) / 1000.0
spline = CubicSpline(times, rr, bc_type="natural")
fs = 4.0
for start, end in zip(bounds[0::2], bounds[1::2]):
    count = int(round((end - start) * fs))
    grid = start + np.arange(count) / fs
    series = spline(np.clip(grid, times[0], times[-1]))
    segments = max(1, int(round(2 * count / 240 - 1))) if count > 240 else 1
    length = 2 * count // (segments + 1) if segments > 1 else count
    starts = [int(round(k * (count - length) / (segments - 1))) for k in range(segments)] if segments > 1 else [0]
    densities = [periodogram(series[s:s + length], fs=fs, window="hann", nfft=1024, detrend="constant",
                             scaling="density")[1] for s in starts]
    freqs = np.fft.rfftfreq(1024, 1 / fs)
    density = np.mean(densities, axis=0)
    band = (freqs >= 0.04) & (freqs <= 0.15)
    power = density[band].sum() * (freqs[1] - freqs[0])
    peak = freqs[band][np.argmax(density[band])]
    print(f"{power:.9g} {peak:.9g}")
