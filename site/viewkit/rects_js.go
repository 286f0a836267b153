//go:build js && wasm

package viewkit

import (
	"encoding/binary"
	"math"
	"syscall/js"
)

// Rects batches canvas rectangles of one fill style and alpha and fills
// them in one call into the page (globalThis.schedplayFillRects, in
// index.mjs): a Vera timeline has tens of thousands of them, and one
// syscall/js call per rectangle took a quarter of a second.
type Rects struct {
	xywh []float64
	buf  []byte
	arr  js.Value // a Uint8Array at least len(buf) long
}

// Reset empties the batch (keeping its memory).
func (r *Rects) Reset() { r.xywh = r.xywh[:0] }

// Len is the number of rectangles in the batch.
func (r *Rects) Len() int { return len(r.xywh) / 4 }

// Add appends a rectangle.
func (r *Rects) Add(x, y, w, h float64) { r.xywh = append(r.xywh, x, y, w, h) }

// Fill fills every rectangle with style at alpha as one path, then resets
// the batch. ctx is a CanvasRenderingContext2D.
func (r *Rects) Fill(ctx js.Value, style string, alpha float64) {
	defer r.Reset()
	if len(r.xywh) == 0 {
		return
	}
	fill := js.Global().Get("schedplayFillRects")
	if fill.Type() != js.TypeFunction {
		ctx.Set("globalAlpha", alpha)
		ctx.Set("fillStyle", style)
		ctx.Call("beginPath")
		for i := 0; i+3 < len(r.xywh); i += 4 {
			ctx.Call("rect", r.xywh[i], r.xywh[i+1], r.xywh[i+2], r.xywh[i+3])
		}
		ctx.Call("fill")
		return
	}
	n := len(r.xywh) * 8
	if cap(r.buf) < n {
		r.buf = make([]byte, n, n+n/2)
		r.arr = js.Global().Get("Uint8Array").New(cap(r.buf))
	}
	r.buf = r.buf[:n]
	for i, v := range r.xywh {
		binary.LittleEndian.PutUint64(r.buf[8*i:], math.Float64bits(v))
	}
	js.CopyBytesToJS(r.arr, r.buf)
	fill.Invoke(ctx, style, alpha, r.arr, len(r.xywh))
}

// Batches are rectangle batches keyed by fill style and alpha, filled in
// the order each key was first used (so translucent overlaps blend the
// same way on every draw).
type Batches struct {
	by   map[batchKey]*Rects
	keys []batchKey
	// calls and rects count the page calls and rectangles filled since
	// the last TakeCounts.
	calls, rects int
}

type batchKey struct {
	style string
	alpha float64
}

// Add puts a rectangle in the batch of style at alpha.
func (b *Batches) Add(style string, alpha, x, y, w, h float64) {
	k := batchKey{style, alpha}
	if b.by == nil {
		b.by = map[batchKey]*Rects{}
	}
	r := b.by[k]
	if r == nil {
		r = &Rects{}
		b.by[k] = r
	}
	if r.Len() == 0 {
		b.keys = append(b.keys, k)
	}
	r.Add(x, y, w, h)
}

// Fill fills every batch, then empties them (keeping their memory).
func (b *Batches) Fill(ctx js.Value) {
	for _, k := range b.keys {
		r := b.by[k]
		b.calls++
		b.rects += r.Len()
		r.Fill(ctx, k.style, k.alpha)
	}
	b.keys = b.keys[:0]
	ctx.Set("globalAlpha", 1)
}

// TakeCounts returns how many batches (page calls) and rectangles were
// filled since the last TakeCounts, and starts counting afresh.
func (b *Batches) TakeCounts() (calls, rects int) {
	calls, rects = b.calls, b.rects
	b.calls, b.rects = 0, 0
	return calls, rects
}
