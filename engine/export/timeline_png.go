package export

import (
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"

	"schedplay/engine/sim"
)

// TimelinePNG rasterises the same drawing as TimelineSVG into a PNG image
// (for browsers without canvas toBlob, and for the CLI). Text is left out:
// the rows, bands, axis ticks and legend swatches are drawn; a slice is at
// least one pixel wide.
func TimelinePNG(w io.Writer, tl *sim.Timeline, lanes []Lane, opt TimelineOptions) error {
	d, err := layoutTimeline(tl, lanes, opt)
	if err != nil {
		return err
	}
	img := image.NewRGBA(image.Rect(0, 0, d.w, d.h))
	fill(img, img.Bounds(), backgroundColor)
	for _, r := range d.background {
		fill(img, pixelRect(r), r.fill)
	}
	for _, l := range d.lines {
		fill(img, image.Rect(l.x0, l.y0, l.x1+1, l.y1+1), l.stroke)
	}
	for _, r := range d.slices {
		fill(img, pixelRect(r), r.fill)
	}
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	return enc.Encode(w, img)
}

// pixelRect covers a rectangle's centipixel span with whole pixels.
func pixelRect(r rectEl) image.Rectangle {
	x0 := int(r.x0 / cpx)
	x1 := int((r.x1 + cpx - 1) / cpx)
	if x1 <= x0 {
		x1 = x0 + 1
	}
	return image.Rect(x0, r.y, x1, r.y+r.h)
}

// fill paints rect with c.
func fill(img *image.RGBA, rect image.Rectangle, c color.RGBA) {
	draw.Draw(img, rect, &image.Uniform{C: c}, image.Point{}, draw.Src)
}
