#!/usr/bin/python3
"""An independent computation of a step's low-frequency power and peak (numpy and scipy), for
SpectrumAgreementTests: reads RR intervals (ms, one a line), places each at the end of its beat, resamples
at 4 Hz with a natural cubic spline, cuts each window [start, end) seconds of the record and takes
scipy.signal.welch (Hann, 240-sample segments, half overlap, nfft 1024, mean removed).
Usage: welch_check.py RR_FILE START END [START END ...]
Prints one line per window: <LF power in ms^2> <peak frequency in Hz>."""
import sys
import numpy as np
from scipy.interpolate import CubicSpline
from scipy.signal import welch

path, bounds = sys.argv[1], [float(value) for value in sys.argv[2:]]
rr = np.loadtxt(path)
times = np.cumsum(rr) / 1000.0
spline = CubicSpline(times, rr, bc_type="natural")
fs = 4.0
for start, end in zip(bounds[0::2], bounds[1::2]):
    first, last = int(np.ceil(start * fs)), int(np.floor(end * fs))
    grid = np.arange(first, last) / fs
    series = spline(np.clip(grid, times[0], times[-1]))
    nperseg = min(240, len(series))
    freqs, density = welch(series, fs=fs, window="hann", nperseg=nperseg, noverlap=nperseg // 2, nfft=1024,
                           detrend="constant", scaling="density")
    band = (freqs >= 0.04) & (freqs <= 0.15)
    power = density[band].sum() * (freqs[1] - freqs[0])
    peak = freqs[band][np.argmax(density[band])]
    print(f"{power:.9g} {peak:.9g}")
