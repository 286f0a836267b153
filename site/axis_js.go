//go:build js && wasm

package site

import (
	"math"

	"honnef.co/go/js/dom/v2"
)

// DrawTimeAxis draws the time axis (labels in a band axisH tall) and its
// grid lines down to h, on a canvas w wide; the compare view's timelines
// use it too.
func DrawTimeAxis(ctx *dom.CanvasRenderingContext2D, sc TimeScale, axisH, w, h float64, text, grid string) {
	ticks, _ := sc.Ticks(90)
	ctx.SetFont("11px system-ui, sans-serif")
	ctx.SetTextBaseline("middle")
	ctx.SetFillStyle(text)
	ctx.SetStrokeStyle(grid)
	ctx.SetLineWidth(1)
	ctx.BeginPath()
	for _, tk := range ticks {
		x := math.Round(sc.TimeToPx(tk)) + 0.5
		ctx.MoveTo(x, axisH-4)
		ctx.LineTo(x, h)
		if x < w-50 {
			ctx.FillText(FormatNs(float64(tk)), x+3, axisH/2, 80)
		}
	}
	ctx.Stroke()
}
