package site

import "math"

// TimeScale maps simulated time [T0, T1] (ns) onto pixels [Left, Right].
type TimeScale struct {
	T0, T1      int64
	Left, Right float64
}

// TimeToPx is the x position of time t.
func (s TimeScale) TimeToPx(t int64) float64 {
	if s.T1 <= s.T0 {
		return s.Left
	}
	return s.Left + float64(t-s.T0)*(s.Right-s.Left)/float64(s.T1-s.T0)
}

// PxToTime is the time at x.
func (s TimeScale) PxToTime(x float64) int64 {
	if s.Right <= s.Left {
		return s.T0
	}
	return s.T0 + int64(math.Round((x-s.Left)*float64(s.T1-s.T0)/(s.Right-s.Left)))
}

// NsPerPx is the time one pixel spans.
func (s TimeScale) NsPerPx() float64 {
	if s.Right <= s.Left {
		return 1
	}
	return float64(s.T1-s.T0) / (s.Right - s.Left)
}

// MinSpan is the narrowest window the timeline zooms to (1 µs).
const MinSpan = 1000

// ZoomAt zooms the window [t0, t1] by factor (<1 zooms in) keeping time at
// unchanged, clamped to [0, end].
func ZoomAt(t0, t1, at int64, factor float64, end int64) (int64, int64) {
	span := float64(t1 - t0)
	ns := span * factor
	if ns < MinSpan {
		ns = MinSpan
	}
	if end > 0 && ns > float64(end) {
		ns = float64(end)
	}
	frac := 0.5
	if span > 0 {
		frac = float64(at-t0) / span
	}
	n0 := int64(math.Round(float64(at) - frac*ns))
	return ClampWindow(n0, n0+int64(math.Round(ns)), end)
}

// Pan shifts the window by dt, clamped to [0, end].
func Pan(t0, t1, dt, end int64) (int64, int64) {
	return ClampWindow(t0+dt, t1+dt, end)
}

// ClampWindow keeps [t0, t1] inside [0, end] without changing its span
// (unless the span is larger than end).
func ClampWindow(t0, t1, end int64) (int64, int64) {
	span := t1 - t0
	if span < MinSpan {
		span = MinSpan
	}
	if end > 0 && span > end {
		span = end
	}
	if t0 < 0 {
		t0 = 0
	}
	if end > 0 && t0+span > end {
		t0 = end - span
	}
	return t0, t0 + span
}

// Ticks returns tick times for the window, about every minPx pixels, at a
// 1-2-5 step.
func (s TimeScale) Ticks(minPx float64) (ticks []int64, step int64) {
	raw := s.NsPerPx() * minPx
	step = 1
	for step < int64(raw) {
		switch {
		case step*2 >= int64(raw):
			step *= 2
		case step*5 >= int64(raw):
			step *= 5
		default:
			step *= 10
		}
	}
	for t := (s.T0 + step - 1) / step * step; t <= s.T1; t += step {
		ticks = append(ticks, t)
	}
	return ticks, step
}
